package io.github.gatlingllm.metrics;

/**
 * How a response stream (or a non-streamed response body) ended, as seen by {@link RequestTimer}.
 */
public enum StreamOutcome {
  /** The stream ended with {@code [DONE]} (or the non-streamed body was a completion). */
  COMPLETE,
  /** The server sent an error payload ({@code {"error": ...}}) in the stream or as the body. */
  ERROR_EVENT,
  /** A payload could not be read (invalid JSON, not an object, empty non-streamed body). */
  MALFORMED,
  /** The stream ended (or was cut) without {@code [DONE]}; also when nothing arrived at all. */
  NO_DONE
}
