package io.github.gatlingllm.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole (non-streamed) response bodies of the Responses and Messages APIs, read once a request with
 * Jackson's tree model. Each tool call (a Responses {@code function_call} item, a Messages {@code
 * tool_use} block) is one {@link StreamEvent#toolCalls()} entry with its index, id, name and
 * arguments ({@code arguments} as received; a {@code tool_use}'s {@code input} object as JSON
 * text), for {@link ToolCallAssembly}, as a chat body's {@code tool_calls}. A body that is not one
 * JSON object, or has neither the API's shape nor an error, is read as {@link
 * StreamEvent#parseResponse(String)} reads it.
 */
final class NonStreamed {

  private NonStreamed() {}

  /**
   * A Responses API body: {@code output[]} items ({@code message} parts {@code output_text} and
   * {@code refusal}; {@code reasoning} items' {@code content[].text} and {@code summary[].text};
   * {@code function_call} items), {@code usage}, the finish reason as in a stream, and {@code
   * error}.
   */
  static StreamEvent responses(String body) {
    Read read = read(body, "output");
    if (read.answer() != null) {
      return read.answer();
    }
    JsonNode root = read.root();
    JsonNode output = read.items();
    StringBuilder content = null;
    StringBuilder reasoning = null;
    List<ToolCallDelta> calls = new ArrayList<>(0);
    for (JsonNode item : output) {
      String type = text(item, "type");
      if ("message".equals(type)) {
        for (JsonNode part : item.path("content")) {
          String partType = text(part, "type");
          if ("output_text".equals(partType) || "refusal".equals(partType)) {
            String t = text(part, "output_text".equals(partType) ? "text" : "refusal");
            if (t != null) {
              content = append(content, t);
            }
          }
        }
      } else if ("reasoning".equals(type)) {
        for (String field : new String[] {"content", "summary"}) {
          for (JsonNode part : item.path(field)) {
            String t = text(part, "text");
            if (t != null) {
              reasoning = append(reasoning, t);
            }
          }
        }
      } else if ("function_call".equals(type)) {
        String arguments = text(item, "arguments");
        calls.add(
            new ToolCallDelta(
                calls.size(),
                text(item, "call_id"),
                text(item, "name"),
                arguments == null ? "" : arguments));
      }
    }
    JsonNode usage = root.get("usage");
    Usage u = null;
    if (usage != null && usage.isObject()) {
      u =
          usage(
              count(usage.get("input_tokens")),
              count(usage.get("output_tokens")),
              count(usage.path("input_tokens_details").get("cached_tokens")),
              count(usage.path("output_tokens_details").get("reasoning_tokens")));
    }
    String finish = text(root.path("incomplete_details"), "reason");
    if (finish == null) {
      finish = text(root, "status");
    }
    return chunk(content, reasoning, calls, finish, u);
  }

  /**
   * A Responses API body's {@code id}.
   *
   * @return the top-level {@code id} of a response object, else null
   */
  static String responseId(String body) {
    JsonNode root = tree(body);
    return root == null || root.has("error") && root.get("error").isObject()
        ? null
        : text(root, "id");
  }

  /**
   * A Messages API body: {@code content[]} blocks ({@code text}, {@code thinking}, {@code
   * tool_use}), {@code usage} (prompt tokens as in a stream), {@code stop_reason}, and an error
   * body {@code {"type":"error","error":{...}}}.
   */
  static StreamEvent messages(String body) {
    Read read = read(body, "content");
    if (read.answer() != null) {
      return read.answer();
    }
    JsonNode root = read.root();
    JsonNode blocks = read.items();
    StringBuilder content = null;
    StringBuilder reasoning = null;
    List<ToolCallDelta> calls = new ArrayList<>(0);
    for (JsonNode block : blocks) {
      String type = text(block, "type");
      if ("text".equals(type) && text(block, "text") != null) {
        content = append(content, text(block, "text"));
      } else if ("thinking".equals(type) && text(block, "thinking") != null) {
        reasoning = append(reasoning, text(block, "thinking"));
      } else if ("tool_use".equals(type)) {
        // the input object as JSON text, as a stream's input_json_deltas put it together
        JsonNode input = block.get("input");
        calls.add(
            new ToolCallDelta(
                calls.size(),
                text(block, "id"),
                text(block, "name"),
                input == null || input.isNull() ? "" : input.toString()));
      }
    }
    JsonNode usage = root.get("usage");
    Usage u = null;
    if (usage != null && usage.isObject()) {
      Integer cacheRead = count(usage.get("cache_read_input_tokens"));
      u =
          usage(
              MessagesDialect.promptTokens(
                  count(usage.get("input_tokens")),
                  cacheRead,
                  count(usage.get("cache_creation_input_tokens"))),
              count(usage.get("output_tokens")),
              cacheRead,
              null);
    }
    return chunk(content, reasoning, calls, text(root, "stop_reason"), u);
  }

  /**
   * A body read up to its array of items: the root and the array, or the event the body already is
   * (an error, or what is not the API's shape, read as chat's).
   */
  private record Read(JsonNode root, JsonNode items, StreamEvent answer) {}

  private static Read read(String body, String field) {
    JsonNode root = tree(body);
    if (root == null) {
      return new Read(null, null, StreamEvent.parseResponse(body));
    }
    JsonNode error = root.get("error");
    if (error != null && error.isObject()) {
      return new Read(
          null,
          null,
          Events.error(text(error, "message"), text(error, "type"), text(error, "code")));
    }
    JsonNode items = root.get(field);
    if (items == null || !items.isArray()) {
      return new Read(null, null, StreamEvent.parseResponse(body));
    }
    return new Read(root, items, null);
  }

  private static StreamEvent chunk(
      StringBuilder content,
      StringBuilder reasoning,
      List<ToolCallDelta> calls,
      String finish,
      Usage usage) {
    return new StreamEvent(
        StreamEvent.Kind.CHUNK,
        content == null ? 0 : content.length(),
        reasoning == null ? 0 : reasoning.length(),
        calls.size(),
        content == null ? null : content.toString(),
        reasoning == null ? null : reasoning.toString(),
        finish,
        usage,
        null,
        calls);
  }

  private static Usage usage(
      Integer prompt, Integer completion, Integer cached, Integer reasoning) {
    return prompt == null && completion == null && cached == null && reasoning == null
        ? null
        : new Usage(prompt, completion, cached, reasoning);
  }

  private static StringBuilder append(StringBuilder sb, String text) {
    return sb == null ? new StringBuilder(text) : sb.append(text);
  }

  /** The body as one JSON object, or null when it is blank, not JSON or not an object. */
  private static JsonNode tree(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode root = Json.MAPPER.readTree(body);
      return root != null && root.isObject() ? root : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** A scalar field's text (numbers written out), else null. */
  private static String text(JsonNode node, String field) {
    JsonNode v = node == null ? null : node.get(field);
    return v != null && v.isValueNode() && !v.isNull() ? v.asText() : null;
  }

  /** A non-negative int, else null. */
  private static Integer count(JsonNode v) {
    return v != null && v.isInt() && v.intValue() >= 0 ? v.intValue() : null;
  }
}
