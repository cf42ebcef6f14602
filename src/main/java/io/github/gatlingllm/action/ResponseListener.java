package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.metrics.AnswerTimings;
import io.github.gatlingllm.metrics.Exchange;
import io.github.gatlingllm.metrics.RequestClassifier;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.RequestTimings;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.metrics.Verdict;
import io.github.gatlingllm.openai.SseParser;
import io.github.gatlingllm.openai.StreamEvent;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.OpenRequests;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Not API. One LLM request on the wire, as Gatling's HTTP client reports it: every callback runs on
 * the virtual user's event loop, one at a time. Each body chunk is stamped with {@link
 * System#nanoTime()} before anything else is done with it; an event stream's bytes go through the
 * {@link SseParser} and each event's JSON is parsed from its bytes; any other body (an error
 * answer, a non-streamed completion) is kept, up to a bound, from this very answer. When the
 * exchange ends (last chunk, error, or the client's request timeout), the outcome is classified by
 * {@link RequestClassifier}, recorded, logged as rows, and the virtual user goes on.
 *
 * <p>Exactly once: Gatling 3.16.0's client sends a request again on a new connection when a pooled
 * connection closes mid-response ({@code HttpAppHandler.channelInactive} resets "response received"
 * before it tests whether a retry is allowed). {@link GatlingHttp#guardResponseEnd}, installed on
 * the channel in {@link #onWrite(Channel)}, turns such a close into an error of this request at
 * once, so the retry (and the idle pooled connection it would drop) never happens. Should a retry
 * still come, the second {@link #onSend()} after a response head is caught here: the new channel is
 * closed in {@link #onWrite(Channel)}, before the request is written, and the request ends as the
 * connection closed. The retry Gatling's client means to make is let through: the pooled connection
 * closed before any answer, because the server had closed it after its previous answer while this
 * request was being written (llama.cpp closes after every streamed answer, without {@code
 * Connection: close}), so it did not read the first copy. A server that reads a request on a pooled
 * connection and closes it without a word gets it twice, as from any client that retries stale
 * keep-alive connections.
 *
 * <p>Every request sent is recorded: one still in flight when the run record is written is cut
 * there ({@link #cutByRunEnd}, from the thread that writes the record) and recorded with status
 * {@code cut_by_run_end} and what was measured until then. The callbacks and the cut hold this
 * listener's lock, so a request ends exactly once, one way or the other.
 */
final class ResponseListener implements HttpListener, SseParser.Listener, OpenRequests.Open {

  /** The most bytes kept of an answer that is not an event stream and not a wanted completion. */
  static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

  /** The most bytes kept of a non-streamed completion. */
  static final int MAX_COMPLETION_BYTES = 16 * 1024 * 1024;

  private final LlmAction action;
  private final Session session;
  private final RequestIdentity identity;
  private final Workload workload;
  private final boolean streamed;
  private final CachePlan.Sent sent;
  private final CachePlan.Server cacheServer;
  private final ConversationTurn turn;
  private final ClientWatch.First first;

  /** The reply's text so far, only when a {@code saveReplyAs} key asks for it; else null. */
  private final StringBuilder reply;

  private long startMs;
  private long startNanos;
  private RequestTimer timer;
  private SseParser parser;
  private ByteArrayOutputStream body;
  private int bodyLimit;
  private boolean bodyCut;
  private int sends;
  private boolean resent;
  private Integer httpStatus;
  private String contentType;
  private long chunkNanos;
  private boolean done;

  /** The chosen cancellation delay in nanoseconds, or -1 when this request is not cancelled. */
  private final long cancelAfterNanos;

  private final Double cancelAfterMs;
  private Channel channel;
  private io.netty.util.concurrent.ScheduledFuture<?> cancelTimer;
  private boolean cancelled;

  ResponseListener(
      LlmAction action,
      Session session,
      RequestIdentity identity,
      Workload workload,
      boolean streamed,
      CachePlan.Sent sent,
      CachePlan.Server cacheServer) {
    this(action, session, identity, workload, streamed, sent, cacheServer, null, null);
  }

  ResponseListener(
      LlmAction action,
      Session session,
      RequestIdentity identity,
      Workload workload,
      boolean streamed,
      CachePlan.Sent sent,
      CachePlan.Server cacheServer,
      ConversationTurn turn,
      ClientWatch.First first) {
    this.turn = turn;
    this.action = action;
    this.session = session;
    this.identity = identity;
    this.workload = workload;
    this.streamed = streamed;
    this.sent = sent;
    this.cacheServer = cacheServer;
    this.first = first;
    this.reply = action.spec().replySaves().text() != null ? new StringBuilder() : null;
    io.github.gatlingllm.settings.CancelSettings cancel = action.run().settings().cancel();
    // Conversations are not cancelled: a cut reply would end the conversation.
    boolean chosen =
        turn == null
            && identity.index() != null
            && cancel.chosen(
                action.run().settings().seed(),
                identity.request(),
                identity.phase(),
                identity.index());
    this.cancelAfterMs = chosen ? cancel.afterMs() : null;
    this.cancelAfterNanos = chosen ? Math.round(cancel.afterMs() * 1_000_000.0) : -1;
    start();
    action.run().openRequests().add(this);
  }

  /** The request was never handed to the client: it is not open any more. */
  void abandon() {
    action.run().openRequests().remove(this);
  }

  /** The request's start: when the client takes it to send, before any connect. */
  private void start() {
    startMs = action.run().gatling().nowMillis();
    startNanos = System.nanoTime();
    timer = new RequestTimer(startMs, startNanos);
  }

  @Override
  public void onSend() {
    if (++sends == 1) {
      // Restart the clock here: a throttled request waited for the throttler until now.
      start();
    }
  }

  @Override
  public void onWrite(Channel channel) {
    // A close after the head ends this request at once, never a retry (see the method).
    GatlingHttp.guardResponseEnd(channel);
    if (cancelled) {
      // Gatling's client would send a cancelled request again on a new connection: never.
      channel.close();
      return;
    }
    if (cancelAfterNanos >= 0 && !(sends > 1 && httpStatus != null)) {
      startCancelTimer(channel);
    }
    if (sends > 1 && httpStatus != null) {
      // Gatling's client is about to send again a request whose answer had begun: never.
      resent = true;
      channel.close();
    } else if (sends == 2) {
      // A pooled connection closed before any answer (llama.cpp closes after each streamed
      // answer): Gatling's client sends the request again on a new connection. Counted.
      action.run().staleConnectionResend();
    }
  }

  /**
   * Starts the cancellation delay once the request is fully written: {@code onWrite} runs on the
   * channel's event loop just before Gatling's client writes and flushes the request in the same
   * task, so a task queued now runs once that write is done; if the socket did not take every byte
   * yet (a large prompt), it looks again every millisecond until the outbound buffer is empty.
   */
  private void startCancelTimer(Channel channel) {
    if (cancelTimer != null) {
      // The request goes out again on a new connection (the pooled one had closed before any
      // answer): the delay starts again from this write.
      cancelTimer.cancel(false);
      cancelTimer = null;
    }
    this.channel = channel;
    channel.eventLoop().execute(() -> whenWritten(channel));
  }

  private void whenWritten(Channel channel) {
    synchronized (this) {
      if (done || channel != this.channel) {
        return;
      }
      io.netty.channel.ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
      if (out != null && channel.isActive() && !out.isEmpty()) {
        cancelTimer =
            channel
                .eventLoop()
                .schedule(
                    () -> whenWritten(channel), 1, java.util.concurrent.TimeUnit.MILLISECONDS);
        return;
      }
      cancelTimer =
          channel
              .eventLoop()
              .schedule(
                  this::cancelNow, cancelAfterNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
  }

  /**
   * The chosen delay is over: closes the connection (never returned to the pool half-read), records
   * the request as {@code cancelled} with what was measured until now, and lets the user go on.
   */
  private void cancelNow() {
    long now = System.nanoTime();
    Session next;
    synchronized (this) {
      if (done) {
        return;
      }
      done = true;
      cancelled = true;
      cancelTimer = null;
      if (channel != null) {
        channel.close();
      }
      action.run().openRequests().remove(this);
      next = recordCancelled(now);
    }
    action.run().cancelled(now);
    action.next().$bang(next);
  }

  private Session recordCancelled(long endNanos) {
    boolean recorded = false;
    try {
      Integer planned = identity.plannedTokens();
      RequestTimings timings;
      AnswerTimings answer;
      if (parser != null) {
        timings = timer.finish(endNanos, planned);
        answer = timer.answer(action.run().reasoningCounter());
      } else {
        timings =
            RequestTimer.nonStreaming(
                startMs, startNanos, endNanos, StreamEvent.EMPTY, planned, null);
        answer = AnswerTimings.NONE;
      }
      RequestRecord record =
          complete(
              RequestRecord.of(
                      identity, timings, httpStatus, RequestStatus.CANCELLED, cancelDescription())
                  .toBuilder()
                  .answer(answer)
                  .build());
      action.run().record(workload, record);
      recorded = true;
      GatlingCore gatling = action.run().gatling();
      boolean warmup = "warmup".equals(record.phase());
      Session s = warmup ? GatlingCore.enterGroup(session, "warmup", startMs) : session;
      long end = startMs + Math.round(record.e2eMs());
      // Its own row, OK: visible, and neither a failure nor a KO of the request's own row.
      gatling.logRow(s, action.name() + " CANCELLED", startMs, end, true, null);
      s = GatlingCore.logGroupRequestTimings(s, startMs, end);
      return warmup ? gatling.exitGroup(s, end) : s;
    } catch (RuntimeException e) {
      long now = action.run().gatling().nowMillis();
      action.run().gatling().logRow(session, action.name(), startMs, now, false, e.toString());
      return session.markAsFailed();
    } finally {
      if (!recorded) {
        action.run().notSent();
      }
      if (workload != null) {
        workload.ended(identity.phase());
      }
    }
  }

  private String cancelDescription() {
    String ms = java.math.BigDecimal.valueOf(cancelAfterMs).stripTrailingZeros().toPlainString();
    return "cancelled by the client " + ms + " ms after the request was written (llm.cancelRate)";
  }

  @Override
  public void onFinalClientRequest(Request request) {}

  @Override
  public synchronized void onHttpResponse(HttpResponseStatus status, HttpHeaders headers) {
    if (done) {
      return;
    }
    httpStatus = status.code();
    contentType = headers.get(HttpHeaderNames.CONTENT_TYPE);
    if (streamed && httpStatus == 200 && isEventStream(contentType)) {
      parser = new SseParser(this);
    } else {
      boolean completion = !streamed && httpStatus >= 200 && httpStatus < 300;
      bodyLimit = completion ? MAX_COMPLETION_BYTES : MAX_ERROR_BODY_BYTES;
      body = new ByteArrayOutputStream(completion ? 4096 : 512);
    }
  }

  @Override
  public void onHttpResponseBodyChunk(ByteBuf chunk, boolean last) {
    long now = System.nanoTime();
    synchronized (this) {
      if (done) {
        return;
      }
      chunkNanos = now;
      take(chunk);
    }
    if (last) {
      end(Exchange.Ending.COMPLETE, null, now);
    }
  }

  /** One chunk's bytes, to the parser or the kept body. */
  private void take(ByteBuf chunk) {
    if (parser != null) {
      parser.feed(chunk.nioBuffer());
    } else if (body != null) {
      int room = bodyLimit - body.size();
      int n = Math.min(room, chunk.readableBytes());
      if (n < chunk.readableBytes()) {
        bodyCut = true;
      }
      if (n > 0) {
        byte[] bytes = new byte[n];
        chunk.getBytes(chunk.readerIndex(), bytes);
        body.write(bytes, 0, n);
      }
    }
  }

  /** One event's data, from the parser, while the chunk that completed it is being handled. */
  @Override
  public void onData(byte[] buffer, int from, int to) {
    StreamEvent event =
        StreamEvent.parse(buffer, from, to, turn != null || reply != null || timer.wantsText());
    if (reply != null && event.content() != null) {
      reply.append(event.content());
    }
    if (turn != null) {
      turn.onEvent(event);
    }
    timer.onEvent(chunkNanos, event);
  }

  @Override
  public void onThrowable(Throwable t) {
    long now = System.nanoTime();
    if (done) {
      return;
    }
    Exchange.Ending ending;
    String failure;
    if (GatlingHttp.isTimeout(t)) {
      ending = Exchange.Ending.TIMED_OUT;
      failure = null;
    } else if (httpStatus != null) {
      ending = Exchange.Ending.BROKEN;
      failure = resent ? "closed by the server (not sent again)" : GatlingHttp.brokenBy(t);
    } else {
      // No head: refused, reset, or closed before any answer (a pooled connection that closed
      // so is sent once more on a new one by Gatling's client: this is that one's end).
      ending = Exchange.Ending.CONNECT_FAILED;
      failure = oneLine(t);
    }
    end(ending, failure, now);
  }

  private void end(Exchange.Ending ending, String failure, long endNanos) {
    Session next;
    synchronized (this) {
      if (done) {
        // cut by the run's end: recorded there; the virtual user does not go on
        return;
      }
      done = true;
      stopCancelTimer();
      action.run().openRequests().remove(this);
      next = record(ending, failure, endNanos);
    }
    action.next().$bang(next);
  }

  /**
   * Ends the request now if it has not ended: records it with status {@code cut_by_run_end}, the
   * timings measured until {@code endNanos} (TTFT if the first token came, the tokens so far) and
   * the response status if a head came. No Gatling row is logged (Gatling's stats are closed) and
   * the virtual user does not go on.
   */
  @Override
  public synchronized boolean cutByRunEnd(long endNanos, String reason) {
    if (done) {
      return false;
    }
    done = true;
    stopCancelTimer();
    boolean recorded = false;
    try {
      Integer planned = identity.plannedTokens();
      RequestTimings timings =
          streamed
              ? timer.finish(endNanos, planned)
              : RequestTimer.nonStreaming(
                  startMs, startNanos, endNanos, StreamEvent.EMPTY, planned, null);
      AnswerTimings answer =
          streamed ? timer.answer(action.run().reasoningCounter()) : AnswerTimings.NONE;
      RequestRecord record =
          complete(
              RequestRecord.of(
                      identity,
                      timings,
                      httpStatus,
                      RequestStatus.CUT_BY_RUN_END,
                      "still in flight when the run ended (" + reason + ")")
                  .toBuilder()
                  .answer(answer)
                  .build());
      action.run().record(workload, record);
      recorded = true;
      if (turn != null) {
        turn.ended(record);
      }
      return true;
    } catch (RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(ResponseListener.class)
          .error("could not record a request cut by the run's end: {}", e.toString());
      return false;
    } finally {
      if (!recorded) {
        action.run().notSent();
        if (turn != null) {
          turn.failed(action.run().gatling().nowMillis());
        }
      }
      if (workload != null) {
        workload.ended(identity.phase());
      }
    }
  }

  /** Stops the cancellation delay of a request that ended first. */
  private void stopCancelTimer() {
    if (cancelTimer != null) {
      cancelTimer.cancel(false);
      cancelTimer = null;
    }
  }

  /** The record's cache plan, conversation turn and schedule, after its timings and status. */
  private RequestRecord complete(RequestRecord record) {
    if (workload != null) {
      record =
          record.withCache(
              workload.name(),
              sent == null ? null : CachePlan.of(cacheServer, sent, record.promptTokens()));
    }
    if (turn != null) {
      record = turn.complete(record, cacheServer);
    }
    scala.Option<Object> traceRow =
        session.attributes().get(io.github.gatlingllm.feeder.TraceReplay.ROW);
    if (traceRow.isDefined()) {
      record = record.toBuilder().traceRow(((Integer) traceRow.get()).longValue()).build();
    }
    if (cancelAfterMs != null) {
      record = record.toBuilder().cancelAfterMs(cancelAfterMs).build();
    }
    ClientWatch client = action.run().client();
    return record.withSchedule(
        client.epochMs(startNanos), first == null ? null : client.scheduledMs(first));
  }

  /** Records the ended request and logs its rows; returns the session to go on with. */
  private Session record(Exchange.Ending ending, String failure, long endNanos) {
    Session next;
    boolean recorded = false;
    try {
      Integer planned = identity.plannedTokens();
      RequestTimings timings;
      AnswerTimings answer;
      String text = body == null ? null : body.toString(StandardCharsets.UTF_8);
      if (parser != null) {
        parser.end();
        timings = timer.finish(endNanos, planned);
        answer = timer.answer(action.run().reasoningCounter());
      } else {
        StreamEvent response =
            streamed || text == null ? StreamEvent.EMPTY : StreamEvent.parseResponse(text);
        if (turn != null) {
          turn.onResponse(response);
        }
        if (reply != null && response.content() != null) {
          reply.append(response.content());
        }
        timings = RequestTimer.nonStreaming(startMs, startNanos, endNanos, response, planned, null);
        answer =
            RequestTimer.nonStreamingAnswer(
                response, timings.completionTokens(), action.run().reasoningCounter());
      }
      Verdict verdict =
          RequestClassifier.classify(
              new Exchange(
                  streamed,
                  httpStatus,
                  contentType,
                  text,
                  bodyCut,
                  timings,
                  ending,
                  failure,
                  action.run().settings().timeout().toMillis()));
      RequestRecord record =
          complete(
              RequestRecord.of(identity, timings, httpStatus, verdict.status(), verdict.error())
                  .toBuilder()
                  .answer(answer)
                  .build());
      action.run().record(workload, record);
      recorded = true;
      if (turn != null) {
        turn.ended(record);
      }
      next =
          action
              .spec()
              .replySaves()
              .apply(logRows(record), record, reply == null ? null : reply.toString());
    } catch (RuntimeException e) {
      // Never a dead virtual user: the request is a KO row with the reason.
      long now = action.run().gatling().nowMillis();
      action.run().gatling().logRow(session, action.name(), startMs, now, false, e.toString());
      next = session.markAsFailed();
    } finally {
      if (!recorded) {
        action.run().notSent();
        if (turn != null) {
          turn.failed(action.run().gatling().nowMillis());
        }
      }
      if (workload != null) {
        workload.ended(identity.phase());
      }
    }
    return next;
  }

  /**
   * Gatling's rows of a request: {@code NAME}, {@code NAME TTFT}, {@code NAME TPOT}, {@code NAME
   * TTFO} (start to the first answer token after any reasoning; only for a reply that reasoned and
   * answered), with an SLO {@code NAME SLO}, and with {@code llm.assert.cacheAsPlanned} and a cache
   * plan, for a successful request, {@code NAME CACHE} (OK when the cache outcome is the planned
   * one); warmup requests' rows in the group {@code warmup}.
   */
  private Session logRows(RequestRecord record) {
    GatlingCore gatling = action.run().gatling();
    String name = action.name();
    boolean warmup = "warmup".equals(record.phase());
    Session s = warmup ? GatlingCore.enterGroup(session, "warmup", startMs) : session;
    boolean ok = record.status() == RequestStatus.OK;
    String error = ok ? null : record.error();
    long end = startMs + Math.round(record.e2eMs());
    gatling.logRow(s, name, startMs, end, ok, error);
    if (record.ttftMs() != null) {
      long firstToken = startMs + Math.round(record.ttftMs());
      gatling.logRow(s, name + " TTFT", startMs, firstToken, ok, error);
      if (record.tpotMs() != null) {
        gatling.logRow(
            s, name + " TPOT", firstToken, firstToken + Math.round(record.tpotMs()), ok, error);
      }
    }
    // Only a reply that reasoned has a first answer token apart from its first token: a TTFO row
    // for every request of a model that does not reason would double TTFT's row in Gatling's
    // counts.
    if (record.ttfoMs() != null
        && record.reasoningTokens() != null
        && record.reasoningTokens() > 0) {
      gatling.logRow(s, name + " TTFO", startMs, startMs + Math.round(record.ttfoMs()), ok, error);
    }
    Slo slo = action.run().slo();
    if (slo.isSet()) {
      List<String> missed = slo.missed(record);
      List<String> described = new ArrayList<>();
      for (String c : missed) {
        described.add(slo.describe(c));
      }
      gatling.logRow(
          s,
          name + " SLO",
          startMs,
          end,
          missed.isEmpty(),
          missed.isEmpty() ? null : "missed " + String.join(", ", described));
    }
    if (action.run().settings().cacheAsPlanned() != null && ok && record.cachePlanned() != null) {
      boolean asPlanned = record.cacheAsPlanned();
      gatling.logRow(
          s, name + " CACHE", startMs, end, asPlanned, asPlanned ? null : cacheMiss(record));
    }
    s = GatlingCore.logGroupRequestTimings(s, startMs, end);
    if (!ok) {
      s = s.markAsFailed();
    }
    return warmup ? gatling.exitGroup(s, end) : s;
  }

  /** The {@code NAME CACHE} row's KO message: what the cache did against the plan. */
  static String cacheMiss(RequestRecord record) {
    if (record.cache() == CacheOutcome.UNKNOWN) {
      return "cache unknown: the server reports no cached tokens";
    }
    return "cache "
        + record.cache().wireName()
        + ": "
        + record.cachedTokens()
        + " cached tokens, planned "
        + record.cachePlanned().wireName()
        + " of "
        + record.plannedCachedTokens();
  }

  private static boolean isEventStream(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String mime = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
    return mime.toLowerCase(Locale.ROOT).equals("text/event-stream");
  }

  private static String oneLine(Throwable t) {
    String message = t.getMessage();
    String text = t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    return text.replace('\n', ' ').replace('\r', ' ');
  }
}
