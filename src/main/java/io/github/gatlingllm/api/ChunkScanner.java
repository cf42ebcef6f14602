package io.github.gatlingllm.api;

import java.nio.charset.StandardCharsets;

/**
 * The fast path of {@link StreamEventParser} for the payload a stream sends once a token: a
 * completion chunk, read straight from its bytes with no Jackson parser made (a parser, its
 * contexts, buffers and symbol table a streamed event were most of the client's allocation in a
 * profile at 1,000 streams/s). It reads only the strict JSON subset of {@link JsonBytes} and gives
 * up (returns null, and the caller reads the payload with Jackson as before) on anything outside
 * it, on an {@code error} key, {@code "object":"error"}, a count that is not a plain whole number
 * of at most 9 digits, a {@code finish_reason} with an escape or a byte outside ASCII; when the
 * text is not wanted, on a {@code <} in a content text (a {@code <think>} tag may start there,
 * whose text the Jackson path keeps); when it is wanted, on a non-empty {@code tool_calls} array or
 * a {@code function_call} object (their entries are read into {@link ToolCallDelta}s by the Jackson
 * path: a few events a reply). What it reads, it reads as {@link StreamEventParser}'s Jackson path
 * does, key by key in order (a key given twice counts twice, as there; content texts are joined,
 * the first reasoning text is kept). So for every payload it either gives the very event the
 * Jackson path gives, or null; {@code ChunkScannerTest} checks that on the parser's test payloads
 * and on many generated ones, with and without the text.
 */
final class ChunkScanner extends JsonBytes {

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
  private static final byte[] INDEX = bytes("index");
  private static final byte[] ID = bytes("id");
  private static final byte[] FUNCTION = bytes("function");
  private static final byte[] NAME = bytes("name");
  private static final byte[] ARGUMENTS = bytes("arguments");
  private static final byte[] PROMPT_TOKENS = bytes("prompt_tokens");
  private static final byte[] COMPLETION_TOKENS = bytes("completion_tokens");
  private static final byte[] PROMPT_TOKENS_DETAILS = bytes("prompt_tokens_details");
  private static final byte[] CACHED_TOKENS = bytes("cached_tokens");
  private static final byte[] COMPLETION_TOKENS_DETAILS = bytes("completion_tokens_details");
  private static final byte[] REASONING_TOKENS = bytes("reasoning_tokens");

  private final boolean keepText;
  private final ChatChunk chunk = new ChatChunk();

  private ChunkScanner(byte[] b, int from, int to, boolean keepText) {
    reset(b, from, to);
    this.keepText = keepText;
  }

  /**
   * Reads a payload.
   *
   * @param data the array holding the payload, UTF-8
   * @param from the index of its first byte
   * @param to the index after its last byte
   * @param keepText whether the content and reasoning texts are wanted ({@link
   *     StreamEvent#content()}, {@link StreamEvent#reasoning()})
   * @return the event {@link StreamEventParser}'s Jackson path gives with this {@code keepText}, or
   *     null when the payload is outside this reader's subset
   */
  static StreamEvent scan(byte[] data, int from, int to, boolean keepText) {
    ChunkScanner s = new ChunkScanner(data, from, to, keepText);
    try {
      return s.payload();
    } catch (GiveUp e) {
      return null;
    }
  }

  private StreamEvent payload() {
    skipSpace();
    if (firstKey()) {
      do {
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
            if (to - from == ERROR.length && equals(from, ERROR)) {
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
      } while (nextKey());
    }
    skipSpace();
    if (i != end) {
      throw GIVE_UP;
    }
    return chunk.event();
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
    if (!firstKey()) {
      return;
    }
    do {
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
          if (chunk.finishReason == null) {
            chunk.finishReason = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
          }
        } else if (c == '{' || c == '[') {
          throw GIVE_UP; // not skipped by the Jackson path
        } else {
          skipValue(3);
        }
      } else {
        skipValue(3);
      }
    } while (nextKey());
  }

  private void delta() {
    if (!firstKey()) {
      return;
    }
    do {
      byte c = peek();
      if (is(CONTENT)) {
        if (c == '"') {
          addContent();
        } else {
          skipValue(4);
        }
      } else if (is(REASONING_CONTENT) || is(REASONING)) {
        if (c == '"') {
          addReasoning();
        } else {
          skipValue(4);
        }
      } else if (is(TOOL_CALLS)) {
        if (c == '[') {
          expect('[');
          if (!emptyContainer(']')) {
            do {
              chunk.toolCalls++;
              skipSpace();
              if (keepText && peek() == '{') {
                toolCall(true);
              } else {
                skipValue(5);
              }
            } while (next(']'));
          }
        } else {
          skipValue(4);
        }
      } else if (is(FUNCTION_CALL)) {
        if (c == '{') {
          chunk.toolCalls++;
          if (keepText) {
            toolCall(false);
          } else {
            skipValue(4);
          }
        } else {
          skipValue(4);
        }
      } else {
        skipValue(4);
      }
    } while (nextKey());
  }

  /**
   * A tool call kept as a {@link ToolCallDelta} (the next value, an object), as the Jackson path's
   * {@code readToolCall}: {@code nested}, a {@code tool_calls} entry ({@code index}, {@code id},
   * {@code function.name}, {@code function.arguments}); else a legacy {@code function_call} ({@code
   * name}, {@code arguments}). A value of another type than expected is read as absent; a key given
   * twice, the last wins.
   */
  private void toolCall(boolean nested) {
    Integer index = null;
    String id = null;
    String[] function = new String[2];
    if (firstKey()) {
      do {
        byte c = peek();
        if (nested && is(INDEX)) {
          index = count();
        } else if (nested && is(ID)) {
          id = c == '"' ? text() : skipped();
        } else if (nested && is(FUNCTION) && c == '{') {
          if (firstKey()) {
            do {
              nameOrArguments(function);
            } while (nextKey());
          }
        } else if (!nested) {
          nameOrArguments(function);
        } else {
          skipValue(6);
        }
      } while (nextKey());
    }
    chunk.keepToolCall(new ToolCallDelta(index, id, function[0], function[1]));
  }

  /** After a key: a function's {@code name} or {@code arguments} into {@code function}. */
  private void nameOrArguments(String[] function) {
    if (is(NAME) || is(ARGUMENTS)) {
      function[is(NAME) ? 0 : 1] = peek() == '"' ? text() : skipped();
    } else {
      skipValue(7);
    }
  }

  /** Skips the next value; null. */
  private String skipped() {
    skipValue(7);
    return null;
  }

  /** A content text (the next value, a string): counted, and joined to the last when kept. */
  private void addContent() {
    if (keepText) {
      String text = text();
      chunk.addContent(text.length(), text);
    } else {
      chunk.addContent(stringChars(true), null);
    }
  }

  /** A reasoning text (the next value, a string): counted, and kept when it is the first. */
  private void addReasoning() {
    if (keepText) {
      String text = text();
      chunk.addReasoning(text.length(), text);
    } else {
      chunk.addReasoning(stringChars(false), null);
    }
  }

  private void usage() {
    if (!firstKey()) {
      return;
    }
    do {
      if (is(PROMPT_TOKENS)) {
        chunk.promptTokens = count();
      } else if (is(COMPLETION_TOKENS)) {
        chunk.completionTokens = count();
      } else if (is(PROMPT_TOKENS_DETAILS) || is(COMPLETION_TOKENS_DETAILS)) {
        boolean prompt = is(PROMPT_TOKENS_DETAILS);
        if (peek() == '{') {
          if (firstKey()) {
            do {
              if (prompt && is(CACHED_TOKENS)) {
                chunk.cachedTokens = count();
              } else if (!prompt && is(REASONING_TOKENS)) {
                chunk.reasoningTokens = count();
              } else {
                skipValue(3);
              }
            } while (nextKey());
          }
        } else {
          skipValue(2);
        }
      } else {
        skipValue(2);
      }
    } while (nextKey());
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
}
