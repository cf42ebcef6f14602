package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

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

  /**
   * Whether the value the parser is on is an object (the parser then on its start, for the caller
   * to read); any other value is skipped.
   */
  static boolean object(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.START_OBJECT) {
      return true;
    }
    p.skipChildren();
    return false;
  }

  /** Skips the value the parser is on (a container whole); null. */
  static <T> T skip(JsonParser p) throws IOException {
    p.skipChildren();
    return null;
  }

  /**
   * The count under {@code key} in the object the parser is on, as {@link #count} reads it (the
   * last when the key repeats), or {@code previous} when the object has no such key or the value is
   * no object; everything else is skipped. Reads a usage's {@code *_tokens_details}.
   */
  static Integer countIn(JsonParser p, JsonToken t, String key, Integer previous)
      throws IOException {
    Integer count = previous;
    if (object(p, t)) {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (name.equals(key)) {
          count = count(p, v);
        } else {
          p.skipChildren();
        }
      }
    }
    return count;
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
