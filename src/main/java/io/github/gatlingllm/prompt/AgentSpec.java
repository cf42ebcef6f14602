package io.github.gatlingllm.prompt;

import java.util.Locale;
import java.util.Objects;

/**
 * What an agent session is made of (issue 32): a system prompt shared within its group, a tools
 * catalog shared by every session, a user task, then a loop in which each reply that calls tools is
 * answered by one {@code tool} message a call, each {@code toolResultTokens} tokens, sent after a
 * pause standing for the tools' run. The session ends when the model answers without a tool call,
 * after {@code toolCalls} loops, at a failed turn, or before a turn that would exceed {@code
 * maxContextTokens}.
 *
 * @param tools the number of tools in the catalog, 0 to {@value ToolCatalog#MAX_TOOLS}
 * @param toolDescriptionTokens each tool's description, in tokens, at least 1
 * @param taskTokens the user task (the session's first user message), in tokens, at least 1
 * @param systemTokens the group system prompt, in tokens, 0 for none
 * @param systemGroups the number of system prompts, at least 1
 * @param toolResultTokens each tool result, in tokens, at least 1
 * @param toolCalls the most loops a session runs (replies with tool calls answered by tool
 *     results), at least 0 (0: the task's reply ends the session)
 * @param minToolLatencyMs the shortest pause before tool results are sent, milliseconds, at least 0
 * @param maxToolLatencyMs the longest, at least {@code minToolLatencyMs} (equal: a fixed pause)
 * @param toolChoice the request's {@code tool_choice}: {@code auto}, {@code required} or {@code
 *     none}, never null
 * @param maxContextTokens the model's context window in tokens, or null for none
 */
public record AgentSpec(
    int tools,
    int toolDescriptionTokens,
    int taskTokens,
    int systemTokens,
    int systemGroups,
    int toolResultTokens,
    int toolCalls,
    long minToolLatencyMs,
    long maxToolLatencyMs,
    String toolChoice,
    Integer maxContextTokens) {

  /** The {@code tool_choice} values a session may send. */
  public static final String TOOL_CHOICES = "auto, required or none";

  /**
   * Tokens a loop adds around each tool result (the chat template's {@code tool} message head and
   * end), allowed for when a turn's prompt is estimated before it is sent.
   */
  public static final int TOOL_MESSAGE_TEMPLATE_TOKENS = 8;

  /**
   * Tokens a turn adds around its new messages (the end of the previous reply, the generation
   * prompt), as {@code ConversationPlan.TURN_TEMPLATE_TOKENS}.
   */
  public static final int TURN_TEMPLATE_TOKENS = 16;

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException naming the setting, the value and what is allowed
   * @throws NullPointerException if {@code toolChoice} is null
   */
  public AgentSpec {
    Objects.requireNonNull(toolChoice, "toolChoice");
    if (tools < 0 || tools > ToolCatalog.MAX_TOOLS) {
      throw new IllegalArgumentException(
          "tools: got " + tools + ", expected 0 to " + ToolCatalog.MAX_TOOLS + " tools");
    }
    least("toolDescriptionTokens", toolDescriptionTokens, 1);
    least("taskTokens", taskTokens, 1);
    least("systemTokens", systemTokens, 0);
    least("systemGroups", systemGroups, 1);
    least("toolResultTokens", toolResultTokens, 1);
    least("toolCalls", toolCalls, 0);
    if (minToolLatencyMs < 0 || maxToolLatencyMs < minToolLatencyMs) {
      throw new IllegalArgumentException(
          "toolLatencyMs: got "
              + minToolLatencyMs
              + "-"
              + maxToolLatencyMs
              + ", expected 0 <= min <= max milliseconds");
    }
    toolChoice = toolChoice.strip().toLowerCase(Locale.ROOT);
    if (!toolChoice.equals("auto")
        && !toolChoice.equals("required")
        && !toolChoice.equals("none")) {
      throw new IllegalArgumentException(
          "toolChoice: got '" + toolChoice + "', expected " + TOOL_CHOICES);
    }
    if (toolChoice.equals("required") && tools == 0) {
      throw new IllegalArgumentException(
          "toolChoice: got 'required' with tools 0, expected at least 1 tool to require a call of");
    }
    if (maxContextTokens != null && maxContextTokens < 1) {
      throw new IllegalArgumentException(
          "maxContextTokens: got " + maxContextTokens + ", expected >= 1 or unset");
    }
  }

  private static void least(String name, long value, long least) {
    if (value < least) {
      throw new IllegalArgumentException(name + ": got " + value + ", expected >= " + least);
    }
  }

  /**
   * The defaults: 4 tools of 48-token descriptions, a 128-token task, no system prompt, 256-token
   * tool results, at most 4 loops, no tool latency, {@code tool_choice} {@code auto}, no context
   * window.
   *
   * @return the default spec
   */
  public static AgentSpec defaults() {
    return new AgentSpec(4, 48, 128, 0, 1, 256, 4, 0, 0, "auto", null);
  }

  /**
   * The planned prompt tokens of a session's first turn, without the chat template: the system
   * prompt, the tools and the task.
   *
   * @param toolTokens the catalog's tokens ({@link ToolCatalog#tokens()})
   * @return tokens
   */
  public long firstTurnTokens(int toolTokens) {
    return (long) systemTokens + toolTokens + taskTokens;
  }

  /**
   * The planned prompt tokens of a later turn: the previous turn's prompt and reply (as the server
   * counted them) and one tool result a call, each with its template allowance; without the turn's
   * own allowance ({@link #TURN_TEMPLATE_TOKENS}).
   *
   * @param previousPromptTokens the previous turn's prompt tokens, at least 0
   * @param previousCompletionTokens its reply's tokens, at least 0
   * @param calls the tool calls the reply made, at least 0
   * @return tokens
   */
  public long laterTurnTokens(int previousPromptTokens, int previousCompletionTokens, int calls) {
    return (long) previousPromptTokens
        + previousCompletionTokens
        + (long) calls * (toolResultTokens + TOOL_MESSAGE_TEMPLATE_TOKENS);
  }

  /**
   * Whether a turn of {@code plannedTokens} prompt tokens, with the turn's template allowance and
   * {@code maxTokens}, would exceed {@link #maxContextTokens()} (vLLM refuses a request whose
   * prompt and {@code max_tokens} exceed the model's length): such a turn is not sent and the
   * session ends by the context limit.
   *
   * @param plannedTokens the turn's planned prompt tokens ({@link #firstTurnTokens} or {@link
   *     #laterTurnTokens})
   * @param maxTokens the request's {@code max_tokens}, at least 0
   * @return true when the turn must not be sent; false without a window
   */
  public boolean exceeds(long plannedTokens, int maxTokens) {
    return maxContextTokens != null
        && plannedTokens + TURN_TEMPLATE_TOKENS + maxTokens > maxContextTokens;
  }

  /**
   * The case id sessions of this spec get when none is given: {@code
   * agent_l{toolCalls}_r{toolResultTokens}_t{taskTokens}}.
   *
   * @return the case id
   */
  public String defaultCaseId() {
    return "agent_l" + toolCalls + "_r" + toolResultTokens + "_t" + taskTokens;
  }
}
