package io.github.gatlingllm.api;

import java.nio.charset.StandardCharsets;

/**
 * The fast path of the Responses and Messages decoders for the events a stream sends once a token
 * (and the lifecycle events that carry nothing), read straight from their bytes with no Jackson
 * parser made, as {@code openai.ChunkScanner} reads chat chunks. It reads a strict subset of JSON:
 * the event's {@code type}, its {@code delta} (a string: its length; or an object: its {@code type}
 * and the length of its {@code text} or {@code thinking}), everything else skipped; it gives up
 * (returns false, and the caller reads the event with Jackson) on a byte outside ASCII, a {@code
 * \\u} escape, a {@code <} in a delta's text (a {@code <think>} tag may start there), a {@code
 * partial_json} (its text is kept for the tool call), nesting deeper than 64 and anything that is
 * not valid JSON. Where it reads, it reads as the Jackson path (the last of a repeated key wins).
 * One instance per decoder, reused; not thread-safe.
 */
final class DeltaScanner {

  /** Thrown to give up; never escapes {@link #scan}. Made once, without a stack trace. */
  private static final class GiveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GiveUp() {
      super(null, null, false, false);
    }
  }

  private static final GiveUp GIVE_UP = new GiveUp();
  private static final int MAX_DEPTH = 64;
  private static final byte[] TYPE = bytes("type");
  private static final byte[] DELTA = bytes("delta");
  private static final byte[] TEXT = bytes("text");
  private static final byte[] THINKING = bytes("thinking");
  private static final byte[] PARTIAL_JSON = bytes("partial_json");

  private byte[] b;
  private int end;
  private int i;
  private int keyFrom;
  private int keyTo;

  /** The event's {@code type}: {@code b[typeFrom, typeTo)}, or {@code typeFrom < 0}. */
  int typeFrom;

  int typeTo;

  /** The {@code delta} object's {@code type}, or {@code deltaTypeFrom < 0}. */
  int deltaTypeFrom;

  int deltaTypeTo;

  /** Chars of the {@code delta} string, or of the {@code delta} object's text or thinking. */
  int deltaChars;

  /**
   * Reads one event's data. The array is read again by {@link #typeIs} and {@link #deltaTypeIs}
   * until the next scan (it is the SSE parser's own buffer, of the same request).
   *
   * @return false when the event is outside the subset (nothing read is then valid)
   */
  boolean scan(byte[] data, int from, int to) {
    b = data;
    i = from;
    end = to;
    typeFrom = -1;
    deltaTypeFrom = -1;
    deltaChars = 0;
    try {
      skipSpace();
      expect('{');
      if (!emptyContainer('}')) {
        do {
          key();
          if (is(TYPE)) {
            if (peek() != '"') {
              throw GIVE_UP;
            }
            typeFrom = i + 1;
            typeTo = plainString();
          } else if (is(DELTA)) {
            byte c = peek();
            if (c == '"') {
              deltaTypeFrom = -1;
              deltaChars = stringChars(true);
            } else if (c == '{') {
              delta();
            } else {
              throw GIVE_UP;
            }
          } else {
            skipValue(1);
          }
        } while (next('}'));
      }
      skipSpace();
      return i == end && typeFrom >= 0;
    } catch (GiveUp e) {
      return false;
    }
  }

  /** Whether the event's type is {@code name}. */
  boolean typeIs(byte[] name) {
    return typeFrom >= 0 && typeTo - typeFrom == name.length && equals(typeFrom, name);
  }

  /** Whether the delta object's type is {@code name}. */
  boolean deltaTypeIs(byte[] name) {
    return deltaTypeFrom >= 0
        && deltaTypeTo - deltaTypeFrom == name.length
        && equals(deltaTypeFrom, name);
  }

  private void delta() {
    expect('{');
    deltaTypeFrom = -1;
    deltaChars = 0;
    if (emptyContainer('}')) {
      return;
    }
    do {
      key();
      if (is(TYPE)) {
        if (peek() != '"') {
          throw GIVE_UP;
        }
        deltaTypeFrom = i + 1;
        deltaTypeTo = plainString();
      } else if (is(TEXT) || is(THINKING)) {
        if (peek() != '"') {
          throw GIVE_UP;
        }
        deltaChars = stringChars(true);
      } else if (is(PARTIAL_JSON)) {
        throw GIVE_UP;
      } else {
        skipValue(2);
      }
    } while (next('}'));
  }

  // ---- the JSON subset (as openai.ChunkScanner) ----

  private void key() {
    skipSpace();
    keyFrom = i + 1;
    keyTo = plainString();
    skipSpace();
    expect(':');
    skipSpace();
  }

  private boolean is(byte[] name) {
    return keyTo - keyFrom == name.length && equals(keyFrom, name);
  }

  private boolean equals(int from, byte[] name) {
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
      if (c < 0x20 || c == '\\') {
        throw GIVE_UP;
      }
      i++;
    }
    throw GIVE_UP;
  }

  /** A string's length in chars once decoded; {@code noAngle} gives up on a {@code <}. */
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
          throw GIVE_UP;
        }
      } else if (c < 0x20 || (noAngle && c == '<')) {
        throw GIVE_UP;
      }
      chars++;
    }
    throw GIVE_UP;
  }

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
    if (i - from > 100) {
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

  private boolean emptyContainer(char close) {
    skipSpace();
    if (peek() == close) {
      i++;
      return true;
    }
    return false;
  }

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

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
