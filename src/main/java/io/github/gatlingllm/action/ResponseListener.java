package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.protocol.OpenRequests;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.Locale;

/**
 * Not API. One LLM request on the wire, as Gatling's HTTP client reports it: every callback runs on
 * the virtual user's event loop, one at a time. Each body chunk is stamped with {@link
 * System#nanoTime()} before anything else is done with it; an event stream's bytes go through the
 * request's API's {@link EventParser} ({@link Dialect}) and each event's JSON is parsed from its
 * bytes; any other body (an error answer, a non-streamed completion) is kept, up to a bound, from
 * this very answer. A request ends one of three ways ({@link RequestEnd}): the exchange completed
 * (last chunk, error, or the client's request timeout), the client cancelled it, or the run's end
 * cut it. Each goes through one {@code finish}: the record is made by a pure function ({@link
 * RequestEnd#recordOf}), completed by the request's {@link RequestPart} (whatever its kind: the
 * listener never asks), handed to the {@link RequestSink} with its rows, and the virtual user goes
 * on (not after a cut).
 *
 * <p>Exactly once: a connection that closes after the response's head is an error of this request
 * at once ({@link GatlingHttp#guardResponseEnd}, installed in {@link #onWrite(Channel)}), never a
 * retry of Gatling 3.16.0's client; should a retry still come after a head, its new channel is
 * closed in {@link #onWrite(Channel)} before the request is written, and the request ends as the
 * connection closed. A retry before any answer is let through and counted: the server had closed
 * the pooled connection after its previous answer (llama.cpp does, without {@code Connection:
 * close}), so it did not read the first copy.
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
  private final Dispatcher.Shared settings;
  private final Session session;
  private final Outgoing out;
  private final RequestPart part;
  private final Cancellation cancellation;

  /** The reply's text so far, only when a {@code saveReplyAs} key asks for it; else null. */
  private final StringBuilder reply;

  private long startMs;
  private long startNanos;
  private RequestTimer timer;
  private EventParser parser;
  private KeptBody body;
  private int sends;
  private boolean resent;
  private Integer httpStatus;
  private String contentType;
  private long chunkNanos;
  private boolean firstToken; // the part heard it: the server computed the prompt
  private boolean done;
  private volatile long writeNanos;
  private volatile GatlingHttp.WriteClock writeClock;

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
      Dispatcher.Shared settings,
      Session session,
      Outgoing out,
      Cancellation cancellation) {
    this.sink = sink;
    this.settings = settings;
    this.session = session;
    this.out = out;
    this.part = out.part();
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
    // The upload's time: from here to the body's last byte handed to the socket.
    writeNanos = System.nanoTime();
    writeClock = GatlingHttp.writeClock(channel);
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
    return settings.streamed();
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
    if (settings.streamed() && httpStatus == 200 && isEventStream(contentType)) {
      parser = settings.dialect().parser(this);
    } else {
      body = new KeptBody(!settings.streamed() && httpStatus >= 200 && httpStatus < 300);
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
      finish(RequestEnd.Completed.WHOLE, now);
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
      body.add(chunk);
    }
  }

  /** Whether the next event's text is wanted: a turn's, a saved reply's, or reasoning's. */
  @Override
  public boolean wantsText() {
    return part.wantsText() || reply != null || timer.wantsText();
  }

  /** One event, from the parser, while the chunk that completed it is being handled. */
  @Override
  public void onEvent(StreamEvent event) {
    if (reply != null && event.content() != null) {
      reply.append(event.content());
    }
    part.onEvent(event);
    timer.onEvent(chunkNanos, event);
    if (!firstToken && timer.tokenEvents() > 0) {
      // The first token: the server has computed the prompt, so its prefixes are ready.
      firstToken = true;
      part.firstToken();
    }
  }

  @Override
  public void onThrowable(Throwable t) {
    long now = System.nanoTime();
    if (done) {
      return;
    }
    finish(RequestEnd.Completed.failed(t, httpStatus != null, resent), now);
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
   * RequestEnd#recordOf}, then the part's {@link RequestPart#complete}), tells the part and logs
   * the rows ({@link RequestEnd#rows}); a request that could not be recorded is a KO row, is
   * counted out of flight and its part hears it failed; the part always hears the request is over.
   * Then, without the lock, the user goes on (not after a cut).
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
        String text = body == null ? null : body.text();
        RequestRecord record =
            end.recordOf(
                out.identity(),
                measure(end, endNanos, text),
                new RequestEnd.Response(
                    settings.streamed(),
                    httpStatus,
                    contentType,
                    text,
                    body != null && body.cut(),
                    settings.timeoutMs()));
        record = part.complete(record, settings.cacheServer(), endNanos);
        record = withUpload(record);
        if (cancellation.chosen()) {
          record = record.toBuilder().cancelAfterMs(cancellation.afterMs()).build();
        }
        record = sink.schedule(record, startNanos, out.first());
        sink.record(part.workload(), record);
        recorded = true;
        okAnswer = record.status() == RequestStatus.OK;
        part.ended(record);
        next = end.rows(sink, session, startMs, record, reply == null ? null : reply.toString());
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
          part.failed(sink.nowMillis());
        }
        // A whole answer (not streamed) was computed too; a request without a token was not.
        part.closed(endNanos, firstToken || (recorded && okAnswer));
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
   * The record with the body's bytes and the upload's time ({@link GatlingHttp#writeClock}: from
   * the write's start to its last byte handed to the socket), when the write completed.
   */
  private RequestRecord withUpload(RequestRecord record) {
    GatlingHttp.WriteClock clock = writeClock;
    long written = clock == null ? 0 : clock.writtenNanos();
    long start = writeNanos;
    Double uploadMs =
        written != 0 && start != 0 && written >= start ? (written - start) / 1e6 : null;
    return record.toBuilder().requestBytes((long) out.bodyLength()).uploadMs(uploadMs).build();
  }

  /**
   * What the request measured until {@code endNanos}. A completed stream ends its parser first; a
   * completed non-streamed answer is parsed whole (its text kept for the turn and the reply). A
   * cancelled request is timed by its stream once one began; a cut one whenever it asked for one,
   * even before any head (both as the record has always had them).
   */
  private RequestTimer.Finished measure(RequestEnd end, long endNanos, String text) {
    Integer planned = out.identity().plannedTokens();
    boolean streamed = settings.streamed();
    if (end instanceof RequestEnd.Completed) {
      if (parser != null) {
        parser.end();
        part.onStreamEnd(parser);
        return timer.finish(endNanos, planned, settings.reasoningCounter());
      }
      StreamEvent response =
          streamed || text == null ? StreamEvent.EMPTY : settings.dialect().parseResponse(text);
      part.onResponse(response, streamed ? null : text, settings.dialect());
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

  private static boolean isEventStream(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String mime = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
    return mime.toLowerCase(Locale.ROOT).equals("text/event-stream");
  }
}
