package io.github.gatlingllm.api;

import java.util.Locale;

/**
 * Why a reply ended, in no API's words: each API's recorded finish reason ({@code finish_reason} of
 * chat and completions, the Responses API's status or {@code incomplete_details.reason}, Messages'
 * {@code stop_reason}) read as one of a few kinds, so that a check written against one API holds on
 * every API. The recorded value stays the server's own ({@code finish_reason} in {@code
 * llm-requests.jsonl}); this is a view of it.
 */
public enum FinishReason {
  /**
   * The model ended its reply: chat {@code stop}, Responses {@code completed}, Messages {@code
   * end_turn} and {@code stop_sequence}.
   */
  STOP,
  /**
   * The output limit cut the reply: chat {@code length}, Responses {@code max_output_tokens},
   * Messages {@code max_tokens} (and {@code model_context_window_exceeded}).
   */
  LENGTH,
  /**
   * The reply called tools: chat {@code tool_calls} (and {@code function_call}), Messages {@code
   * tool_use}.
   */
  TOOL_CALLS,
  /**
   * A filter ended the reply: chat {@code content_filter}, Responses {@code content_filter},
   * Messages {@code refusal}.
   */
  CONTENT_FILTER,
  /**
   * Any other reason (Messages {@code pause_turn}, a Responses status such as {@code incomplete}
   * without its reason, a server's own word).
   */
  OTHER;

  /**
   * The kind of a recorded finish reason, case-insensitive.
   *
   * @param raw the recorded value, or null
   * @return the kind, or null when {@code raw} is null (no finish reason was reported)
   */
  public static FinishReason of(String raw) {
    if (raw == null) {
      return null;
    }
    return switch (raw.strip().toLowerCase(Locale.ROOT)) {
      case "stop", "completed", "end_turn", "stop_sequence", "eos" -> STOP;
      case "length", "max_output_tokens", "max_tokens", "model_context_window_exceeded" -> LENGTH;
      case "tool_calls", "function_call", "tool_use" -> TOOL_CALLS;
      case "content_filter", "refusal" -> CONTENT_FILTER;
      default -> OTHER;
    };
  }
}
