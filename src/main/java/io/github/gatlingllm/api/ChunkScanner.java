package io.github.gatlingllm.api;

import java.nio.charset.StandardCharsets;

/**
 * The fast path of {@link StreamEventParser} for the payload a stream sends once a token: a
 * completion chunk in plain ASCII, read straight from its bytes with no Jackson parser made (a
 * parser, its contexts, buffers and symbol table a streamed event were most of the client's
 * allocation in a profile at 1,000 streams/s). It reads only a strict subset of JSON and gives up
 * (returns null, and the caller reads the payload with Jackson as before) on anything outside it: a
 * byte outside ASCII, a {@code \\u} escape, a {@code <} in a content text (a {@code <think>} tag
 * may start there), an {@code error} key, {@code "object":"error"}, a count that is not a plain
 * whole number of at most 9 digits, nesting deeper than 64, and anything that is not valid JSON.
 * What it reads, it reads as {@link StreamEventParser}'s Jackson path does, key by key in order (a
 * key given twice counts twice, as there); only the texts are never kept (it is used when they are
 * not wanted). So for every payload it either gives the very event the Jackson path gives, or null;
 * {@code ChunkScannerTest} checks that on the parser's test payloads and on many generated ones.
 */
final class ChunkScanner {

  /** Thrown to give up; never escapes {@link #scan}. Made once, without a stack trace. */
  private static final class GiveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GiveUp() {
      super(null, null, false, false);
    }
  }

  private static final GiveUp GIVE_UP = new GiveUp();
  private static final int MAX_DEPTH = 64;
  private static final int MAX_NUMBER_BYTES = 100;

  private static final byte[] CHOICES = bytes("choices");
  private static final byte[] USAGE = bytes("usage");
  private static final byte[] OBJECT = bytes("object");
  private static final byte[] ERROR = bytes("error");
  private static final byte[] MESSAGE = bytes("message");
  private static final byte[] DELTA = bytes("delta");
  private static final byte[] TEXT = bytes("text");
  private static final byte[] FINISH_REASON = bytes("finish_reason");
  private static final byte[] CONTENT = bytes("content");
  private static final byte[] REASONING_CONTENT = bytes("reasoning_content");
  private static final byte[] REASONING = bytes("reasoning");
  private static final byte[] TOOL_CALLS = bytes("tool_calls");
  private static final byte[] FUNCTION_CALL = bytes("function_call");
  private static final byte[] PROMPT_TOKENS = bytes("prompt_tokens");
  private static final byte[] COMPLETION_TOKENS = bytes("completion_tokens");
  private static final byte[] PROMPT_TOKENS_DETAILS = bytes("prompt_tokens_details");
  private static final byte[] CACHED_TOKENS = bytes("cached_tokens");
  private static final byte[] COMPLETION_TOKENS_DETAILS = bytes("completion_tokens_details");
  private static final byte[] REASONING_TOKENS = bytes("reasoning_tokens");

  private final byte[] b;
  private final int end;
  private int i;

  /** The key just read: {@code b[keyFrom, keyTo)}, its bytes between the quotes. */
  private int keyFrom;

  private int keyTo;

  private int contentChars;
  private int reasoningChars;
  private int toolCalls;
  private String finishReason;
  private Integer promptTokens;
  private Integer completionTokens;
  private Integer cachedTokens;
  private Integer reasoningTokens;

  private ChunkScanner(byte[] b, int from, int to) {
    this.b = b;
    this.i = from;
    this.end = to;
  }

  /**
   * Reads a payload whose text is not wanted.
   *
   * @param data the array holding the payload, UTF-8
   * @param from the index of its first byte
   * @param to the index after its last byte
   * @return the event {@link StreamEventParser}'s Jackson path gives with {@code keepText} false,
   *     or null when the payload is outside this reader's subset
   */
  static StreamEvent scan(byte[] data, int from, int to) {
    ChunkScanner s = new ChunkScanner(data, from, to);
    try {
      return s.payload();
    } catch (GiveUp e) {
      return null;
    }
  }

  private StreamEvent payload() {
    skipSpace();
    expect('{');
    if (!emptyContainer('}')) {
      do {
        key();
        if (is(CHOICES)) {
          if (peek() == '[') {
            choices();
          } else {
            skipValue(1);
          }
        } else if (is(USAGE)) {
          if (peek() == '{') {
            usage();
          } else {
            skipValue(1);
          }
        } else if (is(OBJECT)) {
          byte c = peek();
          if (c == '"') {
            int from = i + 1;
            int to = plainString();
            if (to - from == ERROR.length && equals(from, to, ERROR)) {
              throw GIVE_UP; // "object": "error": an error payload
            }
          } else if (c == '{' || c == '[') {
            throw GIVE_UP; // the Jackson path does not skip it: left to that path
          } else {
            skipValue(1);
          }
        } else if (is(ERROR)) {
          throw GIVE_UP; // an error payload (or "error": null): left to the Jackson path
        } else {
          // "message", "type", "error_type", "code" matter only to an error payload, which gives
          // up above; skipped as the Jackson path skips their containers.
          skipValue(1);
        }
      } while (next('}'));
    }
    skipSpace();
    if (i != end) {
      throw GIVE_UP;
    }
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
        null,
        null,
        finishReason,
        usage,
        null);
  }

  private void choices() {
    expect('[');
    if (emptyContainer(']')) {
      return;
    }
    do {
      skipSpace();
      if (peek() == '{') {
        choice();
      } else {
        skipValue(2);
      }
    } while (next(']'));
  }

  private void choice() {
    expect('{');
    if (emptyContainer('}')) {
      return;
    }
    do {
      key();
      byte c = peek();
      if (is(DELTA) || is(MESSAGE)) {
        if (c == '{') {
          delta();
        } else {
          skipValue(3);
        }
      } else if (is(TEXT)) {
        if (c == '"') {
          addContent();
        } else if (c == '{' || c == '[') {
          throw GIVE_UP; // not skipped by the Jackson path
        } else {
          skipValue(3);
        }
      } else if (is(FINISH_REASON)) {
        if (c == '"') {
          int from = i + 1;
          int to = plainString();
          if (finishReason == null) {
            finishReason = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
          }
        } else if (c == '{' || c == '[') {
          throw GIVE_UP; // not skipped by the Jackson path
        } else {
          skipValue(3);
        }
      } else {
        skipValue(3);
      }
    } while (next('}'));
  }

  private void delta() {
    expect('{');
    if (emptyContainer('}')) {
      return;
    }
    do {
      key();
      byte c = peek();
      if (is(CONTENT)) {
        if (c == '"') {
          addContent();
        } else {
          skipValue(4);
        }
      } else if (is(REASONING_CONTENT) || is(REASONING)) {
        if (c == '"') {
          int n = stringChars(false);
          if (n > 0) {
            // Some servers send both names with the same text: count it once.
            reasoningChars = Math.max(reasoningChars, n);
          }
        } else {
          skipValue(4);
        }
      } else if (is(TOOL_CALLS)) {
        if (c == '[') {
          expect('[');
          if (!emptyContainer(']')) {
            do {
              toolCalls++;
              skipSpace();
              skipValue(5);
            } while (next(']'));
          }
        } else {
          skipValue(4);
        }
      } else if (is(FUNCTION_CALL)) {
        if (c == '{') {
          toolCalls++;
        }
        skipValue(4);
      } else {
        skipValue(4);
      }
    } while (next('}'));
  }

  private void addContent() {
    int n = stringChars(true);
    if (n > 0) {
      contentChars += n;
    }
  }

  private void usage() {
    expect('{');
    if (emptyContainer('}')) {
      return;
    }
    do {
      key();
      if (is(PROMPT_TOKENS)) {
        promptTokens = count();
      } else if (is(COMPLETION_TOKENS)) {
        completionTokens = count();
      } else if (is(PROMPT_TOKENS_DETAILS) || is(COMPLETION_TOKENS_DETAILS)) {
        boolean prompt = is(PROMPT_TOKENS_DETAILS);
        if (peek() == '{') {
          expect('{');
          if (!emptyContainer('}')) {
            do {
              key();
              if (prompt && is(CACHED_TOKENS)) {
                cachedTokens = count();
              } else if (!prompt && is(REASONING_TOKENS)) {
                reasoningTokens = count();
              } else {
                skipValue(3);
              }
            } while (next('}'));
          }
        } else {
          skipValue(2);
        }
      } else {
        skipValue(2);
      }
    } while (next('}'));
  }

  /** A count: a plain whole number of 1 to 9 digits, else null for any other value. */
  private Integer count() {
    byte c = peek();
    if (c >= '0' && c <= '9') {
      int from = i;
      int v = 0;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        v = v * 10 + (b[i] - '0');
        i++;
      }
      int digits = i - from;
      if (digits > 9 || (digits > 1 && b[from] == '0')) {
        throw GIVE_UP;
      }
      if (i < end && (b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
        throw GIVE_UP;
      }
      return v;
    }
    if (c == '-') {
      throw GIVE_UP;
    }
    skipValue(3);
    return null;
  }

  // ---- the JSON subset ----

  /** Reads {@code "key"} and its colon; the value's first byte is next (after any space). */
  private void key() {
    skipSpace();
    keyFrom = i + 1;
    keyTo = plainString();
    skipSpace();
    expect(':');
    skipSpace();
  }

  private boolean is(byte[] name) {
    return keyTo - keyFrom == name.length && equals(keyFrom, keyTo, name);
  }

  private boolean equals(int from, int to, byte[] name) {
    for (int k = 0; k < name.length; k++) {
      if (b[from + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  /** A string without escapes, from its opening quote; returns the index of its closing quote. */
  private int plainString() {
    expect('"');
    while (i < end) {
      byte c = b[i];
      if (c == '"') {
        return i++;
      }
      if (c < 0x20 || c == '\\') { // control, escape or (negative) a byte outside ASCII
        throw GIVE_UP;
      }
      i++;
    }
    throw GIVE_UP;
  }

  /**
   * A string from its opening quote: its length in chars once decoded. Escapes other than {@code
   * \\u} count one char each; {@code noAngle} gives up on a {@code <}.
   */
  private int stringChars(boolean noAngle) {
    expect('"');
    int chars = 0;
    while (i < end) {
      byte c = b[i++];
      if (c == '"') {
        return chars;
      }
      if (c == '\\') {
        if (i >= end) {
          throw GIVE_UP;
        }
        byte e = b[i++];
        if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r'
            && e != 't') {
          throw GIVE_UP; // \\u (it may spell a '<' or a char outside ASCII) or invalid
        }
      } else if (c < 0x20 || (noAngle && c == '<')) { // (negative: a byte outside ASCII)
        throw GIVE_UP;
      }
      chars++;
    }
    throw GIVE_UP;
  }

  /** Skips any one value (the next byte is its first); gives up deeper than {@link #MAX_DEPTH}. */
  private void skipValue(int depth) {
    if (depth > MAX_DEPTH) {
      throw GIVE_UP;
    }
    byte c = peek();
    switch (c) {
      case '"' -> stringChars(false);
      case '{' -> {
        i++;
        if (!emptyContainer('}')) {
          do {
            key();
            skipValue(depth + 1);
          } while (next('}'));
        }
      }
      case '[' -> {
        i++;
        if (!emptyContainer(']')) {
          do {
            skipSpace();
            skipValue(depth + 1);
          } while (next(']'));
        }
      }
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> number();
    }
  }

  private void literal(String word) {
    if (end - i < word.length()) {
      throw GIVE_UP;
    }
    for (int k = 0; k < word.length(); k++) {
      if (b[i + k] != word.charAt(k)) {
        throw GIVE_UP;
      }
    }
    i += word.length();
  }

  /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, at most 100 bytes. */
  private void number() {
    int from = i;
    if (i < end && b[i] == '-') {
      i++;
    }
    if (i >= end || b[i] < '0' || b[i] > '9') {
      throw GIVE_UP;
    }
    if (b[i] == '0') {
      i++;
      if (i < end && b[i] >= '0' && b[i] <= '9') {
        throw GIVE_UP;
      }
    } else {
      digits();
    }
    if (i < end && b[i] == '.') {
      i++;
      if (digits() == 0) {
        throw GIVE_UP;
      }
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      if (digits() == 0) {
        throw GIVE_UP;
      }
    }
    if (i - from > MAX_NUMBER_BYTES) {
      throw GIVE_UP;
    }
  }

  private int digits() {
    int from = i;
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i - from;
  }

  /**
   * After a container's opening bracket: true (and past it) when the container is empty, else false
   * with the first member or element next.
   */
  private boolean emptyContainer(char close) {
    skipSpace();
    if (peek() == close) {
      i++;
      return true;
    }
    return false;
  }

  /** After a member or element: true past a comma, false past {@code close}; else gives up. */
  private boolean next(char close) {
    skipSpace();
    byte c = peek();
    i++;
    if (c == ',') {
      return true;
    }
    if (c == close) {
      return false;
    }
    throw GIVE_UP;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw GIVE_UP;
    }
    i++;
  }

  private byte peek() {
    if (i >= end) {
      throw GIVE_UP;
    }
    return b[i];
  }

  private void skipSpace() {
    while (i < end) {
      byte c = b[i];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      i++;
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
