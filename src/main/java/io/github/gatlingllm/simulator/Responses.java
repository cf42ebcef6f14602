package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;

/**
 * Writes HTTP responses and SSE events. Complete responses and stream heads are flushed at once;
 * SSE events are written without a flush, and the caller flushes once per batch of events that are
 * due at the same moment.
 */
final class Responses {

  /** Writes non-ASCII text as UTF-8, supplementary characters included (not as escapes). */
  static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

  static final String JSON_TYPE = "application/json";
  static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private Responses() {}

  static byte[] bytes(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** A complete response; closes the connection after it unless kept alive. */
  static ChannelFuture full(
      ChannelHandlerContext ctx,
      HttpResponseStatus status,
      String contentType,
      byte[] body,
      boolean keepAlive) {
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    HttpUtil.setContentLength(response, body.length);
    HttpUtil.setKeepAlive(response, keepAlive);
    return closeUnlessKeptAlive(ctx.writeAndFlush(response), keepAlive);
  }

  static ChannelFuture json(
      ChannelHandlerContext ctx, HttpResponseStatus status, JsonNode body, boolean keepAlive) {
    return full(ctx, status, JSON_TYPE, bytes(body), keepAlive);
  }

  static ChannelFuture error(ChannelHandlerContext ctx, ErrorReply error, boolean keepAlive) {
    return json(ctx, HttpResponseStatus.valueOf(error.status()), error.body(), keepAlive);
  }

  /** An error answer in the endpoint's shape ({@link ErrorReply#body(ServedEndpoint)}). */
  static ChannelFuture error(
      ChannelHandlerContext ctx, ErrorReply error, boolean keepAlive, ServedEndpoint endpoint) {
    return json(ctx, HttpResponseStatus.valueOf(error.status()), error.body(endpoint), keepAlive);
  }

  /** The head of an SSE stream: 200, {@code text/event-stream}, chunked. */
  static void sseHead(ChannelHandlerContext ctx, boolean keepAlive) {
    HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
    response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
    HttpUtil.setTransferEncodingChunked(response, true);
    HttpUtil.setKeepAlive(response, keepAlive);
    ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
  }

  /** Writes one SSE event {@code data: {json}\n\n}, not flushed. */
  static void sseEvent(ChannelHandlerContext ctx, JsonNode data) {
    byte[] json = bytes(data);
    ByteBuf buf = ctx.alloc().buffer(DATA.length + json.length + EVENT_END.length);
    buf.writeBytes(DATA).writeBytes(json).writeBytes(EVENT_END);
    sseEvent(ctx, buf);
  }

  /**
   * Writes one named SSE event {@code event: name\ndata: {json}\n\n} (the Responses and Messages
   * APIs name each event after its {@code type}), not flushed.
   */
  static void sseEvent(ChannelHandlerContext ctx, String name, JsonNode data) {
    byte[] head = ("event: " + name + "\n").getBytes(StandardCharsets.US_ASCII);
    byte[] json = bytes(data);
    ByteBuf buf = ctx.alloc().buffer(head.length + DATA.length + json.length + EVENT_END.length);
    buf.writeBytes(head).writeBytes(DATA).writeBytes(json).writeBytes(EVENT_END);
    sseEvent(ctx, buf);
  }

  /** The end of a stream that has no {@code [DONE]}, flushed with every event before. */
  static ChannelFuture sseEnd(ChannelHandlerContext ctx, boolean keepAlive) {
    return closeUnlessKeptAlive(ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), keepAlive);
  }

  /**
   * Writes one SSE event already in bytes, not flushed. A failed write reaches the handler's {@code
   * exceptionCaught}, which closes the connection.
   */
  static void sseEvent(ChannelHandlerContext ctx, ByteBuf event) {
    ctx.write(new DefaultHttpContent(event), ctx.voidPromise());
  }

  /** {@code data: [DONE]\n\n} and the end of the stream, flushed with every event before. */
  static ChannelFuture sseDone(ChannelHandlerContext ctx, boolean keepAlive) {
    sseEvent(ctx, Unpooled.wrappedBuffer(DONE));
    return closeUnlessKeptAlive(ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), keepAlive);
  }

  private static ChannelFuture closeUnlessKeptAlive(ChannelFuture future, boolean keepAlive) {
    future.addListener(
        keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    return future;
  }
}
