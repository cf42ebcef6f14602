package io.github.gatlingllm.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Tool-call arguments as the JSON object a Messages {@code tool_use.input} must be, read the way
 * Anthropic's client libraries read a streamed {@code tool_use} block's {@code partial_json}s
 * (partial mode: a string cut short is closed, open objects and arrays are closed, a member cut
 * before its value is dropped). So a call cut at {@code max_tokens} mid-arguments ({@code
 * {"path":"src/ma}) is sent back as {@code {"path":"src/ma"}}; arguments that are not even the
 * start of an object ({@code [1]}, {@code "x"}, {@code null}, text) become {@code {}}.
 */
final class PartialJson {

  private PartialJson() {}

  /**
   * The object the arguments are, or the one their start makes once closed.
   *
   * @param text the arguments as received, never null
   * @return a new object, never null; {@code {}} when the text is blank or no object's start
   */
  static ObjectNode object(String text) {
    ObjectNode whole = parseObject(text);
    if (whole != null) {
      return whole;
    }
    String s = text.strip();
    if (!s.startsWith("{")) {
      return Json.MAPPER.createObjectNode();
    }
    // Walk the text: where strings are, which brackets are open, and each comma outside strings
    // (a place to cut back to, with the brackets open there).
    StringBuilder open = new StringBuilder();
    List<Integer> cuts = new ArrayList<>();
    List<String> cutOpen = new ArrayList<>();
    boolean inString = false;
    boolean escape = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (inString) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> inString = true;
        case '{' -> open.append('}');
        case '[' -> open.append(']');
        case '}', ']' -> {
          if (open.length() > 0) {
            open.setLength(open.length() - 1);
          }
        }
        case ',' -> {
          cuts.add(i);
          cutOpen.add(open.toString());
        }
        default -> {}
      }
    }
    String head = s;
    if (inString) {
      if (escape) {
        head = head.substring(0, head.length() - 1);
      }
      head = head + '"';
    }
    ObjectNode closed = parseObject(close(head, open.toString()));
    if (closed != null) {
      return closed;
    }
    for (int k = cuts.size() - 1; k >= 0; k--) {
      ObjectNode cut = parseObject(close(s.substring(0, cuts.get(k)), cutOpen.get(k)));
      if (cut != null) {
        return cut;
      }
    }
    return Json.MAPPER.createObjectNode();
  }

  /** The text with the open brackets closed, innermost first; a dangling {@code :} or key cut. */
  private static String close(String head, String open) {
    StringBuilder out = new StringBuilder(head.stripTrailing());
    int last = out.length() - 1;
    if (last >= 0 && (out.charAt(last) == ',' || out.charAt(last) == ':')) {
      out.setLength(last);
    }
    for (int i = open.length() - 1; i >= 0; i--) {
      out.append(open.charAt(i));
    }
    return out.toString();
  }

  private static ObjectNode parseObject(String text) {
    if (text.isBlank()) {
      return null;
    }
    try {
      JsonNode node = Json.MAPPER.readTree(text);
      return node != null && node.isObject() ? (ObjectNode) node : null;
    } catch (IOException e) {
      return null;
    }
  }
}
