package io.github.gatlingllm.internal;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.CoreComponents;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.throttle.Throttler;
import io.gatling.core.controller.throttle.Throttler$Command$ThrottledRequest;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.http.cache.SslContextSupport$;
import io.gatling.http.client.HttpListener;
import io.gatling.http.client.Request;
import io.gatling.http.client.impl.DefaultHttpClient;
import io.gatling.http.client.impl.PrematureCloseException;
import io.gatling.http.client.impl.RequestTimeoutException;
import io.gatling.http.protocol.HttpComponents;
import io.gatling.http.protocol.HttpProtocol;
import io.gatling.http.protocol.HttpProtocol$;
import io.gatling.http.request.HttpRequest;
import io.gatling.http.request.HttpRequestDef;
import io.gatling.http.request.builder.HttpRequestBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import scala.Function1;
import scala.Option;
import scala.runtime.BoxedUnit;

/**
 * For internal use only. Gatling 3.16's HTTP engine, driven from our own action instead of through
 * Gatling's HTTP or SSE actions: the pieces of its internal API we use, looked up in one place, so
 * that a Gatling upgrade that moves one fails here (and in {@code GatlingInternalsTest}) instead of
 * somewhere in the middle of a run.
 *
 * <p>A request is built once per request name with Gatling's own Java DSL ({@code
 * http(name).post(url)...}) and resolved per virtual user ({@link #clientRequest}), so the HTTP
 * protocol's headers, proxy, DNS, TLS, HTTP/2 and request timeout apply. It is sent with {@link
 * #send}, which hands every response callback to a {@link HttpListener} on the virtual user's event
 * loop.
 */
public final class GatlingHttp {

  /**
   * The name of the handler {@link #guardResponseEnd} puts in a channel's pipeline, just before
   * Gatling's HTTP/1.1 handler ({@code DefaultHttpClient.APP_HTTP_HANDLER}).
   */
  public static final String RESPONSE_END_GUARD = "gatling-llm-response-end";

  /**
   * The name of the handler {@link #writeClock} puts in a channel's pipeline, just before Gatling's
   * HTTP/1.1 handler.
   */
  public static final String WRITE_CLOCK = "gatling-llm-write-clock";

  private final HttpComponents components;
  private final HttpRequestDef requestDef;
  private final ActorRef<Throttler.Command> throttler;

  private GatlingHttp(
      HttpComponents components, HttpRequestDef requestDef, ActorRef<Throttler.Command> throttler) {
    this.components = components;
    this.requestDef = requestDef;
    this.throttler = throttler;
  }

  /**
   * Gatling's HTTP components (engine, caches, the protocol) for an HTTP protocol of our own: a new
   * HTTP engine, closed when the run terminates, as Gatling makes for its HTTP protocol.
   *
   * @param core the simulation's core components, never null
   * @param protocol the HTTP protocol, e.g. {@code http.disableWarmUp().shareConnections()}
   * @return the components; their {@code onStart}/{@code onExit} are the per-user start and end
   *     (DNS resolver, TLS contexts, the user's own pool) that the caller must run
   */
  public static HttpComponents newComponents(
      CoreComponents core, io.gatling.javaapi.http.HttpProtocolBuilder protocol) {
    Objects.requireNonNull(core, "core");
    Protocol built = protocol.protocol();
    if (!(built instanceof HttpProtocol http)) {
      throw new IllegalStateException(
          "gatling-llm: Gatling's HTTP protocol builder made a "
              + built.getClass().getName()
              + " (Gatling "
              + GatlingCore.version()
              + "; gatling-llm is built for 3.16.0)");
    }
    Function1<HttpProtocol, HttpComponents> factory =
        HttpProtocol$.MODULE$.HttpProtocolKey().newComponents(core);
    return factory.apply(http);
  }

  /**
   * Resolves a request against HTTP components made by {@link #newComponents}: the protocol's
   * headers, proxy, DNS, TLS, HTTP/2 and request timeout apply.
   *
   * @param ctx the scenario being built, never null
   * @param components the HTTP components, never null
   * @param request the request built with Gatling's Java DSL, never null
   * @return the request, ready to be resolved for each virtual user
   * @throws IllegalStateException if Gatling's internals are not what this class expects
   */
  public static GatlingHttp of(
      ScenarioContext ctx, HttpComponents components, HttpRequestActionBuilder request) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(components, "components");
    Objects.requireNonNull(request, "request");
    if (!(request.asScala() instanceof HttpRequestBuilder builder)) {
      throw new IllegalStateException(
          "gatling-llm: Gatling's HTTP request builder is not an io.gatling.http.request.builder"
              + ".HttpRequestBuilder (Gatling "
              + GatlingCore.version()
              + "; gatling-llm is built for 3.16.0)");
    }
    HttpRequestDef def =
        builder.build(
            components.httpCaches(),
            components.httpProtocol(),
            ctx.throttled(),
            ctx.coreComponents().configuration());
    Option<ActorRef<Throttler.Command>> throttler = ctx.coreComponents().throttler();
    return new GatlingHttp(
        components, def, ctx.throttled() && throttler.isDefined() ? throttler.get() : null);
  }

  /**
   * The client request for one virtual user's session: URL, headers and body resolved.
   *
   * @param session the session the request's expressions read from, never null
   * @return the request
   * @throws IllegalArgumentException with Gatling's message when an expression fails
   */
  public Request clientRequest(Session session) {
    Validation<HttpRequest> built = requestDef.build(session);
    if (built instanceof Success<HttpRequest> success) {
      return success.value().clientRequest();
    }
    throw new IllegalArgumentException(((Failure) (Object) built).message());
  }

  /**
   * Sends a request through Gatling's HTTP engine; every callback of {@code listener} runs on the
   * session's event loop. In a throttled simulation ({@code setUp(...).throttle(...)}) the request
   * waits for the throttler's go, as Gatling's own HTTP requests do.
   *
   * @param request the request from {@link #clientRequest}
   * @param session the virtual user's session (its user id, event loop and TLS contexts)
   * @param shareConnections whether to take the connection from the pool shared by all virtual
   *     users of the event loop (pool key -1), rather than the virtual user's own pool
   * @param listener receives the response, never null
   */
  public void send(
      Request request, Session session, boolean shareConnections, HttpListener listener) {
    if (throttler != null) {
      throttler.$bang(
          new Throttler$Command$ThrottledRequest(
              session.scenario(),
              () -> {
                execute(request, session, shareConnections, listener);
                return BoxedUnit.UNIT;
              }));
    } else {
      execute(request, session, shareConnections, listener);
    }
  }

  private void execute(
      Request request, Session session, boolean shareConnections, HttpListener listener) {
    components
        .httpEngine()
        .executeRequest(
            request,
            session.userId(),
            shareConnections,
            session.eventLoop(),
            listener,
            SslContextSupport$.MODULE$.sslContexts(session));
  }

  /**
   * Whether a throwable handed to {@link HttpListener#onThrowable} is the client's request timeout.
   *
   * @param t the throwable
   * @return true for Gatling's {@code RequestTimeoutException}
   */
  public static boolean isTimeout(Throwable t) {
    return t instanceof RequestTimeoutException;
  }

  /**
   * Whether a throwable handed to {@link HttpListener#onThrowable} says the connection closed
   * before the response ended.
   *
   * @param t the throwable
   * @return true for Gatling's {@code PrematureCloseException}
   */
  public static boolean isPrematureClose(Throwable t) {
    return t instanceof PrematureCloseException;
  }

  /**
   * Makes a connection that closes after a response head and before that response's end an error of
   * the request at once, on a pooled connection as on a new one; call it in {@link
   * HttpListener#onWrite}, on the channel's event loop. Idempotent: the handler stays on the
   * channel for the requests it carries later.
   *
   * <p>Why: Gatling 3.16.0's {@code HttpAppHandler.channelInactive} clears "response received"
   * before it asks whether the request may be retried, so a request on a POOLED connection whose
   * server closes it (TCP FIN) mid-response is sent again on a new connection, and that retry first
   * takes an idle connection out of the pool and drops it, open, never used or returned: one leaked
   * connection for each such close (the soak at 1,000 streams/s ran out of file descriptors). The
   * handler sees the response head and the response's last content; when the channel goes inactive
   * between the two, it fires an exception first, so that Gatling's handler ends the request with
   * it ({@link HttpListener#onThrowable}, then the channel is closed) instead of retrying. A TCP
   * reset already reaches Gatling's handler as an exception and is let through as it is.
   *
   * <p>HTTP/2 channels (no {@code app-http} handler) are left alone.
   *
   * @param channel the channel the request is about to be written on, never null
   */
  public static void guardResponseEnd(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    if (pipeline.get(RESPONSE_END_GUARD) == null
        && pipeline.get(DefaultHttpClient.APP_HTTP_HANDLER) != null) {
      pipeline.addBefore(
          DefaultHttpClient.APP_HTTP_HANDLER, RESPONSE_END_GUARD, new ResponseEndGuard());
    }
  }

  /**
   * The request with its body sent from parts: Netty wraps the parts' arrays one after another
   * ({@code Unpooled.wrappedBuffer}, no copy), with the body's whole length. Gatling 3.16's {@code
   * Request.copyWithNewBody} and its {@code RequestBody} interface.
   *
   * @param request the request as {@link #clientRequest} made it, never null
   * @param parts the body's parts, never null
   * @return a copy of the request with that body
   */
  public static Request withBody(Request request, io.github.gatlingllm.api.BodyParts parts) {
    return request.copyWithNewBody(new PartsBody(parts));
  }

  /** A body of parts ({@link #withBody}). */
  static final class PartsBody implements io.gatling.http.client.body.RequestBody {
    private final io.github.gatlingllm.api.BodyParts parts;

    PartsBody(io.github.gatlingllm.api.BodyParts parts) {
      this.parts = Objects.requireNonNull(parts, "parts");
    }

    @Override
    public io.gatling.http.client.body.WritableContent build(
        io.netty.buffer.ByteBufAllocator alloc) {
      io.netty.buffer.ByteBuf[] bufs = new io.netty.buffer.ByteBuf[parts.parts().size()];
      for (int i = 0; i < bufs.length; i++) {
        io.github.gatlingllm.api.BodyParts.Part p = parts.parts().get(i);
        bufs[i] = io.netty.buffer.Unpooled.wrappedBuffer(p.array(), p.offset(), p.length());
      }
      return new io.gatling.http.client.body.WritableContent(
          io.netty.buffer.Unpooled.wrappedBuffer(bufs.length, bufs), parts.length());
    }

    @Override
    public io.gatling.http.client.body.RequestBodyBuilder newBuilder() {
      return new io.gatling.http.client.body.bytearray.ByteArrayRequestBodyBuilder(
          getBytes(), null);
    }

    @Override
    public byte[] getBytes() {
      return parts.joined();
    }

    @Override
    public String print(int maxLength) {
      String text =
          new String(
              getBytes(),
              0,
              Math.min(parts.length(), Math.max(0, maxLength)),
              java.nio.charset.StandardCharsets.UTF_8);
      return parts.length() > maxLength ? text + "..." : text;
    }
  }

  /**
   * The clock of the request about to be written on a channel: when Netty handed its last byte (the
   * {@link LastHttpContent} of the request Gatling's handler writes) to the socket, i.e. when that
   * write's promise succeeded. Call it in {@link HttpListener#onWrite}, on the channel's event
   * loop; the clock is reset for this request and stays on the channel for the next ones (HTTP/1.1
   * carries one request at a time). HTTP/2 channels (no {@code app-http} handler) get none.
   *
   * @param channel the channel the request is about to be written on, never null
   * @return the clock, or null on an HTTP/2 channel
   */
  public static WriteClock writeClock(Channel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    if (pipeline.get(DefaultHttpClient.APP_HTTP_HANDLER) == null) {
      return null;
    }
    WriteClock clock = (WriteClock) pipeline.get(WRITE_CLOCK);
    if (clock == null) {
      clock = new WriteClock();
      pipeline.addBefore(DefaultHttpClient.APP_HTTP_HANDLER, WRITE_CLOCK, clock);
    }
    clock.writtenNanos = 0;
    return clock;
  }

  /** When a channel's last request was written whole ({@link #writeClock}). */
  public static final class WriteClock extends ChannelOutboundHandlerAdapter {
    private volatile long writtenNanos;

    WriteClock() {}

    /**
     * When the request's last byte was handed to the socket.
     *
     * @return {@link System#nanoTime()} then, or 0 when it was not (yet, or it failed)
     */
    public long writtenNanos() {
      return writtenNanos;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise)
        throws Exception {
      if (msg instanceof LastHttpContent) {
        ChannelPromise timed = promise.unvoid();
        timed.addListener(
            f -> {
              if (f.isSuccess()) {
                writtenNanos = System.nanoTime();
              }
            });
        ctx.write(msg, timed);
        return;
      }
      ctx.write(msg, promise);
    }
  }

  /**
   * What happened to a connection that broke after the response head, as the words that complete
   * "connection ...": {@code closed by the server} (a TCP FIN), {@code reset by the server (TCP
   * RST)}, or {@code broken (<exception>: <message>)} for any other transport error.
   *
   * @param t the throwable handed to {@link HttpListener#onThrowable}, never null
   * @return the words, one line
   */
  public static String brokenBy(Throwable t) {
    if (t instanceof ResponseCutException || t instanceof PrematureCloseException) {
      return "closed by the server";
    }
    String message = t.getMessage();
    if (t instanceof IOException
        && message != null
        && message.toLowerCase(Locale.ROOT).contains("connection reset")) {
      return "reset by the server (TCP RST)";
    }
    String text = t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    return "broken (" + text.replace('\n', ' ').replace('\r', ' ') + ")";
  }

  /**
   * What happened to a connection that broke before any response head, in words, for the transport
   * errors a server causes: {@code connection closed by the server before any answer} (Gatling's
   * {@code PrematureCloseException}, a TCP FIN after the request was written) or {@code connection
   * reset by the server (TCP RST) before any answer}; null for any other throwable (a refused
   * connection, an unknown host: their own text says it).
   *
   * @param t the throwable handed to {@link HttpListener#onThrowable}, never null
   * @return the words, one line, or null
   */
  public static String brokenBeforeAnswer(Throwable t) {
    String words = brokenBy(t);
    return words.startsWith("broken (") ? null : "connection " + words + " before any answer";
  }

  /** The server closed the connection after a response head, before the response's end. */
  static final class ResponseCutException extends IOException {
    private static final long serialVersionUID = 1L;

    ResponseCutException() {
      super("the server closed the connection after the response head, before the response's end");
    }
  }

  /** See {@link #guardResponseEnd}. One per channel; runs on the channel's event loop. */
  static final class ResponseEndGuard extends ChannelInboundHandlerAdapter {
    private boolean inResponse;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpResponse response
          && response.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
        inResponse = true;
      }
      if (msg instanceof LastHttpContent) {
        inResponse = false;
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // Gatling's handler ends the request with this one and closes the channel.
      inResponse = false;
      ctx.fireExceptionCaught(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (inResponse) {
        inResponse = false;
        ctx.fireExceptionCaught(new ResponseCutException());
      }
      ctx.fireChannelInactive();
    }
  }
}
