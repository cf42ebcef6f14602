package io.github.gatlingllm.api;

import java.util.List;
import java.util.Objects;

/**
 * One SSE {@code data} payload of a streamed completion, classified and reduced to what timing
 * needs; also the result of reading a whole non-streamed response body ({@link
 * #parseResponse(String)}).
 *
 * <p>Shapes read (all choices of a chunk are looked at; load tests use {@code n = 1}):
 *
 * <ul>
 *   <li>{@code [DONE]}, surrounding whitespace allowed: {@link Kind#DONE}.
 *   <li>chat chunks: {@code choices[].delta.content}, {@code .reasoning_content} (DeepSeek,
 *       llama.cpp, older vLLM), {@code .reasoning} (newer vLLM), {@code .tool_calls[]}; completion
 *       chunks: {@code choices[].text}; {@code choices[].finish_reason}; non-streamed bodies: the
 *       same under {@code choices[].message}.
 *   <li>{@code usage} on any chunk, with or without {@code choices} (also {@code "choices": []}).
 *   <li>errors: see {@link ApiError}: {@link Kind#ERROR}.
 *   <li>anything that is not one JSON object: {@link Kind#MALFORMED}, with a short reason in {@link
 *       #error()}.
 * </ul>
 *
 * <p>A role-only delta ({@code {"role":"assistant","content":null}} or {@code "content":""})
 * carries no token. Text is measured without being copied unless asked for ({@code keepText}): only
 * its length in chars is kept.
 *
 * @param kind what the payload is, never null
 * @param contentChars chars of content in this payload ({@code delta.content}, {@code
 *     message.content} or {@code text}), summed over choices
 * @param reasoningChars chars of reasoning text ({@code reasoning_content} or {@code reasoning})
 * @param toolCallDeltas number of {@code tool_calls} entries (and legacy {@code function_call}s)
 * @param content the content text when kept and present, else null; content holding {@code <think>}
 *     or {@code </think>} (a reasoning model's thinking inside the content, as llama.cpp with
 *     {@code --reasoning-format none} sends it) is always kept, so that its reasoning can be told
 *     from its answer
 * @param reasoning the reasoning text when kept and present, else null
 * @param finishReason the first non-null {@code finish_reason}, or null
 * @param usage the {@code usage} object when present with at least one count, else null
 * @param error the server's error ({@link Kind#ERROR}) or the reason the payload could not be read
 *     ({@link Kind#MALFORMED}); null for other kinds
 * @param toolCalls when the text is kept ({@code keepText}): the payload's {@code tool_calls}
 *     entries (and a legacy {@code function_call}) as received, in order, for {@link
 *     ToolCallAssembly}; null when the text is not kept or the payload has none; unmodifiable
 */
public record StreamEvent(
    Kind kind,
    int contentChars,
    int reasoningChars,
    int toolCallDeltas,
    String content,
    String reasoning,
    String finishReason,
    Usage usage,
    ApiError error,
    List<ToolCallDelta> toolCalls) {

  /** What a payload is. */
  public enum Kind {
    /** The {@code [DONE]} marker that ends an OpenAI-compatible stream. */
    DONE,
    /** A completion chunk (or a whole response body), possibly carrying no token. */
    CHUNK,
    /** A payload reporting an error: the server gave up on the request mid-stream. */
    ERROR,
    /** A payload that is not a JSON object (or not JSON at all); see {@link #error()}. */
    MALFORMED,
    /** An empty or blank payload (for example {@code data:} with nothing after it): ignored. */
    EMPTY
  }

  /** The {@code [DONE]} event. */
  public static final StreamEvent DONE =
      new StreamEvent(Kind.DONE, 0, 0, 0, null, null, null, null, null, null);

  /** An empty payload. */
  public static final StreamEvent EMPTY =
      new StreamEvent(Kind.EMPTY, 0, 0, 0, null, null, null, null, null, null);

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if {@code kind} is null
   * @throws IllegalArgumentException if a count is negative
   */
  public StreamEvent {
    Objects.requireNonNull(kind, "kind");
    toolCalls = toolCalls == null || toolCalls.isEmpty() ? null : List.copyOf(toolCalls);
    if (contentChars < 0 || reasoningChars < 0 || toolCallDeltas < 0) {
      throw new IllegalArgumentException(
          "contentChars, reasoningChars and toolCallDeltas must be >= 0, got "
              + contentChars
              + ", "
              + reasoningChars
              + ", "
              + toolCallDeltas);
    }
  }

  /**
   * Reads one SSE {@code data} payload without keeping its text. Never throws: what cannot be read
   * is {@link Kind#MALFORMED}.
   *
   * @param data the payload (all {@code data:} lines of one event, joined by {@code \n}, as Gatling
   *     and the SSE standard give it); null is read as {@link Kind#EMPTY}
   * @return the event, never null
   */
  public static StreamEvent parse(String data) {
    return StreamEventParser.parse(data, false);
  }

  /**
   * Reads one SSE {@code data} payload. Never throws: what cannot be read is {@link
   * Kind#MALFORMED}.
   *
   * @param data the payload; null is read as {@link Kind#EMPTY}
   * @param keepText whether to keep the content and reasoning text ({@link #content()}, {@link
   *     #reasoning()}) and the tool-call entries ({@link #toolCalls()}); without it only their
   *     lengths and count are kept
   * @return the event, never null
   */
  public static StreamEvent parse(String data, boolean keepText) {
    return StreamEventParser.parse(data, keepText);
  }

  /**
   * Reads one SSE {@code data} payload straight from its bytes, without keeping its text, as {@link
   * SseParser} hands it on. Never throws on the payload: what cannot be read is {@link
   * Kind#MALFORMED}.
   *
   * <p>Gives the same event as {@link #parse(String)} of the bytes decoded as UTF-8 ({@code new
   * String(data, from, to - from, UTF_8)}, invalid sequences replaced by U+FFFD), for every input:
   * the same whitespace trimming ({@link Character#isWhitespace}), {@code [DONE]}, fields and
   * counts (text lengths in Java chars, UTF-16 units: a character outside the BMP counts 2), and
   * the same reason and snippet when malformed. Well-formed payloads are read in place with
   * Jackson; only a malformed one, one with invalid UTF-8 or one with a non-ASCII char at either
   * end is decoded to a String.
   *
   * @param data the array holding the payload (all {@code data:} lines of one event joined by
   *     {@code \n}), UTF-8; not null; read, not modified nor kept
   * @param from the index of the payload's first byte, inclusive
   * @param to the index after the payload's last byte, exclusive; {@code from == to} is {@link
   *     Kind#EMPTY}
   * @return the event, never null
   * @throws NullPointerException if {@code data} is null
   * @throws IndexOutOfBoundsException if {@code from} and {@code to} are not a range of {@code
   *     data}
   */
  public static StreamEvent parse(byte[] data, int from, int to) {
    return StreamEventParser.parse(data, from, to, false);
  }

  /**
   * Reads one SSE {@code data} payload straight from its bytes: {@link #parse(byte[], int, int)},
   * keeping the text if asked, as {@link #parse(String, boolean)} does.
   *
   * @param data the array holding the payload, UTF-8; not null; read, not modified nor kept
   * @param from the index of the payload's first byte, inclusive
   * @param to the index after the payload's last byte, exclusive
   * @param keepText whether to keep the content and reasoning text ({@link #content()}, {@link
   *     #reasoning()}) and the tool-call entries ({@link #toolCalls()}); without it only their
   *     lengths and count are kept
   * @return the event, never null
   * @throws NullPointerException if {@code data} is null
   * @throws IndexOutOfBoundsException if {@code from} and {@code to} are not a range of {@code
   *     data}
   */
  public static StreamEvent parse(byte[] data, int from, int to, boolean keepText) {
    return StreamEventParser.parse(data, from, to, keepText);
  }

  /**
   * Reads a whole non-streamed {@code chat/completions} or {@code completions} response body (or an
   * error body), keeping its text: {@code choices[0].message.content} or {@code choices[0].text},
   * {@code message.tool_calls}, {@code finish_reason}, {@code usage}. Never throws.
   *
   * @param body the response body; null is read as {@link Kind#EMPTY}
   * @return a {@link Kind#CHUNK}, {@link Kind#ERROR}, {@link Kind#MALFORMED} or {@link Kind#EMPTY}
   *     event
   */
  public static StreamEvent parseResponse(String body) {
    return StreamEventParser.parse(body, true);
  }

  /**
   * Whether this payload carries at least one generated token: non-empty content, reasoning or
   * text, or a tool-call delta. The first such event marks the time to first token.
   *
   * @return true for a {@link Kind#CHUNK} with generated output
   */
  public boolean isTokenBearing() {
    return kind == Kind.CHUNK && (contentChars > 0 || reasoningChars > 0 || toolCallDeltas > 0);
  }
}
