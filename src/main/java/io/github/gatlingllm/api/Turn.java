package io.github.gatlingllm.api;

import java.util.Objects;

/**
 * One entry of a conversation's history, in no API's shape: each {@link Dialect} writes it in its
 * own (chat messages with {@code tool_calls}; Responses input items {@code message}, {@code
 * function_call}, {@code function_call_output}; Messages content blocks {@code text}, {@code
 * tool_use}, {@code tool_result}).
 */
public sealed interface Turn {

  /**
   * Chat messages as turns.
   *
   * @param messages the messages, never null
   * @return one {@link Message} each, in order
   */
  static java.util.List<Turn> of(java.util.List<io.github.gatlingllm.api.ChatMessage> messages) {
    java.util.List<Turn> turns = new java.util.ArrayList<>(messages.size());
    for (io.github.gatlingllm.api.ChatMessage m : messages) {
      turns.add(new Message(m.role(), m.content()));
    }
    return turns;
  }

  /**
   * A message of text.
   *
   * @param role {@code system}, {@code user} or {@code assistant}, never null
   * @param text the text, never null
   */
  record Message(String role, String text) implements Turn {
    /**
     * Checks the fields.
     *
     * @throws NullPointerException if a field is null
     * @throws IllegalArgumentException if the role is not {@code system}, {@code user} or {@code
     *     assistant}
     */
    public Message {
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(text, "text");
      if (!role.equals("system") && !role.equals("user") && !role.equals("assistant")) {
        throw new IllegalArgumentException(
            "role must be system, user or assistant, got \"" + role + "\"");
      }
    }
  }

  /**
   * A tool call the model made (its part of an assistant turn).
   *
   * @param id the call's id as the server gave it ({@code call_id} of a Responses {@code
   *     function_call}, {@code id} of a Messages {@code tool_use}, {@code tool_calls[].id} of
   *     chat), never null
   * @param name the tool's name, never null
   * @param arguments the arguments, a JSON object as text (as the model streamed it), never null
   */
  record ToolCall(String id, String name, String arguments) implements Turn {
    /**
     * Checks the fields.
     *
     * @throws NullPointerException if a field is null
     */
    public ToolCall {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(arguments, "arguments");
    }
  }

  /**
   * The result of a tool call, sent back by the client.
   *
   * @param callId the {@link ToolCall#id()} it answers, never null
   * @param output the tool's output text, never null
   */
  record ToolResult(String callId, String output) implements Turn {
    /**
     * Checks the fields.
     *
     * @throws NullPointerException if a field is null
     */
    public ToolResult {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(output, "output");
    }
  }
}
