package io.github.gatlingllm.api;

import java.nio.charset.StandardCharsets;

/**
 * The strict JSON subset the byte scanners ({@link ChunkScanner} for chat and completions chunks,
 * {@link DeltaScanner} for Responses and Messages events) read straight from an event's bytes, with
 * no Jackson parser made: objects, arrays, strings, numbers and the three literals, as RFC 8259
 * writes them, with a string's text decoded as Jackson decodes it. A reader gives up ({@link
 * #GIVE_UP}, caught by the scanner, whose caller then reads the event with Jackson) on anything
 * outside the subset: invalid JSON, a number longer than 100 bytes, nesting deeper than {@link
 * #MAX_DEPTH}, a control char inside a string, a key with an escape, and a byte sequence that is
 * not well-formed UTF-8 (overlong, a surrogate, above U+10FFFF or cut short: what Jackson may read
 * otherwise is left to it). Not thread-safe: one reader a thread.
 */
abstract class JsonBytes {

  /** Thrown to give up; never escapes a scanner. Made once, without a stack trace. */
  static final class GiveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private GiveUp() {
      super(null, null, false, false);
    }
  }

  static final GiveUp GIVE_UP = new GiveUp();

  /** The deepest nesting read; deeper gives up. */
  static final int MAX_DEPTH = 64;

  private static final int MAX_NUMBER_BYTES = 100;

  /** The bytes read, UTF-8. */
  byte[] b;

  /** The index after the last byte to read. */
  int end;

  /** The next byte to read. */
  int i;

  /** The key just read: {@code b[keyFrom, keyTo)}, its bytes between the quotes. */
  int keyFrom;

  int keyTo;

  /** Reads {@code b[from, to)} from now on. */
  final void reset(byte[] data, int from, int to) {
    b = data;
    i = from;
    end = to;
  }

  /** Reads {@code "key"} and its colon; the value's first byte is next (after any space). */
  final void key() {
    skipSpace();
    keyFrom = i + 1;
    keyTo = plainString();
    skipSpace();
    expect(':');
    skipSpace();
  }

  /** Whether the key just read is {@code name}. */
  final boolean is(byte[] name) {
    return keyTo - keyFrom == name.length && equals(keyFrom, name);
  }

  /** Whether {@code name} stands at {@code from} (the caller knows there is room for it). */
  final boolean equals(int from, byte[] name) {
    for (int k = 0; k < name.length; k++) {
      if (b[from + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  /** A string without escapes, from its opening quote; returns the index of its closing quote. */
  final int plainString() {
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
   * A string from its opening quote: its length in chars (UTF-16 code units) once decoded, as
   * Jackson's {@code getTextLength()}; {@code noAngle} gives up on a {@code <}, written or escaped.
   */
  final int stringChars(boolean noAngle) {
    expect('"');
    return decode(null, 0, noAngle);
  }

  /** A string from its opening quote, decoded as Jackson's {@code getText()} gives it. */
  final String text() {
    expect('"');
    int from = i;
    while (i < end) {
      byte c = b[i];
      if (c == '"') {
        i++;
        // Plain ASCII, the common case: ISO-8859-1 maps each byte to its char.
        return new String(b, from, i - 1 - from, StandardCharsets.ISO_8859_1);
      }
      if (c < 0x20 || c == '\\') { // control, escape or (negative) a byte outside ASCII
        break;
      }
      i++;
    }
    // Decoded chars never outnumber bytes: an escape is 2 or 6 bytes a char, UTF-8 1 to 4 bytes
    // for 1 or 2 chars.
    char[] out = new char[end - from];
    int n = i - from;
    for (int k = 0; k < n; k++) {
      out[k] = (char) b[from + k];
    }
    n = decode(out, n, false);
    return new String(out, 0, n);
  }

  /**
   * Decodes a string's rest up to and past its closing quote, into {@code out} from {@code n} when
   * {@code out} is not null; returns {@code n} plus the chars decoded.
   */
  private int decode(char[] out, int n, boolean noAngle) {
    while (i < end) {
      int c = b[i++];
      char ch;
      if (c == '"') {
        return n;
      } else if (c == '\\') {
        ch = escape();
      } else if (c >= 0x20) {
        ch = (char) c;
      } else if (c >= 0) {
        throw GIVE_UP; // a control char: Jackson refuses it unescaped
      } else {
        int cp = utf8(c & 0xFF);
        if (cp > 0xFFFF) {
          if (out != null) {
            out[n] = Character.highSurrogate(cp);
            out[n + 1] = Character.lowSurrogate(cp);
          }
          n += 2;
          continue;
        }
        ch = (char) cp;
      }
      if (noAngle && ch == '<') {
        throw GIVE_UP;
      }
      if (out != null) {
        out[n] = ch;
      }
      n++;
    }
    throw GIVE_UP;
  }

  /** The char of an escape, after its backslash. */
  private char escape() {
    if (i >= end) {
      throw GIVE_UP;
    }
    byte e = b[i++];
    return switch (e) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '/' -> '/';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> {
        if (end - i < 4) {
          throw GIVE_UP;
        }
        int v = 0;
        for (int k = 0; k < 4; k++) {
          v = v << 4 | hex(b[i++]);
        }
        // Any code unit, a lone surrogate too: Jackson keeps it as written.
        yield (char) v;
      }
      default -> throw GIVE_UP;
    };
  }

  private static int hex(byte c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    throw GIVE_UP;
  }

  /**
   * The code point of a well-formed UTF-8 sequence whose lead byte ({@code 0x80..0xFF}) was just
   * read (Unicode 15, table 3-7); gives up on anything else.
   */
  private int utf8(int lead) {
    if (lead >= 0xC2 && lead <= 0xDF) {
      return (lead & 0x1F) << 6 | continuation(0x80, 0xBF);
    }
    if (lead >= 0xE0 && lead <= 0xEF) {
      int low = lead == 0xE0 ? 0xA0 : 0x80;
      int high = lead == 0xED ? 0x9F : 0xBF;
      int c1 = continuation(low, high);
      return (lead & 0x0F) << 12 | c1 << 6 | continuation(0x80, 0xBF);
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
      int low = lead == 0xF0 ? 0x90 : 0x80;
      int high = lead == 0xF4 ? 0x8F : 0xBF;
      int c1 = continuation(low, high);
      int c2 = continuation(0x80, 0xBF);
      return (lead & 0x07) << 18 | c1 << 12 | c2 << 6 | continuation(0x80, 0xBF);
    }
    throw GIVE_UP;
  }

  /** The low 6 bits of the next byte, which must lie in {@code [low, high]}. */
  private int continuation(int low, int high) {
    if (i >= end) {
      throw GIVE_UP;
    }
    int c = b[i++] & 0xFF;
    if (c < low || c > high) {
      throw GIVE_UP;
    }
    return c & 0x3F;
  }

  /** Skips any one value (the next byte is its first); gives up deeper than {@link #MAX_DEPTH}. */
  final void skipValue(int depth) {
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
  final boolean emptyContainer(char close) {
    skipSpace();
    if (peek() == close) {
      i++;
      return true;
    }
    return false;
  }

  /**
   * Opens an object (its <code>{</code> next): true with its first key read ({@link #key()}), false
   * past its <code>}</code> when it is empty; else gives up.
   */
  final boolean firstKey() {
    expect('{');
    if (emptyContainer('}')) {
      return false;
    }
    key();
    return true;
  }

  /**
   * After an object's member: true with the next key read ({@link #key()}), false past the object's
   * <code>}</code>; else gives up.
   */
  final boolean nextKey() {
    if (!next('}')) {
      return false;
    }
    key();
    return true;
  }

  /** After a member or element: true past a comma, false past {@code close}; else gives up. */
  final boolean next(char close) {
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

  final void expect(char c) {
    if (peek() != c) {
      throw GIVE_UP;
    }
    i++;
  }

  final byte peek() {
    if (i >= end) {
      throw GIVE_UP;
    }
    return b[i];
  }

  final void skipSpace() {
    while (i < end) {
      byte c = b[i];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      i++;
    }
  }

  /** A name's ASCII bytes, to compare keys and types with. */
  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
