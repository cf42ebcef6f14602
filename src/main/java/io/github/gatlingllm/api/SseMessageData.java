package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Takes the {@code data} payload back out of Gatling's text rendering of an SSE message.
 *
 * <p>Gatling 3.16 ({@code io.gatling.http.action.sse.fsm.ServerSentEvent#asJsonString}) hands each
 * inbound SSE message to checks and to {@code processUnmatchedMessages} as a string built by hand:
 *
 * <pre>{@code
 * {"event":"<event>","id":"<id>","data":<data>,"retry":<retry>}
 * }</pre>
 *
 * <ul>
 *   <li>each field only when the message had that field line ({@code event:} with nothing after it
 *       gives {@code "event":""}); a message with no fields renders as a lone <code>}</code>;
 *   <li>{@code event} and {@code id} are written between quotes without any escaping;
 *   <li>{@code data} (the message's {@code data:} lines joined by {@code \n}) is inlined raw when
 *       it is longer than one char and starts with <code>{</code> and ends with <code>}</code>, or
 *       starts with {@code [} and ends with {@code ]}: so {@code data: [DONE]} renders as {@code
 *       {"data":[DONE]}}, which is not JSON; otherwise it is quoted and JSON-escaped ({@code \"},
 *       {@code \\}, {@code \n}, {@code \t}, {@code \b}, {@code \f}, a backslash-u escape with
 *       uppercase hex for other control chars and DEL; non-ASCII as is): {@code data: [DONE] }
 *       (trailing space) renders as {@code {"data":"[DONE] "}};
 *   <li>{@code retry} is a bare integer.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class SseMessageData {

  private static final String DATA_FIRST = "{\"data\":";
  private static final String DATA_AFTER = "\",\"data\":";
  private static final String RETRY = ",\"retry\":";

  private SseMessageData() {}

  /**
   * The {@code data} payload of one message as Gatling rendered it, ready for {@link
   * StreamEvent#parse(String)}: inlined data as it stands, quoted data unescaped. Never throws.
   *
   * <p>The {@code data} field is found after the {@code event} and {@code id} fields, which come
   * first; since Gatling does not escape those two, an event name or id that itself contains {@code
   * ","data":} could mislead the search (no OpenAI-compatible server sends such names).
   *
   * @param message the rendered message, for example {@code {"data":[DONE]}}; may be null
   * @return the payload, for example {@code [DONE]}; null when the message is null, has no {@code
   *     data} field or is not in Gatling's rendering
   */
  public static String extract(String message) {
    if (message == null) {
      return null;
    }
    int n = message.length();
    if (n < DATA_FIRST.length() + 1 || message.charAt(n - 1) != '}') {
      return null;
    }
    int start;
    if (message.startsWith(DATA_FIRST)) {
      start = DATA_FIRST.length();
    } else if (message.startsWith("{\"event\":\"") || message.startsWith("{\"id\":\"")) {
      int at = message.indexOf(DATA_AFTER, 1);
      if (at < 0) {
        return null;
      }
      start = at + DATA_AFTER.length();
    } else {
      return null;
    }
    int end = n - 1;
    int digits = end;
    while (digits > start && Character.isDigit(message.charAt(digits - 1))) {
      digits--;
    }
    if (digits < end) {
      int sign = digits > start && message.charAt(digits - 1) == '-' ? digits - 1 : digits;
      if (sign - RETRY.length() >= start && message.startsWith(RETRY, sign - RETRY.length())) {
        end = sign - RETRY.length();
      }
    }
    if (end <= start) {
      return null;
    }
    if (message.charAt(start) == '"' && message.charAt(end - 1) == '"' && end - start >= 2) {
      return unquote(message, start, end);
    }
    return message.substring(start, end);
  }

  /** The JSON string literal in message[start, end), unescaped; its inside as is if invalid. */
  private static String unquote(String message, int start, int end) {
    String literal = message.substring(start, end);
    try (JsonParser p = Json.FACTORY.createParser(literal)) {
      if (p.nextToken() == JsonToken.VALUE_STRING) {
        String text = p.getText();
        if (p.nextToken() == null) {
          return text;
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through: not a valid literal
    }
    return literal.substring(1, literal.length() - 1);
  }
}
