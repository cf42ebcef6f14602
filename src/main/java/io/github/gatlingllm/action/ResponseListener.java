package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.FedPrompt;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.metrics.Exchange;
import io.github.gatlingllm.metrics.RequestClassifier;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.Verdict;
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
import java.util.function.ToIntFunction;

/**
 * Not API. One LLM request on the wire, as Gatling's HTTP client reports it: every callback runs on
 * the virtual user's event loop, one at a time. Each body chunk is stamped with {@link
 * System#nanoTime()} before anything else is done with it; an event stream's bytes go through the
 * the request's API's {@link EventParser} ({@link Dialect}) and each event's JSON is parsed from
 * its bytes; any other body (an error answer, a non-streamed completion) is kept, up to a bound,
 * from this very answer. A request ends one of three ways ({@link RequestEnd}): the exchange
 * completed (last chunk, error, or the client's request timeout; classified by {@link
 * RequestClassifier}), the client cancelled it, or the run's end cut it. Each goes through one
 * {@code finish}: the record is made by a pure function ({@link #recordOf}), handed to the {@link
 * RequestSink} with its rows, and the virtual user goes on (not after a cut).
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
 * <p>Every request sent is recorded: one still in flight when the run ends is cut ({@link
 * #cutByRunEnd}, from the thread that stops the run or writes the record) and recorded with status
 * {@code cut_by_run_end} and what was measured until then; one that ends after the run ended
 * ({@link RequestSink#runEnded}) is cut the same way. The callbacks and the cut hold this
 * listener's lock, so a request ends exactly once, one way or the other, and it stays open until
 * its record is handed over, so the run's end, cutting what is open, never misses it.
 */
final class ResponseListener
    implements HttpListener, EventParser.Listener, OpenRequests.Open, Cancellation.Target {

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

  private final RequestSink sink;
  private final Settings settings;
  private final Session session;
  private final RequestIdentity identity;
  private final FedPrompt fed;
  private final Workload workload;
  private final boolean streamed;
  private final CachePlan.Sent sent;
  private final WireTurn turn;
  private final ClientWatch.First first;
  private final PrefixLedger.Ticket prefill;
  private boolean prefillTold;

  /** The reply's text so far, only when a {@code saveReplyAs} key asks for it; else null. */
  private final StringBuilder reply;

  private long startMs;
  private long startNanos;
  private RequestTimer timer;
  private EventParser parser;
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
   * What every request of one action shares, made once when the action is built.
   *
   * @param streamed whether the requests ask for a stream
   * @param timeoutMs the client's request timeout ({@code llm.timeout}), in milliseconds
   * @param cacheServer what the cache plan knows of the server, or null
   * @param reasoningCounter counts reasoning text when the server reports no reasoning tokens, or
   *     null
   * @param keepsReply whether a {@code saveReplyAs} key asks for the reply's text
   * @param dialect the requests' API: their event parser, terminal event and body reader
   */
  record Settings(
      boolean streamed,
      long timeoutMs,
      CachePlan.Server cacheServer,
      ToIntFunction<String> reasoningCounter,
      boolean keepsReply,
      Dialect dialect) {

    /** Settings of chat completions requests. */
    Settings(
        boolean streamed,
        long timeoutMs,
        CachePlan.Server cacheServer,
        ToIntFunction<String> reasoningCounter,
        boolean keepsReply) {
      this(streamed, timeoutMs, cacheServer, reasoningCounter, keepsReply, WireApi.CHAT.dialect());
    }
  }

  /**
   * The listener of one request, open from now (its clock starts; {@link #onSend()} restarts it).
   *
   * @param sink where the request's record, rows and user go, never null
   * @param settings what the action's requests share, never null
   * @param session the virtual user's session as the request left it
   * @param out the request, never null
   * @param cancellation the request's cancellation ({@link Cancellation#choose}), never null
   */
  ResponseListener(
      RequestSink sink,
      Settings settings,
      Session session,
      Outgoing out,
      Cancellation cancellation) {
    this.sink = sink;
    this.settings = settings;
    this.turn = out.turn();
    this.session = session;
    this.identity = out.identity();
    this.fed = out.fed();
    this.workload = out.workload();
    this.streamed = settings.streamed();
    this.sent = out.sent();
    this.first = out.first();
    this.prefill = out.prefill();
    this.reply = settings.keepsReply() ? new StringBuilder() : null;
    this.cancellation = cancellation;
    start();
    sink.opened(this);
  }

  /** The request was never handed to the client: it is not open any more. */
  void abandon() {
    sink.closed(this);
  }

  /** The request's start: when the client takes it to send, before any connect. */
  private void start() {
    startMs = sink.nowMillis();
    startNanos = System.nanoTime();
    timer = new RequestTimer(startMs, startNanos, settings.dialect().terminalEvent());
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
      sink.staleConnectionResend();
    }
  }

  /**
   * The chosen delay is over: closes the connection (never returned to the pool half-read), records
   * the request as {@code cancelled} with what was measured until now, and lets the user go on.
   */
  @Override
  public void cancelNow() {
    finish(new RequestEnd.Cancelled(cancellation.description()), System.nanoTime());
  }

  @Override
  public synchronized boolean ended() {
    return done;
  }

  @Override
  public boolean streamed() {
    return streamed;
  }

  @Override
  public void onFinalClientRequest(Request request) {}

  @Override
  public synchronized void onHttpResponse(HttpResponseStatus status, HttpHeaders headers) {
    sink.arrived(System.nanoTime());
    if (done) {
      return;
    }
    httpStatus = status.code();
    contentType = headers.get(HttpHeaderNames.CONTENT_TYPE);
    if (streamed && httpStatus == 200 && isEventStream(contentType)) {
      parser = settings.dialect().parser(this);
    } else {
      boolean completion = !streamed && httpStatus >= 200 && httpStatus < 300;
      bodyLimit = completion ? MAX_COMPLETION_BYTES : MAX_ERROR_BODY_BYTES;
      body = new ByteArrayOutputStream(completion ? 4096 : 512);
    }
  }

  @Override
  public void onHttpResponseBodyChunk(ByteBuf chunk, boolean last) {
    long now = System.nanoTime();
    sink.arrived(now);
    synchronized (this) {
      if (done) {
        return;
      }
      chunkNanos = now;
      take(chunk);
    }
    if (last) {
      finish(new RequestEnd.Completed(Exchange.Ending.COMPLETE, null), now);
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

  /** Whether the next event's text is wanted: a conversation's, a saved reply's, or reasoning's. */
  @Override
  public boolean wantsText() {
    return turn != null || reply != null || timer.wantsText();
  }

  /** One event, from the parser, while the chunk that completed it is being handled. */
  @Override
  public void onEvent(StreamEvent event) {
    if (reply != null && event.content() != null) {
      reply.append(event.content());
    }
    if (turn != null) {
      turn.onEvent(event);
    }
    timer.onEvent(chunkNanos, event);
    if (prefill != null && !prefillTold && timer.tokenEvents() > 0) {
      // The first token: the server has computed the prompt, so its prefixes are ready.
      prefillTold = true;
      prefill.prefillEnded();
    }
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
    finish(new RequestEnd.Completed(ending, failure), now);
  }

  /**
   * Ends the request now if it has not ended: records it with status {@code cut_by_run_end}, the
   * timings measured until {@code endNanos} (TTFT if the first token came, the tokens so far) and
   * the response status if a head came. No Gatling row is logged (Gatling's stats are closed) and
   * the virtual user does not go on.
   */
  @Override
  public boolean cutByRunEnd(long endNanos, String reason) {
    return finish(new RequestEnd.CutByRunEnd(reason), endNanos);
  }

  /**
   * The one ending of a request, whichever way it ended: under this listener's lock, once, it stops
   * (or fires) the cancellation, takes the request out of flight, measures it, records it ({@link
   * #recordOf}), moves a conversation on and logs its rows; a request that could not be recorded is
   * a KO row and is counted out of flight; the fed workload always hears of its end. Then, without
   * the lock, the user goes on (not after a cut).
   *
   * @return true when this call ended and recorded the request
   */
  private boolean finish(RequestEnd end, long endNanos) {
    boolean recorded = false;
    boolean okAnswer = false;
    Session next = null;
    synchronized (this) {
      if (done) {
        // Ended already (a cut by the run's end: recorded there, the user does not go on).
        return false;
      }
      done = true;
      if (!(end instanceof RequestEnd.CutByRunEnd)) {
        // Ending after the run ended (Gatling takes no more rows): cut by the run's end.
        String ended = sink.runEnded();
        if (ended != null) {
          end = new RequestEnd.CutByRunEnd(ended);
        }
      }
      boolean cut = end instanceof RequestEnd.CutByRunEnd;
      if (end instanceof RequestEnd.Cancelled) {
        cancellation.fire();
      } else {
        cancellation.stop();
      }
      try {
        String text = body == null ? null : body.toString(StandardCharsets.UTF_8);
        RequestRecord record =
            complete(
                endNanos,
                recordOf(
                    identity,
                    end,
                    measure(end, endNanos, text),
                    new Response(
                        streamed, httpStatus, contentType, text, bodyCut, settings.timeoutMs())));
        sink.record(workload, record);
        recorded = true;
        okAnswer = record.status() == RequestStatus.OK;
        if (turn != null) {
          turn.ended(record);
        }
        if (end instanceof RequestEnd.Completed) {
          next = sink.rows(session, startMs, record, reply == null ? null : reply.toString());
        } else if (end instanceof RequestEnd.Cancelled) {
          next = sink.cancelledRows(session, startMs, record);
        }
      } catch (RuntimeException e) {
        if (cut) {
          org.slf4j.LoggerFactory.getLogger(ResponseListener.class)
              .error("could not record a request cut by the run's end: {}", e.toString());
        } else {
          // Never a dead virtual user: the request is a KO row with the reason.
          sink.failedRow(session, startMs, sink.nowMillis(), e.toString());
          next = session.markAsFailed();
        }
      } finally {
        if (!recorded) {
          sink.notSent();
          if (turn != null) {
            turn.failed(sink.nowMillis());
          }
        }
        if (workload != null) {
          workload.ended(identity.phase());
        }
        if (prefill != null) {
          // A whole answer (not streamed) was computed too; a request without a token was not.
          prefill.ended(prefillTold || (recorded && okAnswer));
        }
        if (fed != null && fed.trace() != null && fed.workload().replay() != null) {
          // a session's next trace row waits for this one's end, however it ended
          fed.workload().replay().rowEnded((int) fed.index(), endNanos);
        }
        // Open until recorded: the run's end, cutting what is open, waits for this lock.
        sink.closed(this);
      }
    }
    if (end instanceof RequestEnd.Cancelled) {
      sink.cancelled(endNanos);
    }
    if (next != null) {
      sink.next(next);
    }
    return recorded;
  }

  /**
   * What the request measured until {@code endNanos}. A completed stream ends its parser first; a
   * completed non-streamed answer is parsed whole (its text kept for the turn and the reply). A
   * cancelled request is timed by its stream once one began; a cut one whenever it asked for one,
   * even before any head (both as the record has always had them).
   */
  private RequestTimer.Finished measure(RequestEnd end, long endNanos, String text) {
    Integer planned = identity.plannedTokens();
    if (end instanceof RequestEnd.Completed) {
      if (parser != null) {
        parser.end();
        if (turn != null) {
          turn.onToolCalls(parser.toolCalls());
          turn.onResponseId(parser.responseId());
        }
        return timer.finish(endNanos, planned, settings.reasoningCounter());
      }
      StreamEvent response =
          streamed || text == null ? StreamEvent.EMPTY : settings.dialect().parseResponse(text);
      if (turn != null) {
        turn.onResponse(response);
        turn.onResponseId(streamed || text == null ? null : settings.dialect().responseId(text));
      }
      if (reply != null && response.content() != null) {
        reply.append(response.content());
      }
      return RequestTimer.finishNonStreaming(
          startMs, startNanos, endNanos, response, planned, settings.reasoningCounter());
    }
    boolean timed = end instanceof RequestEnd.CutByRunEnd ? streamed : parser != null;
    return timed
        ? timer.finish(endNanos, planned, settings.reasoningCounter())
        : RequestTimer.unanswered(startMs, startNanos, endNanos, planned);
  }

  /**
   * What came back of a request, as {@link RequestClassifier} reads it.
   *
   * @param streamed whether the request asked for a stream
   * @param httpStatus the response status, or null when no head came
   * @param contentType the response's content type, or null
   * @param body the kept body of an answer that is no event stream, or null
   * @param bodyCut whether the kept body was cut at its bound
   * @param timeoutMs the client's request timeout, in milliseconds
   */
  record Response(
      boolean streamed,
      Integer httpStatus,
      String contentType,
      String body,
      boolean bodyCut,
      long timeoutMs) {}

  /**
   * The record of an ended request, before its cache plan, turn and schedule: its identity, what
   * was measured, its response status and its status and error (a completed exchange classified by
   * {@link RequestClassifier}; a cancel or a cut says so). Pure.
   *
   * @param identity the request, never null
   * @param end how it ended, never null
   * @param measured its timings and answer, never null
   * @param response what came back, never null
   * @return the record
   */
  static RequestRecord recordOf(
      RequestIdentity identity, RequestEnd end, RequestTimer.Finished measured, Response response) {
    RequestStatus status;
    String error;
    if (end instanceof RequestEnd.Completed completed) {
      Verdict verdict =
          RequestClassifier.classify(
              new Exchange(
                  response.streamed(),
                  response.httpStatus(),
                  response.contentType(),
                  response.body(),
                  response.bodyCut(),
                  measured.timings(),
                  completed.ending(),
                  completed.failure(),
                  response.timeoutMs()));
      status = verdict.status();
      error = verdict.error();
    } else if (end instanceof RequestEnd.Cancelled cancelled) {
      status = RequestStatus.CANCELLED;
      error = cancelled.description();
    } else {
      status = RequestStatus.CUT_BY_RUN_END;
      error =
          "still in flight when the run ended (" + ((RequestEnd.CutByRunEnd) end).reason() + ")";
    }
    return RequestRecord.of(identity, measured.timings(), response.httpStatus(), status, error)
        .toBuilder()
        .answer(measured.answer())
        .build();
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
                      settings.cacheServer(),
                      workload.planEnded(fed, sent, prefill, endNanos),
                      record.promptTokens(),
                      record.cachedTokens()));
    }
    if (turn != null) {
      record = turn.complete(record, settings.cacheServer());
    }
    if (fed != null && fed.trace() != null) {
      io.github.gatlingllm.metrics.RequestRecordBuilder withRow =
          record.toBuilder().traceRow((long) fed.trace().row());
      if (fed.workload().replay() != null) {
        withRow.sessionId(fed.workload().replay().trace().sessionId((int) fed.index()));
      }
      record = withRow.build();
    }
    if (cancellation.chosen()) {
      record = record.toBuilder().cancelAfterMs(cancellation.afterMs()).build();
    }
    return sink.schedule(record, startNanos, first);
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
