package io.github.gatlingllm.api;

/**
 * The fast path of the Responses and Messages decoders for the events a stream sends once a token
 * (and the lifecycle events that carry nothing), read straight from their bytes with no Jackson
 * parser made, as {@link ChunkScanner} reads chat chunks. It reads the strict JSON subset of {@link
 * JsonBytes}: the event's {@code type}, its {@code delta} (a string: its length; or an object: its
 * {@code type} and the length of its {@code text} or {@code thinking}), everything else skipped; it
 * gives up (returns false, and the caller reads the event with Jackson) on anything outside the
 * subset, a {@code type} with an escape or a byte outside ASCII, a {@code <} in a delta's text,
 * written or escaped (a {@code <think>} tag may start there), and a {@code partial_json} (its text
 * is kept for the tool call). Where it reads, it reads as the Jackson path (the last of a repeated
 * key wins). One instance per decoder, reused; not thread-safe.
 */
final class DeltaScanner extends JsonBytes {

  private static final byte[] TYPE = bytes("type");
  private static final byte[] DELTA = bytes("delta");
  private static final byte[] TEXT = bytes("text");
  private static final byte[] THINKING = bytes("thinking");
  private static final byte[] PARTIAL_JSON = bytes("partial_json");

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
    reset(data, from, to);
    typeFrom = -1;
    deltaTypeFrom = -1;
    deltaChars = 0;
    try {
      skipSpace();
      if (firstKey()) {
        do {
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
        } while (nextKey());
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
    deltaTypeFrom = -1;
    deltaChars = 0;
    if (!firstKey()) {
      return;
    }
    do {
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
    } while (nextKey());
  }
}
