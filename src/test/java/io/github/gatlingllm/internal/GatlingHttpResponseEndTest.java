package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.http.client.impl.DefaultHttpClient;
import io.gatling.http.client.impl.PrematureCloseException;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;

/**
 * {@link GatlingHttp#guardResponseEnd}: a channel that goes inactive between a response head and
 * that response's last content reaches Gatling's HTTP/1.1 handler ({@code app-http}, here a
 * stand-in that records what it sees) as an exception first, so that handler ends the request
 * instead of retrying it; and {@link GatlingHttp#brokenBy}'s words.
 */
class GatlingHttpResponseEndTest {

  /** Stands in for Gatling's HttpAppHandler: records the events that reach it. */
  private static final class Recorder extends ChannelInboundHandlerAdapter {
    final List<String> events = new ArrayList<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      events.add("read " + msg.getClass().getSimpleName());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      events.add("exception " + cause.getMessage());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      events.add("inactive");
    }
  }

  private static EmbeddedChannel channel(Recorder recorder) {
    EmbeddedChannel channel = new EmbeddedChannel();
    channel.pipeline().addLast(DefaultHttpClient.APP_HTTP_HANDLER, recorder);
    GatlingHttp.guardResponseEnd(channel);
    return channel;
  }

  private static DefaultHttpResponse head() {
    return new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
  }

  @Test
  void gatlingsHttpHandlerIsNamedAppHttp() {
    assertEquals("app-http", DefaultHttpClient.APP_HTTP_HANDLER);
  }

  @Test
  void aCloseAfterTheHeadReachesGatlingsHandlerAsAnExceptionFirst() {
    Recorder recorder = new Recorder();
    EmbeddedChannel channel = channel(recorder);
    channel.writeInbound(head());
    channel.close();
    assertEquals(
        List.of(
            "read DefaultHttpResponse",
            "exception the server closed the connection after the response head, before the"
                + " response's end",
            "inactive"),
        recorder.events);
  }

  @Test
  void aCloseAfterAChunkIsAnExceptionToo() {
    Recorder recorder = new Recorder();
    EmbeddedChannel channel = channel(recorder);
    channel.writeInbound(head(), new DefaultHttpContent(Unpooled.copiedBuffer(new byte[] {'d'})));
    channel.close();
    assertEquals(
        List.of(
            "read DefaultHttpResponse",
            "read DefaultHttpContent",
            "exception the server closed the connection after the response head, before the"
                + " response's end",
            "inactive"),
        recorder.events);
  }

  @Test
  void aCloseAfterTheResponsesEndIsAPlainClose() {
    Recorder recorder = new Recorder();
    EmbeddedChannel channel = channel(recorder);
    channel.writeInbound(head(), new DefaultLastHttpContent());
    channel.close();
    assertEquals(
        List.of("read DefaultHttpResponse", "read DefaultLastHttpContent", "inactive"),
        recorder.events);
  }

  @Test
  void aCloseBeforeAnyHeadIsAPlainClose() {
    // Gatling's own retry of a stale pooled connection stays as it is.
    Recorder recorder = new Recorder();
    EmbeddedChannel channel = channel(recorder);
    channel.close();
    assertEquals(List.of("inactive"), recorder.events);
  }

  @Test
  void anExceptionAfterTheHeadIsPassedOnAndNotFollowedByAnother() {
    Recorder recorder = new Recorder();
    EmbeddedChannel channel = channel(recorder);
    channel.writeInbound(head());
    channel.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
    channel.close();
    assertEquals(
        List.of("read DefaultHttpResponse", "exception Connection reset by peer", "inactive"),
        recorder.events);
  }

  @Test
  void theGuardIsInstalledOncePerChannel() {
    Recorder recorder = new Recorder();
    EmbeddedChannel channel = channel(recorder);
    GatlingHttp.guardResponseEnd(channel);
    assertEquals(
        List.of(GatlingHttp.RESPONSE_END_GUARD, DefaultHttpClient.APP_HTTP_HANDLER),
        channel.pipeline().names().subList(0, 2));
  }

  @Test
  void aChannelWithoutGatlingsHttp1HandlerIsLeftAlone() {
    EmbeddedChannel channel = new EmbeddedChannel();
    GatlingHttp.guardResponseEnd(channel);
    assertEquals(null, channel.pipeline().get(GatlingHttp.RESPONSE_END_GUARD));
  }

  @Test
  void aCloseIsClosedByTheServer() {
    assertEquals(
        "closed by the server", GatlingHttp.brokenBy(new GatlingHttp.ResponseCutException()));
    assertEquals("closed by the server", GatlingHttp.brokenBy(PrematureCloseException.INSTANCE));
  }

  @Test
  void aPrematureCloseBeforeAnyAnswerIsSaidInWords() {
    assertEquals(
        "connection closed by the server before any answer",
        GatlingHttp.brokenBeforeAnswer(PrematureCloseException.INSTANCE));
  }

  @Test
  void aResetBeforeAnyAnswerIsSaidInWords() {
    assertEquals(
        "connection reset by the server (TCP RST) before any answer",
        GatlingHttp.brokenBeforeAnswer(new java.io.IOException("Connection reset by peer")));
  }

  @Test
  void aRefusedConnectionKeepsItsOwnText() {
    assertEquals(
        null, GatlingHttp.brokenBeforeAnswer(new java.net.ConnectException("Connection refused")));
  }

  @Test
  void aResetIsResetByTheServer() {
    assertEquals(
        "reset by the server (TCP RST)",
        GatlingHttp.brokenBy(new SocketException("Connection reset")));
  }

  @Test
  void anotherTransportErrorIsBrokenWithItsClassAndMessage() {
    assertEquals(
        "broken (SSLException: Tag mismatch)",
        GatlingHttp.brokenBy(new SSLException("Tag mismatch")));
  }
}
