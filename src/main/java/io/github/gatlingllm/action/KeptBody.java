package io.github.gatlingllm.action;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Not API. The body of an answer that is no event stream (an error answer, a non-streamed
 * completion), kept from its chunks as they arrive, up to a bound: what {@code RequestClassifier}
 * reads and a whole completion is parsed from. Used under its listener's lock.
 */
final class KeptBody {

  /** The most bytes kept of an answer that is not an event stream and not a wanted completion. */
  static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

  /** The most bytes kept of a non-streamed completion. */
  static final int MAX_COMPLETION_BYTES = 16 * 1024 * 1024;

  private final ByteArrayOutputStream bytes;
  private final int limit;
  private boolean cut;

  /**
   * An empty body.
   *
   * @param completion whether it is a wanted completion (a 2xx answer to a non-streamed request),
   *     kept up to {@link #MAX_COMPLETION_BYTES}; else up to {@link #MAX_ERROR_BODY_BYTES}
   */
  KeptBody(boolean completion) {
    this.limit = completion ? MAX_COMPLETION_BYTES : MAX_ERROR_BODY_BYTES;
    this.bytes = new ByteArrayOutputStream(completion ? 4096 : 512);
  }

  /** Keeps a chunk's readable bytes, as many as the bound leaves room for. */
  void add(ByteBuf chunk) {
    int n = Math.min(limit - bytes.size(), chunk.readableBytes());
    if (n < chunk.readableBytes()) {
      cut = true;
    }
    if (n > 0) {
      byte[] b = new byte[n];
      chunk.getBytes(chunk.readerIndex(), b);
      bytes.write(b, 0, n);
    }
  }

  /**
   * The kept bytes as text.
   *
   * @return UTF-8 text, never null
   */
  String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * Whether bytes were left out at the bound.
   *
   * @return true once a chunk did not fit
   */
  boolean cut() {
    return cut;
  }
}
