package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.http.client.body.WritableContent;
import io.gatling.http.client.impl.DefaultHttpClient;
import io.github.gatlingllm.api.BodyParts;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A body sent from parts ({@link GatlingHttp#withBody}: Gatling 3.16's {@code RequestBody} and
 * {@code WritableContent}) and the upload's clock ({@link GatlingHttp#writeClock}).
 */
class GatlingHttpBodyTest {

  private static final byte[] IMAGE = "data:image/png;base64,AQID".getBytes(StandardCharsets.UTF_8);
  private static final byte[] TEXT = "{\"url\":\"\"}".getBytes(StandardCharsets.UTF_8);

  private static BodyParts parts() {
    return new BodyParts(
        List.of(
            new BodyParts.Part(TEXT, 0, 8),
            new BodyParts.Part(IMAGE, 0, IMAGE.length),
            new BodyParts.Part(TEXT, 8, 2)),
        TEXT.length + IMAGE.length);
  }

  @Test
  void thePartsAreSentOneAfterAnotherWithTheirWholeLength() throws Exception {
    WritableContent content = new GatlingHttp.PartsBody(parts()).build(ByteBufAllocator.DEFAULT);
    ByteBuf buf = (ByteBuf) content.getContent();
    assertEquals(36, content.getContentLength());
    assertEquals("{\"url\":\"data:image/png;base64,AQID\"}", buf.toString(StandardCharsets.UTF_8));
    assertTrue(buf instanceof CompositeByteBuf, buf.getClass().getName());
    buf.release();
  }

  @Test
  void aPartWrapsTheImagesArrayWithoutACopy() throws Exception {
    ByteBuf buf =
        (ByteBuf) new GatlingHttp.PartsBody(parts()).build(ByteBufAllocator.DEFAULT).getContent();
    CompositeByteBuf composite = (CompositeByteBuf) buf;
    assertSame(IMAGE, composite.internalComponent(1).array());
    buf.release();
  }

  @Test
  void theJoinedBytesAreTheBody() {
    assertEquals(
        "{\"url\":\"data:image/png;base64,AQID\"}",
        new String(new GatlingHttp.PartsBody(parts()).getBytes(), StandardCharsets.UTF_8));
  }

  @Test
  void theClockStopsWhenTheRequestsLastContentIsWritten() {
    EmbeddedChannel channel = new EmbeddedChannel();
    channel
        .pipeline()
        .addLast(DefaultHttpClient.APP_HTTP_HANDLER, new ChannelOutboundHandlerAdapter());
    GatlingHttp.WriteClock clock = GatlingHttp.writeClock(channel);
    assertEquals(0, clock.writtenNanos());
    long before = System.nanoTime();
    channel.writeAndFlush(
        new DefaultFullHttpRequest(
            HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat", Unpooled.wrappedBuffer(TEXT)));
    assertTrue(clock.writtenNanos() >= before, "written at " + clock.writtenNanos());
    // the next request on the connection starts its own clock
    assertSame(clock, GatlingHttp.writeClock(channel));
    assertEquals(0, clock.writtenNanos());
  }

  @Test
  void aHeadAloneDoesNotStopTheClock() {
    EmbeddedChannel channel = new EmbeddedChannel();
    channel
        .pipeline()
        .addLast(DefaultHttpClient.APP_HTTP_HANDLER, new ChannelOutboundHandlerAdapter());
    GatlingHttp.WriteClock clock = GatlingHttp.writeClock(channel);
    channel.writeAndFlush(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/"));
    assertEquals(0, clock.writtenNanos());
  }

  @Test
  void anHttp2ChannelHasNoClock() {
    assertNull(GatlingHttp.writeClock(new EmbeddedChannel()));
  }
}
