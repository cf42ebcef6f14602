package io.github.gatlingllm.api;

import java.util.ArrayList;
import java.util.List;

/**
 * A chat or completions payload as its two readers read it ({@link StreamEventParser}'s Jackson
 * path and {@link ChunkScanner}), key by key in order, and the chunk event it makes ({@link
 * #event()}): content texts counted and joined, the first reasoning text kept, the tool-call
 * entries counted and, when kept, collected, the first finish reason, the usage counts. One per
 * payload read; not thread-safe.
 */
final class ChatChunk {

  /** The tool-call entries seen ({@code tool_calls} entries and {@code function_call} objects). */
  int toolCalls;

  /** The first {@code finish_reason}, or null. */
  String finishReason;

  Integer promptTokens;
  Integer completionTokens;
  Integer cachedTokens;
  Integer reasoningTokens;

  /** The content texts kept, joined, or null. */
  String content;

  private int contentChars;
  private int reasoningChars;
  private String reasoning;
  private List<ToolCallDelta> toolCallDeltas;

  /**
   * A content text: counted, and joined to those before it when given.
   *
   * @param chars its length, chars; 0 adds nothing
   * @param text the text, or null when it is not kept
   */
  void addContent(int chars, String text) {
    if (chars == 0) {
      return;
    }
    contentChars += chars;
    if (text != null) {
      content = content == null ? text : content + text;
    }
  }

  /**
   * A reasoning text ({@code reasoning_content} or {@code reasoning}): kept when it is the first
   * non-empty one given; counted once, as the longest, since some servers send both names with the
   * same text.
   *
   * @param chars its length, chars
   * @param text the text, or null when it is not kept
   */
  void addReasoning(int chars, String text) {
    if (chars > 0 && reasoning == null) {
      reasoning = text;
    }
    reasoningChars = Math.max(reasoningChars, chars);
  }

  /** Keeps a tool-call entry, after those before it. */
  void keepToolCall(ToolCallDelta delta) {
    if (toolCallDeltas == null) {
      toolCallDeltas = new ArrayList<>(1);
    }
    toolCallDeltas.add(delta);
  }

  /**
   * The chunk event: each text (or null) with its length in chars, the tool-call entries kept (or
   * null) with their count, and a usage only when one of its counts was given.
   *
   * @return the event
   */
  StreamEvent event() {
    Usage usage =
        promptTokens == null
                && completionTokens == null
                && cachedTokens == null
                && reasoningTokens == null
            ? null
            : new Usage(promptTokens, completionTokens, cachedTokens, reasoningTokens);
    return new StreamEvent(
        StreamEvent.Kind.CHUNK,
        contentChars,
        reasoningChars,
        toolCalls,
        content,
        reasoning,
        finishReason,
        usage,
        null,
        toolCallDeltas);
  }
}
