package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the JSON body of a generation request, checks it as vLLM and llama.cpp do for the fields
 * the simulator uses, and counts its prompt tokens. Unknown fields ({@code temperature}, {@code
 * model}, ...) are ignored. Thread-safe.
 */
final class RequestParser {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final SimulatorConfig config;
  private final PromptTokenizer tokenizer;

  /** The tokenizer prompts are counted with. */
  PromptTokenizer tokenizer() {
    return tokenizer;
  }

  RequestParser(SimulatorConfig config) {
    this.config = config;
    this.tokenizer = new PromptTokenizer(config.tokenCounter());
  }

  /**
   * Parses a request body.
   *
   * @throws ApiError HTTP 400 for invalid JSON, missing or mistyped fields, or a prompt longer than
   *     the context
   */
  ParsedRequest parse(ServedEndpoint endpoint, byte[] body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw ApiError.badRequest("Invalid JSON body: " + oneLine(e.getOriginalMessage()), null);
    } catch (IOException e) {
      throw ApiError.badRequest("Invalid JSON body: " + oneLine(e.getMessage()), null);
    }
    if (root == null || !root.isObject()) {
      throw ApiError.badRequest(
          "The request body must be a JSON object, got "
              + (root == null || root.isMissingNode() ? "nothing" : kind(root)),
          null);
    }
    boolean stream = optionalBoolean(root, "stream", "stream");
    boolean includeUsage = false;
    JsonNode options = root.get("stream_options");
    if (options != null && !options.isNull()) {
      if (!options.isObject()) {
        throw ApiError.badRequest(
            "'stream_options' must be an object, got " + kind(options), "stream_options");
      }
      includeUsage = optionalBoolean(options, "include_usage", "stream_options.include_usage");
    }
    optionalBoolean(root, "ignore_eos", "ignore_eos");
    JsonNode n = root.get("n");
    if (n != null && !n.isNull() && !(n.isIntegralNumber() && n.asLong() == 1)) {
      throw ApiError.badRequest("'n' must be 1 (the simulator makes one choice), got " + n, "n");
    }
    int maxTokens = maxTokens(root);
    if (endpoint != ServedEndpoint.CHAT) {
      PromptTokenizer.Tokens tokens = completionTokens(root);
      checkContext(tokens);
      return new ParsedRequest(endpoint, stream, includeUsage, maxTokens, tokens, List.of());
    }
    List<JsonNode> tools = ToolTurns.tools(root);
    String choice = ToolTurns.choice(root, tools);
    PromptTokenizer.Tokens tokens = chatTokens(root, tools);
    checkContext(tokens);
    List<ToolTurns.Call> calls =
        ToolTurns.calls(
            tools, choice, ToolTurns.loops(root.get("messages")), ToolTurns.promptHash(tokens));
    return new ParsedRequest(endpoint, stream, includeUsage, maxTokens, tokens, calls);
  }

  private void checkContext(PromptTokenizer.Tokens tokens) {
    if (tokens.count() > config.contextLength()) {
      throw ApiError.exceedContext(tokens.count(), config.contextLength());
    }
  }

  private int maxTokens(JsonNode root) {
    String field = "max_completion_tokens";
    JsonNode value = root.get(field);
    if (value == null || value.isNull()) {
      field = "max_tokens";
      value = root.get(field);
    }
    if (value == null || value.isNull()) {
      return config.defaultMaxTokens();
    }
    if (!value.isIntegralNumber()) {
      throw ApiError.badRequest("'" + field + "' must be an integer, got " + kind(value), field);
    }
    if (!value.canConvertToInt()
        || value.intValue() < 1
        || value.intValue() > config.contextLength()) {
      throw ApiError.badRequest(
          "'"
              + field
              + "' must be between 1 and the context length ("
              + config.contextLength()
              + "), got "
              + value,
          field);
    }
    return value.intValue();
  }

  private PromptTokenizer.Tokens chatTokens(JsonNode root, List<JsonNode> tools) {
    JsonNode messages = root.get("messages");
    if (messages == null || messages.isNull()) {
      throw ApiError.badRequest("'messages' is required", "messages");
    }
    if (!messages.isArray() || messages.isEmpty()) {
      throw ApiError.badRequest(
          "'messages' must be a non-empty array of messages, got "
              + (messages.isArray() ? "an empty array" : kind(messages)),
          "messages");
    }
    List<PromptTokenizer.Message> parsed = new ArrayList<>(messages.size() + 1);
    Set<String> callIds = ToolTurns.newIds();
    boolean toolGroup = false;
    for (int i = 0; i < messages.size(); i++) {
      String where = "messages[" + i + "]";
      JsonNode message = messages.get(i);
      if (!message.isObject()) {
        throw ApiError.badRequest("'" + where + "' must be an object, got " + kind(message), where);
      }
      JsonNode role = message.get("role");
      if (role == null || !role.isTextual()) {
        throw ApiError.badRequest(
            "'" + where + ".role' must be a string, got " + kind(role), where + ".role");
      }
      String content = content(message, where);
      switch (role.textValue()) {
        case "assistant" -> {
          callIds = ToolTurns.newIds();
          content = ToolTurns.assistantContent(message, content, where, callIds);
        }
        case "tool" -> {
          // Consecutive tool results make one user message, as Qwen's template renders them.
          String part = ToolTurns.toolResponse(message, content, where, callIds);
          if (toolGroup) {
            PromptTokenizer.Message last = parsed.remove(parsed.size() - 1);
            parsed.add(new PromptTokenizer.Message("user", last.content() + "\n" + part));
          } else {
            parsed.add(new PromptTokenizer.Message("user", part));
          }
          toolGroup = true;
          continue;
        }
        default -> {
          // system, user and any other role: its text as it is
        }
      }
      toolGroup = false;
      parsed.add(new PromptTokenizer.Message(role.textValue(), content));
    }
    if (!tools.isEmpty()) {
      String block = ToolTurns.toolsBlock(tools);
      if (!parsed.isEmpty() && parsed.get(0).role().equals("system")) {
        PromptTokenizer.Message system = parsed.get(0);
        String head = system.content().isEmpty() ? "" : system.content() + "\n\n";
        parsed.set(0, new PromptTokenizer.Message("system", head + block));
      } else {
        parsed.add(0, new PromptTokenizer.Message("system", block));
      }
    }
    return tokenizer.tokens(PromptTokenizer.chatTemplate(parsed));
  }

  /** A message's text: a string, null (no text), or text parts joined with newlines (as vLLM). */
  private static String content(JsonNode message, String where) {
    JsonNode content = message.get("content");
    String field = where + ".content";
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isTextual()) {
      return content.textValue();
    }
    if (!content.isArray()) {
      throw ApiError.badRequest(
          "'" + field + "' must be a string or an array of text parts, got " + kind(content),
          field);
    }
    StringBuilder text = new StringBuilder();
    for (int j = 0; j < content.size(); j++) {
      JsonNode part = content.get(j);
      JsonNode type = part.get("type");
      JsonNode partText = part.get("text");
      if (!part.isObject()
          || type == null
          || !"text".equals(type.asText())
          || partText == null
          || !partText.isTextual()) {
        throw ApiError.badRequest(
            "'"
                + field
                + "["
                + j
                + "]' must be a text part {\"type\": \"text\", \"text\": ...}; the simulator"
                + " takes no other content",
            field);
      }
      if (j > 0) {
        text.append('\n');
      }
      text.append(partText.textValue());
    }
    return text.toString();
  }

  /** A completions prompt: a string, an array of one string, or an array of token ids. */
  private PromptTokenizer.Tokens completionTokens(JsonNode root) {
    JsonNode prompt = root.get("prompt");
    if (prompt == null || prompt.isNull()) {
      throw ApiError.badRequest("'prompt' is required", "prompt");
    }
    if (prompt.isTextual()) {
      return tokenizer.tokens(prompt.textValue());
    }
    if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
      return tokenizer.tokens(prompt.get(0).textValue());
    }
    if (prompt.isArray() && !prompt.isEmpty()) {
      long[] ids = new long[prompt.size()];
      for (int i = 0; i < ids.length; i++) {
        JsonNode id = prompt.get(i);
        if (!id.isIntegralNumber() || !id.canConvertToLong() || id.longValue() < 0) {
          throw promptShape(prompt);
        }
        ids[i] = id.longValue();
      }
      return PromptTokenizer.ids(ids);
    }
    throw promptShape(prompt);
  }

  private static ApiError promptShape(JsonNode prompt) {
    return ApiError.badRequest(
        "'prompt' must be a string, an array of one string, or a non-empty array of token ids"
            + " (the simulator takes one prompt per request), got "
            + kind(prompt),
        "prompt");
  }

  private static boolean optionalBoolean(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw ApiError.badRequest("'" + name + "' must be a boolean, got " + kind(value), name);
    }
    return value.booleanValue();
  }

  /** What a JSON value is, for error messages. */
  static String kind(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> node.getNodeType().toString().toLowerCase(Locale.ROOT);
    };
  }

  private static String oneLine(String message) {
    return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
