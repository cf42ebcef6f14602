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
 */
record Outgoing(RequestIdentity identity, byte[] body, RequestPart part, ClientWatch.First first) {

  /** Checks that nothing is null. */
  Outgoing {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(part, "part");
    Objects.requireNonNull(first, "first");
  }
}
