package io.github.gatlingllm.action;

import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.protocol.ClientWatch;
import java.util.Objects;

/**
 * Not API. One request as a {@link Sender} hands it to the {@link Dispatcher}: what it is, its
 * body, its kind's part and its schedule. Nothing in it is null.
 *
 * @param identity the request's identity in its record
 * @param body the request body's bytes (UTF-8 JSON)
 * @param part what the request's kind does on its way ({@link RequestPart})
 * @param first the virtual user's first send of the run, for its schedule ({@link
 *     ClientWatch.First#NONE} when it has none)
 * @param parts the body as parts ({@link io.github.gatlingllm.api.BodyParts}), then {@code body} is
 *     empty; or null when {@code body} is the whole body
 */
record Outgoing(
    RequestIdentity identity,
    byte[] body,
    RequestPart part,
    ClientWatch.First first,
    io.github.gatlingllm.api.BodyParts parts) {

  /** Checks that nothing is null but {@code parts}. */
  Outgoing {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(part, "part");
    Objects.requireNonNull(first, "first");
  }

  /**
   * A request whose body is one array.
   *
   * @param identity the request's identity in its record
   * @param body the request body's bytes (UTF-8 JSON)
   * @param part what the request's kind does on its way
   * @param first the virtual user's first send of the run, for its schedule
   */
  Outgoing(RequestIdentity identity, byte[] body, RequestPart part, ClientWatch.First first) {
    this(identity, body, part, first, null);
  }

  /**
   * A request whose body is sent from parts ({@link io.github.gatlingllm.api.BodyParts}: a body
   * with images, each image the array it was built in), or one array when it is one.
   *
   * @param identity the request's identity in its record
   * @param parts the body's parts
   * @param part what the request's kind does on its way
   * @param first the virtual user's first send of the run, for its schedule
   * @return the request
   */
  static Outgoing of(
      RequestIdentity identity,
      io.github.gatlingllm.api.BodyParts parts,
      RequestPart part,
      ClientWatch.First first) {
    byte[] whole = parts.whole();
    return whole != null
        ? new Outgoing(identity, whole, part, first, null)
        : new Outgoing(identity, NO_BYTES, part, first, parts);
  }

  private static final byte[] NO_BYTES = new byte[0];

  /**
   * The body's length.
   *
   * @return bytes
   */
  int bodyLength() {
    return parts != null ? parts.length() : body.length;
  }
}
