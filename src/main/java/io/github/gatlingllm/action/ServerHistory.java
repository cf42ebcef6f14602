package io.github.gatlingllm.action;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Not API. One action's server-side history ({@code llm.responses.history=server}, the Responses
 * API's {@code previous_response_id}): whether it is on, and whether the server refused it. A
 * server that answers the first turns naming {@code previous_response_id} with an HTTP 4xx before
 * any such turn was answered does not keep histories (llama.cpp b11669: HTTP 400 "llama.cpp does
 * not support 'previous_response_id'"): every later turn would fail the same way, so the run stops
 * with one line naming the setting. A timeout (408) or a rate limit (429) is no refusal. Once one
 * such turn was answered, a later 4xx (an id the server dropped from its store) is that turn's own
 * error, never a refusal. Thread-safe.
 */
final class ServerHistory {

  /** Off: every turn sends its whole history. */
  static final ServerHistory OFF = new ServerHistory(false);

  private final boolean on;
  private final AtomicBoolean answered = new AtomicBoolean();
  private final AtomicReference<String> refusal = new AtomicReference<>();

  ServerHistory(boolean on) {
    this.on = on;
  }

  /** Whether later turns send only their new items and {@code previous_response_id}. */
  boolean on() {
    return on;
  }

  /**
   * A turn that named {@code previous_response_id} ended.
   *
   * @param record its record, never null
   */
  void ended(RequestRecord record) {
    if (record.status() == RequestStatus.OK) {
      answered.set(true);
      return;
    }
    Integer status = record.httpStatus();
    if (answered.get()
        || status == null
        || status < 400
        || status >= 500
        || status == 408
        || status == 429) {
      return;
    }
    // said once, when the run stops at the next gate (LlmAction logs the stop line)
    refusal.compareAndSet(null, refusalLine(status, record.error()));
  }

  /**
   * The line that stops the run, once the server refused the setting.
   *
   * @return the line, or null while it did not
   */
  String refusal() {
    return refusal.get();
  }

  /**
   * The one line of a refusal, e.g. {@code llm.responses.history=server: the server refused
   * previous_response_id on its first use (HTTP 400: invalid_request_error (400): llama.cpp does
   * not support 'previous_response_id'.), ...}.
   *
   * @param status the HTTP status
   * @param error the record's error (which names the status already when it starts with {@code HTTP
   *     }), or null
   */
  static String refusalLine(int status, String error) {
    String said =
        error == null || error.isBlank()
            ? "HTTP " + status
            : error.startsWith("HTTP ") ? error : "HTTP " + status + ": " + error;
    return "llm.responses.history=server: the server refused previous_response_id on its first use"
        + " ("
        + said
        + "), so it keeps no conversation history for later turns: set"
        + " llm.responses.history=client (the default) to send each turn's whole history";
  }
}
