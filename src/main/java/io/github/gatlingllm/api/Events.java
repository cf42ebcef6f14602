package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.List;

/** What the Responses and Messages decoders share: Jackson helpers and event makers. */
final class Events {

  /** An event that carries nothing the metrics time: a lifecycle event, a ping, a signature. */
  static final StreamEvent NOTHING =
      new StreamEvent(StreamEvent.Kind.CHUNK, 0, 0, 0, null, null, null, null, null, null);

  /** A tool-call event: one tool-call delta. */
  static final StreamEvent TOOL_CALL =
      new StreamEvent(StreamEvent.Kind.CHUNK, 0, 0, 1, null, null, null, null, null, null);

  private Events() {}

  /** Answer text: its length, and the text when kept. */
  static StreamEvent content(int chars, String text) {
    return chars == 0
        ? NOTHING
        : new StreamEvent(StreamEvent.Kind.CHUNK, chars, 0, 0, text, null, null, null, null, null);
  }

  /** Reasoning text: its length, and the text when kept. */
  static StreamEvent reasoning(int chars, String text) {
    return chars == 0
        ? NOTHING
        : new StreamEvent(StreamEvent.Kind.CHUNK, 0, chars, 0, null, text, null, null, null, null);
  }

  /** The usage and finish reason of a reply. */
  static StreamEvent usage(Usage usage, String finishReason) {
    return new StreamEvent(
        StreamEvent.Kind.CHUNK, 0, 0, 0, null, null, finishReason, usage, null, null);
  }

  /** A failure the server reported. */
  static StreamEvent error(String message, String type, String code) {
    return new StreamEvent(
        StreamEvent.Kind.ERROR,
        0,
        0,
        0,
        null,
        null,
        null,
        null,
        new ApiError(message == null ? "" : message, type, code),
        null);
  }

  /** The text of a scalar (numbers written out), null for JSON null; containers are skipped. */
  static String scalarText(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t.isScalarValue()) {
      return p.getText();
    }
    p.skipChildren();
    return null;
  }

  /** A non-negative int count, or null for anything else (null, negative, too big, not an int). */
  static Integer count(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
      int v = p.getIntValue();
      return v >= 0 ? v : null;
    }
    p.skipChildren();
    return null;
  }

  /**
   * A chunk event of a chat or completions payload, as both of its readers make it ({@link
   * StreamEventParser}, {@link ChunkScanner}): each text (or null) with its length in chars, the
   * tool-call entries kept (or null) with their count, and a usage only when one of its counts was
   * given.
   *
   * @return the event
   */
  static StreamEvent chunk(
      String content,
      int contentChars,
      String reasoning,
      int reasoningChars,
      List<ToolCallDelta> toolCalls,
      int toolCallDeltas,
      String finishReason,
      Integer promptTokens,
      Integer completionTokens,
      Integer cachedTokens,
      Integer reasoningTokens) {
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
        toolCallDeltas,
        content,
        reasoning,
        finishReason,
        usage,
        null,
        toolCalls);
  }

  /**
   * Whether the current string value holds {@code <think>} or {@code </think>}: such text is kept
   * whatever {@code keepText} says, as {@link StreamEvent#parse(String, boolean)} keeps it, so that
   * the reasoning inside it can be told from the answer.
   */
  static boolean hasThinkTag(JsonParser p) throws IOException {
    char[] chars = p.getTextCharacters();
    int from = p.getTextOffset();
    int to = from + p.getTextLength();
    for (int i = from; i < to; i++) {
      if (chars[i] == '<'
          && (startsWith(chars, i + 1, to, "think>") || startsWith(chars, i + 1, to, "/think>"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean startsWith(char[] chars, int at, int to, String s) {
    if (to - at < s.length()) {
      return false;
    }
    for (int j = 0; j < s.length(); j++) {
      if (chars[at + j] != s.charAt(j)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The index of the payload's first non-blank byte if it is <code>{</code>, else -1 (blank, {@code
   * [DONE]}, not an object, or a non-ASCII first byte: left to {@link StreamEvent#parse}).
   */
  static int objectStart(byte[] data, int from, int to) {
    int i = from;
    while (i < to && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r')) {
      i++;
    }
    return i < to && data[i] == '{' ? i : -1;
  }
}
