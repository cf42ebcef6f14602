package io.github.gatlingllm.simulator;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's HTTP handler: routes each request, answers one at a time in arrival order
 * (requests pipelined behind a running generation wait for it), and cancels the running generation
 * when the client goes away.
 */
final class SimulatorHandler extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(SimulatorHandler.class);

  /** The header a client names its request with (as vLLM reads it). */
  static final String CLIENT_REQUEST_ID = "X-Request-Id";

  private final Engine engine;
  private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
  private GenerationJob current;

  SimulatorHandler(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof FullHttpRequest request)) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (current != null) {
      pending.addLast(request);
      return;
    }
    handle(ctx, request);
  }

  /**
   * The running generation has written its last bytes: take the next pipelined request, or drop
   * them if the connection closes after this answer.
   */
  void exchangeDone(ChannelHandlerContext ctx, boolean keepAlive) {
    current = null;
    if (!keepAlive) {
      releasePending();
      return;
    }
    FullHttpRequest request;
    while (current == null && ctx.channel().isActive() && (request = pending.pollFirst()) != null) {
      handle(ctx, request);
    }
  }

  private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
    try {
      boolean keepAlive = HttpUtil.isKeepAlive(request);
      if (request.decoderResult().isFailure()) {
        Responses.error(
            ctx,
            ErrorReply.badRequest(
                "Malformed HTTP request: " + request.decoderResult().cause(), null),
            false);
        return;
      }
      String path = new QueryStringDecoder(request.uri()).path();
      HttpMethod method = request.method();
      switch (path) {
        case "/health" -> {
          if (allowed(ctx, request, HttpMethod.GET, keepAlive, false)) {
            Responses.json(ctx, HttpResponseStatus.OK, OpenAiJson.health(), keepAlive);
          }
        }
        case "/v1/models" -> {
          if (allowed(ctx, request, HttpMethod.GET, keepAlive, false)) {
            Responses.json(
                ctx,
                HttpResponseStatus.OK,
                OpenAiJson.models(
                    engine.config.model(),
                    engine.startedEpochSeconds,
                    engine.config.contextLength()),
                keepAlive);
          }
        }
        case "/metrics" -> {
          if (allowed(ctx, request, HttpMethod.GET, keepAlive, false)) {
            Responses.full(
                ctx,
                HttpResponseStatus.OK,
                Responses.PROMETHEUS_TYPE,
                SimulatorMetrics.prometheus(engine.stats()).getBytes(StandardCharsets.UTF_8),
                keepAlive);
          }
        }
        case "/v1/chat/completions" -> {
          if (allowed(ctx, request, HttpMethod.POST, keepAlive, true)) {
            generate(ctx, request, ServedEndpoint.CHAT, keepAlive);
          }
        }
        case "/v1/completions" -> {
          if (allowed(ctx, request, HttpMethod.POST, keepAlive, true)) {
            generate(ctx, request, ServedEndpoint.COMPLETIONS, keepAlive);
          }
        }
        case "/v1/responses" -> {
          if (allowed(ctx, request, HttpMethod.POST, keepAlive, true)) {
            generate(ctx, request, ServedEndpoint.RESPONSES, keepAlive);
          }
        }
        case "/v1/messages" -> {
          if (allowed(ctx, request, HttpMethod.POST, keepAlive, true)) {
            generate(ctx, request, ServedEndpoint.MESSAGES, keepAlive);
          }
        }
        default ->
            Responses.error(
                ctx,
                ErrorReply.of(
                    404,
                    ErrorReply.INVALID_REQUEST,
                    "Invalid URL (" + method.name() + " " + path + ")",
                    null),
                keepAlive);
      }
    } finally {
      request.release();
    }
  }

  /** Answers 405 unless the request uses the path's method. */
  private boolean allowed(
      ChannelHandlerContext ctx,
      FullHttpRequest request,
      HttpMethod method,
      boolean keepAlive,
      boolean counted) {
    if (request.method().equals(method)) {
      return true;
    }
    if (counted) {
      engine.metrics.request(405);
    }
    Responses.error(
        ctx,
        ErrorReply.of(
            405,
            ErrorReply.INVALID_REQUEST,
            "Method "
                + request.method().name()
                + " is not allowed on "
                + new QueryStringDecoder(request.uri()).path()
                + " (use "
                + method.name()
                + ")",
            null),
        keepAlive);
    return false;
  }

  private void generate(
      ChannelHandlerContext ctx,
      FullHttpRequest request,
      ServedEndpoint endpoint,
      boolean keepAlive) {
    ParsedRequest parsed;
    try {
      parsed = engine.parser.parse(endpoint, ByteBufUtil.getBytes(request.content()));
    } catch (ErrorReply e) {
      engine.metrics.request(e.status());
      Responses.error(ctx, e, keepAlive, endpoint);
      return;
    } catch (RuntimeException e) {
      LOG.warn("cannot read a {} request: {}", endpoint.path(), e.toString());
      engine.metrics.request(500);
      Responses.error(
          ctx,
          ErrorReply.of(500, "server_error", "The simulator failed to read the request", null),
          keepAlive,
          endpoint);
      return;
    }
    current =
        new GenerationJob(
            engine, ctx, this, parsed, keepAlive, request.headers().get(CLIENT_REQUEST_ID));
    current.start();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (current != null) {
      GenerationJob cancelled = current;
      current = null;
      cancelled.cancel();
    }
    releasePending();
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("closing a simulator connection after {}", cause.toString());
    ctx.close();
  }

  private void releasePending() {
    FullHttpRequest request;
    while ((request = pending.pollFirst()) != null) {
      request.release();
    }
  }
}
