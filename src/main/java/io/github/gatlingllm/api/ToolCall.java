package io.github.gatlingllm.api;

import java.util.Objects;

/**
 * One tool call of a reply, assembled from its deltas ({@link ToolCallAssembly}): what the next
 * turn sends back in the assistant message's {@code tool_calls}, unchanged.
 *
 * @param id the call's id as the server sent it; null if the server sent none (the caller then
 *     names it, see {@link ToolCallAssembly#calls()})
 * @param name the function's name as sent; empty if none was sent, never null
 * @param arguments {@code function.arguments}: every piece received, concatenated in arrival order,
 *     kept as received even when it is not JSON; empty if none was sent, never null
 * @param wellFormed whether {@code arguments} is one JSON object (what OpenAI's API promises, and
 *     what a tool could run on)
 */
public record ToolCall(String id, String name, String arguments, boolean wellFormed) {

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if {@code name} or {@code arguments} is null
   */
  public ToolCall {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(arguments, "arguments");
  }
}
