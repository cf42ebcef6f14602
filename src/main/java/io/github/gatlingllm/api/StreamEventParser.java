package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** The streaming-parser behind {@link StreamEvent#parse}: one pass, no tree, no exceptions out. */
final class StreamEventParser {

  private static final int SNIPPET_CHARS = 40;
  private static final int REASON_CHARS = 80;
  private static final byte[] DONE = {'[', 'D', 'O', 'N', 'E', ']'};

  private final boolean keepText;
  private final ChatChunk chunk = new ChatChunk();
  private boolean errorSeen;
  private boolean objectIsError;
  private final ErrorFields error = new ErrorFields();
  private String topMessage;
  private String topType;
  private String topCode;
  private String malformedReason;
  private List<ToolCallDelta> toolCallDeltas;

  private StreamEventParser(boolean keepText) {
    this.keepText = keepText;
  }

  static StreamEvent parse(String data, boolean keepText) {
    if (data == null) {
      return StreamEvent.EMPTY;
    }
    int from = 0;
    int to = data.length();
    while (from < to && Character.isWhitespace(data.charAt(from))) {
      from++;
    }
    while (to > from && Character.isWhitespace(data.charAt(to - 1))) {
      to--;
    }
    if (from == to) {
      return StreamEvent.EMPTY;
    }
    if (to - from == 6 && data.startsWith("[DONE]", from)) {
      return StreamEvent.DONE;
    }
    if (data.charAt(from) != '{') {
      return malformed("not a JSON object", data);
    }
    StreamEventParser state = new StreamEventParser(keepText);
    try (JsonParser p = Json.FACTORY.createParser(data.getBytes(StandardCharsets.UTF_8))) {
      StreamEvent event = state.readObject(p);
      return event != null ? event : malformed(state.malformedReason, data);
    } catch (IOException | RuntimeException e) {
      return malformed(firstLine(e), data);
    }
  }

  /**
   * The same as {@code parse(new String(data, from, to - from, StandardCharsets.UTF_8), keepText)},
   * reading the bytes in place. Only the common case is read here: the payload's first and last
   * non-blank bytes are ASCII and it is {@code [DONE]}, not an object, or a JSON object Jackson
   * reads without error. Anything else (a non-ASCII byte at either end, which may be Unicode
   * whitespace; invalid JSON; invalid UTF-8, which Jackson rejects) is decoded and handed to the
   * String path, so that the result, the reason and the snippet are the String path's to the
   * letter.
   */
  static StreamEvent parse(byte[] data, int from, int to, boolean keepText) {
    return parse(data, from, to, keepText, true);
  }

  /**
   * {@link #parse(byte[], int, int, boolean)}, with or without the {@link ChunkScanner} fast path
   * (without: the reference the fast path is tested against).
   */
  static StreamEvent parse(byte[] data, int from, int to, boolean keepText, boolean scanner) {
    Objects.checkFromToIndex(from, to, data.length);
    int first = from;
    int last = to;
    while (first < last && isAsciiWhitespace(data[first])) {
      first++;
    }
    while (last > first && isAsciiWhitespace(data[last - 1])) {
      last--;
    }
    if (first == last) {
      return StreamEvent.EMPTY;
    }
    if (data[first] < 0 || data[last - 1] < 0) {
      return parse(new String(data, from, to - from, StandardCharsets.UTF_8), keepText);
    }
    if (last - first == DONE.length && Arrays.equals(data, first, last, DONE, 0, DONE.length)) {
      return StreamEvent.DONE;
    }
    if (data[first] != '{') {
      return malformed(
          "not a JSON object", new String(data, from, to - from, StandardCharsets.UTF_8));
    }
    if (scanner) {
      // The payload of nearly every event, read without a Jackson parser when it can be.
      StreamEvent fast = ChunkScanner.scan(data, from, to, keepText);
      if (fast != null) {
        return fast;
      }
    }
    StreamEventParser state = new StreamEventParser(keepText);
    // The whole range, as the String path gives Jackson the whole string: Jackson skips only
    // space, tab, CR and LF, and must fail on the other chars that were trimmed above.
    try (JsonParser p = Json.FACTORY.createParser(data, from, to - from)) {
      StreamEvent event = state.readObject(p);
      if (event != null) {
        return event;
      }
    } catch (IOException | RuntimeException e) {
      // rare: read again below
    }
    return parse(new String(data, from, to - from, StandardCharsets.UTF_8), keepText);
  }

  /** {@link Character#isWhitespace} for an ASCII byte: tab to CR, FS to US, and space. */
  private static boolean isAsciiWhitespace(byte b) {
    return b == ' ' || (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x1F);
  }

  /**
   * Reads the payload's object; null if it is not one object alone, with {@link #malformedReason}
   * set.
   */
  private StreamEvent readObject(JsonParser p) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      malformedReason = "not a JSON object";
      return null;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken t = p.nextToken();
      switch (name) {
        case "choices" -> {
          if (t == JsonToken.START_ARRAY) {
            readChoices(p);
          } else {
            p.skipChildren();
          }
        }
        case "usage" -> {
          if (Events.object(p, t)) {
            readUsage(p);
          }
        }
        case "error" -> readError(p, t);
        case "object" -> objectIsError = t == JsonToken.VALUE_STRING && isText(p, "error");
        case "message" -> topMessage = Events.scalarText(p, t);
        case "type", "error_type" -> topType = Events.scalarText(p, t);
        case "code" -> topCode = Events.scalarText(p, t);
        default -> p.skipChildren();
      }
    }
    if (p.currentToken() != JsonToken.END_OBJECT) {
      malformedReason = "not a JSON object";
      return null;
    }
    if (p.nextToken() != null) {
      malformedReason = "trailing content after the JSON object";
      return null;
    }
    return result();
  }

  private StreamEvent result() {
    if (errorSeen || objectIsError) {
      String message = errorSeen ? error.message : topMessage;
      String type = error.type != null ? error.type : topType;
      String code = error.code != null ? error.code : topCode;
      return Events.error(message, type, code);
    }
    return chunk.event();
  }

  private void readChoices(JsonParser p) throws IOException {
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null) {
      if (t != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "delta", "message" -> {
            if (Events.object(p, v)) {
              readDelta(p);
            }
          }
          case "text" -> {
            if (v == JsonToken.VALUE_STRING) {
              addContent(p);
            }
          }
          case "finish_reason" -> {
            if (v == JsonToken.VALUE_STRING && chunk.finishReason == null) {
              chunk.finishReason = p.getText();
            }
          }
          default -> p.skipChildren();
        }
      }
    }
  }

  private void readDelta(JsonParser p) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      switch (name) {
        case "content" -> {
          if (v == JsonToken.VALUE_STRING) {
            addContent(p);
          } else {
            p.skipChildren();
          }
        }
        case "reasoning_content", "reasoning" -> {
          if (v == JsonToken.VALUE_STRING) {
            chunk.addReasoning(p.getTextLength(), keepText ? p.getText() : null);
          } else {
            p.skipChildren();
          }
        }
        case "tool_calls" -> {
          if (v == JsonToken.START_ARRAY) {
            JsonToken e;
            while ((e = p.nextToken()) != JsonToken.END_ARRAY && e != null) {
              chunk.toolCalls++;
              if (keepText && e == JsonToken.START_OBJECT) {
                chunk.keepToolCall(readToolCall(p, true));
              } else {
                p.skipChildren();
              }
            }
          } else {
            p.skipChildren();
          }
        }
        case "function_call" -> {
          if (v == JsonToken.START_OBJECT) {
            chunk.toolCalls++;
            if (keepText) {
              chunk.keepToolCall(readToolCall(p, false));
              continue;
            }
          }
          p.skipChildren();
        }
        default -> p.skipChildren();
      }
    }
  }

  /**
   * Reads one {@code tool_calls} entry ({@code {"index", "id", "function": {"name", "arguments"}}})
   * or, not {@code nested}, a legacy {@code function_call} ({@code {"name", "arguments"}}), the
   * parser on its {@code START_OBJECT}; leaves it on the matching {@code END_OBJECT}. Values of
   * another type than expected are skipped, as absent.
   */
  private static ToolCallDelta readToolCall(JsonParser p, boolean nested) throws IOException {
    Integer index = null;
    String id = null;
    String[] function = new String[2];
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (nested && name.equals("index")) {
        index = v == JsonToken.VALUE_NUMBER_INT ? Events.count(p, v) : Events.skip(p);
      } else if (nested && name.equals("id")) {
        id = v == JsonToken.VALUE_STRING ? p.getText() : Events.skip(p);
      } else if (nested && name.equals("function") && v == JsonToken.START_OBJECT) {
        readFunction(p, function);
      } else if (!nested && (name.equals("name") || name.equals("arguments"))) {
        function[name.equals("name") ? 0 : 1] =
            v == JsonToken.VALUE_STRING ? p.getText() : Events.skip(p);
      } else {
        p.skipChildren();
      }
    }
    return new ToolCallDelta(index, id, function[0], function[1]);
  }

  private static void readFunction(JsonParser p, String[] function) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (name.equals("name") || name.equals("arguments")) {
        function[name.equals("name") ? 0 : 1] =
            v == JsonToken.VALUE_STRING ? p.getText() : Events.skip(p);
      } else {
        p.skipChildren();
      }
    }
  }

  private void addContent(JsonParser p) throws IOException {
    int n = p.getTextLength();
    boolean kept = n > 0 && (keepText || chunk.content != null || Events.hasThinkTag(p));
    chunk.addContent(n, kept ? p.getText() : null);
  }

  private void readUsage(JsonParser p) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      switch (name) {
        case "prompt_tokens" -> chunk.promptTokens = Events.count(p, v);
        case "completion_tokens" -> chunk.completionTokens = Events.count(p, v);
        case "prompt_tokens_details" ->
            chunk.cachedTokens = Events.countIn(p, v, "cached_tokens", chunk.cachedTokens);
        case "completion_tokens_details" ->
            chunk.reasoningTokens = Events.countIn(p, v, "reasoning_tokens", chunk.reasoningTokens);
        default -> p.skipChildren();
      }
    }
  }

  private void readError(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT -> {
        errorSeen = true;
        error.readObject(p);
      }
      case VALUE_STRING -> {
        errorSeen = true;
        error.message = p.getText();
      }
      case VALUE_NULL, VALUE_FALSE -> {
        // "error": null is not an error
      }
      default -> {
        errorSeen = true;
        error.message = t.isScalarValue() ? p.getText() : "";
        p.skipChildren();
      }
    }
  }

  private static boolean isText(JsonParser p, String expected) throws IOException {
    return p.getTextLength() == expected.length() && expected.equals(p.getText());
  }

  private static StreamEvent malformed(String reason, String data) {
    String snippet =
        data.length() <= SNIPPET_CHARS ? data : data.substring(0, SNIPPET_CHARS) + "...";
    return new StreamEvent(
        StreamEvent.Kind.MALFORMED,
        0,
        0,
        0,
        null,
        null,
        null,
        null,
        new ApiError("invalid data (" + reason + "): " + snippet, null, null),
        null);
  }

  private static String firstLine(Exception e) {
    String m =
        e instanceof com.fasterxml.jackson.core.JsonProcessingException j
            ? j.getOriginalMessage()
            : e.getMessage();
    if (m == null) {
      return e.getClass().getSimpleName();
    }
    // Jackson's messages end in source locations and hints that say nothing about the data.
    for (String tail : new String[] {"\n", " (start marker at", " at [Source"}) {
      int at = m.indexOf(tail);
      if (at >= 0) {
        m = m.substring(0, at);
      }
    }
    return m.length() <= REASON_CHARS ? m : m.substring(0, REASON_CHARS) + "...";
  }
}
