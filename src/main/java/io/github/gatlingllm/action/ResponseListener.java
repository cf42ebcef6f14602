package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.feeder.FedPrompt;
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
import io.netty.util.concurrent.FastThreadLocal;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
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
final class ResponseListener
    implements HttpListener, SseParser.Listener, OpenRequests.Open, Cancellation.Target {

  /** The most bytes kept of an answer that is not an event stream and not a wanted completion. */
  static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

  /** The most bytes kept of a non-streamed completion. */
  static final int MAX_COMPLETION_BYTES = 16 * 1024 * 1024;

  /**
   * Each event loop's array a direct chunk's bytes are copied through to the SSE parser: Netty's
   * thread-local (an index into the event loop thread's own table; a {@link ThreadLocal}'s lookup
   * in a Gatling event loop's crowded map showed in profiles).
   */
  private static final FastThreadLocal<byte[]> SCRATCH =
      new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
          return new byte[8192];
        }
      };

  private final LlmAction action;
  private final Session session;
  private final RequestIdentity identity;
  private final FedPrompt fed;
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

  private final Cancellation cancellation;

  /**
   * The listener of one request, open from now (its clock starts; {@link #onSend()} restarts it).
   *
   * @param action the request's action
   * @param session the virtual user's session as the request left it
   * @param out the request
   * @param streamed whether the request asked for a stream
   * @param cacheServer what the cache plan knows of the server, or null
   */
  ResponseListener(
      LlmAction action,
      Session session,
      Outgoing out,
      boolean streamed,
      CachePlan.Server cacheServer) {
    this.turn = out.turn();
    this.action = action;
    this.session = session;
    this.identity = out.identity();
    this.fed = out.fed();
    this.workload = out.workload();
    this.streamed = streamed;
    this.sent = out.sent();
    this.cacheServer = cacheServer;
    this.first = out.first();
    this.reply = action.spec().replySaves().text() != null ? new StringBuilder() : null;
    this.cancellation = Cancellation.choose(action, identity, turn != null);
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
    if (cancellation.fired()) {
      // Gatling's client would send a cancelled request again on a new connection: never.
      channel.close();
      return;
    }
    if (cancellation.chosen() && !(sends > 1 && httpStatus != null)) {
      cancellation.written(channel, this);
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
   * The chosen delay is over: closes the connection (never returned to the pool half-read), records
   * the request as {@code cancelled} with what was measured until now, and lets the user go on.
   */
  @Override
  public void cancelNow() {
    long now = System.nanoTime();
    Session next;
    synchronized (this) {
      if (done) {
        return;
      }
      done = true;
      cancellation.fire();
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
              endNanos,
              RequestRecord.of(
                      identity,
                      timings,
                      httpStatus,
                      RequestStatus.CANCELLED,
                      cancellation.description())
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
      RequestRows.logFailed(
          action.run().gatling(), session, action.name(), startMs, now, e.toString());
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

  @Override
  public synchronized boolean ended() {
    return done;
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
      int n = chunk.readableBytes();
      if (chunk.hasArray()) {
        parser.feed(chunk.array(), chunk.arrayOffset() + chunk.readerIndex(), n);
      } else {
        // A direct buffer: copied through this thread's scratch array (the parser copies what it
        // keeps), with no ByteBuffer view made a chunk.
        byte[] scratch = SCRATCH.get();
        for (int at = 0; at < n; at += scratch.length) {
          int k = Math.min(scratch.length, n - at);
          chunk.getBytes(chunk.readerIndex() + at, scratch, 0, k);
          parser.feed(scratch, 0, k);
        }
      }
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
      String words = GatlingHttp.brokenBeforeAnswer(t);
      failure = words != null ? words : oneLine(t);
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
      cancellation.stop();
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
    cancellation.stop();
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
              endNanos,
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

  /** The record's cache plan, conversation turn and schedule, after its timings and status. */
  private RequestRecord complete(long endNanos, RequestRecord record) {
    if (workload != null) {
      record =
          record.withCache(
              workload.name(),
              sent == null
                  ? null
                  : CachePlan.of(
                      cacheServer, workload.planEnded(fed, sent, endNanos), record.promptTokens()));
    }
    if (turn != null) {
      record = turn.complete(record, cacheServer);
    }
    if (fed != null && fed.trace() != null) {
      record = record.toBuilder().traceRow((long) fed.trace().row()).build();
    }
    if (cancellation.chosen()) {
      record = record.toBuilder().cancelAfterMs(cancellation.afterMs()).build();
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
              endNanos,
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
              .apply(
                  RequestRows.log(action, session, startMs, record),
                  record,
                  reply == null ? null : reply.toString());
    } catch (RuntimeException e) {
      // Never a dead virtual user: the request is a KO row with the reason.
      long now = action.run().gatling().nowMillis();
      RequestRows.logFailed(
          action.run().gatling(), session, action.name(), startMs, now, e.toString());
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
