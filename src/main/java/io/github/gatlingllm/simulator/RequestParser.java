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
  private final StoredResponses stored;

  /** The tokenizer prompts are counted with. */
  PromptTokenizer tokenizer() {
    return tokenizer;
  }

  RequestParser(SimulatorConfig config, StoredResponses stored) {
    this.config = config;
    this.tokenizer = new PromptTokenizer(config.tokenCounter());
    this.stored = stored;
  }

  /**
   * Parses a request body.
   *
   * @throws ErrorReply HTTP 400 for invalid JSON, missing or mistyped fields, or a prompt longer
   *     than the context
   */
  ParsedRequest parse(ServedEndpoint endpoint, byte[] body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw ErrorReply.badRequest("Invalid JSON body: " + oneLine(e.getOriginalMessage()), null);
    } catch (IOException e) {
      throw ErrorReply.badRequest("Invalid JSON body: " + oneLine(e.getMessage()), null);
    }
    if (root == null || !root.isObject()) {
      throw ErrorReply.badRequest(
          "The request body must be a JSON object, got "
              + (root == null || root.isMissingNode() ? "nothing" : kind(root)),
          null);
    }
    boolean stream = optionalBoolean(root, "stream", "stream");
    optionalBoolean(root, "ignore_eos", "ignore_eos");
    ImageParts images = new ImageParts();
    if (endpoint == ServedEndpoint.RESPONSES) {
      return responses(root, stream, images);
    }
    if (endpoint == ServedEndpoint.MESSAGES) {
      return messages(root, stream, images);
    }
    boolean includeUsage = false;
    JsonNode options = root.get("stream_options");
    if (options != null && !options.isNull()) {
      if (!options.isObject()) {
        throw ErrorReply.badRequest(
            "'stream_options' must be an object, got " + kind(options), "stream_options");
      }
      includeUsage = optionalBoolean(options, "include_usage", "stream_options.include_usage");
    }
    JsonNode n = root.get("n");
    if (n != null && !n.isNull() && !(n.isIntegralNumber() && n.asLong() == 1)) {
      throw ErrorReply.badRequest("'n' must be 1 (the simulator makes one choice), got " + n, "n");
    }
    int maxTokens = maxTokens(root);
    if (endpoint != ServedEndpoint.CHAT) {
      PromptTokenizer.Tokens tokens = completionTokens(root);
      checkContext(tokens);
      return new ParsedRequest(endpoint, stream, includeUsage, maxTokens, tokens, List.of());
    }
    List<JsonNode> tools = ToolTurns.tools(root);
    String choice = ToolTurns.choice(root, tools);
    PromptTokenizer.Tokens tokens = chatTokens(root, tools, images);
    checkContext(tokens);
    List<ToolTurns.Call> calls =
        ToolTurns.calls(
            tools, choice, ToolTurns.loops(root.get("messages")), ToolTurns.promptHash(tokens));
    return new ParsedRequest(endpoint, stream, includeUsage, maxTokens, tokens, calls);
  }

  private void checkContext(PromptTokenizer.Tokens tokens) {
    if (tokens.count() > config.contextLength()) {
      throw ErrorReply.exceedContext(tokens.count(), config.contextLength());
    }
  }

  private int maxTokens(JsonNode root) {
    String field = "max_completion_tokens";
    JsonNode value = root.get(field);
    if (value == null || value.isNull()) {
      field = "max_tokens";
      value = root.get(field);
    }
    return maxTokens(field, value);
  }

  private int maxTokens(String field, JsonNode value) {
    if (value == null || value.isNull()) {
      return config.defaultMaxTokens();
    }
    if (!value.isIntegralNumber()) {
      throw ErrorReply.badRequest("'" + field + "' must be an integer, got " + kind(value), field);
    }
    if (!value.canConvertToInt()
        || value.intValue() < 1
        || value.intValue() > config.contextLength()) {
      throw ErrorReply.badRequest(
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

  private PromptTokenizer.Tokens chatTokens(
      JsonNode root, List<JsonNode> tools, ImageParts images) {
    JsonNode messages = root.get("messages");
    if (messages == null || messages.isNull()) {
      throw ErrorReply.badRequest("'messages' is required", "messages");
    }
    if (!messages.isArray() || messages.isEmpty()) {
      throw ErrorReply.badRequest(
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
        throw ErrorReply.badRequest(
            "'" + where + "' must be an object, got " + kind(message), where);
      }
      JsonNode role = message.get("role");
      if (role == null || !role.isTextual()) {
        throw ErrorReply.badRequest(
            "'" + where + ".role' must be a string, got " + kind(role), where + ".role");
      }
      String content = content(message, where, images);
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
    return images.tokens(tokenizer, PromptTokenizer.chatTemplate(parsed));
  }

  /**
   * A message's text: a string, null (no text), or text parts joined with newlines (as vLLM), an
   * {@code image_url} part ({@code {"type":"image_url","image_url":{"url":"data:..."}}}) standing
   * as its image's marker ({@link ImageParts}).
   */
  private static String content(JsonNode message, String where, ImageParts images) {
    return textParts(
        message.get("content"),
        where,
        List.of("text"),
        "a text part {\"type\": \"text\", \"text\": ...} or an image part {\"type\":"
            + " \"image_url\", \"image_url\": {\"url\": \"data:...\"}}",
        images);
  }

  /**
   * A Responses API request: {@code instructions} (a system message, not carried over to a later
   * response), the stored conversation of {@code previous_response_id}, then {@code input} (a
   * string, or items: messages, {@code function_call}, {@code function_call_output}), templated as
   * chat messages; {@code max_output_tokens}; {@code reasoning.summary}.
   */
  private ParsedRequest responses(JsonNode root, boolean stream, ImageParts images) {
    int maxTokens = maxTokens("max_output_tokens", root.get("max_output_tokens"));
    List<PromptTokenizer.Message> all = new ArrayList<>();
    JsonNode instructions = root.get("instructions");
    if (instructions != null && !instructions.isNull()) {
      if (!instructions.isTextual()) {
        throw ErrorReply.badRequest(
            "'instructions' must be a string, got " + kind(instructions), "instructions");
      }
      all.add(new PromptTokenizer.Message("system", instructions.textValue()));
    }
    StoredResponses.Stored previous = null;
    JsonNode previousId = root.get("previous_response_id");
    if (previousId != null && !previousId.isNull()) {
      if (!previousId.isTextual()) {
        throw ErrorReply.badRequest(
            "'previous_response_id' must be a string, got " + kind(previousId),
            "previous_response_id");
      }
      previous = stored.get(previousId.textValue());
      if (previous == null) {
        throw ErrorReply.badRequest(
            "Previous response with id '" + previousId.textValue() + "' not found.",
            "previous_response_id");
      }
      all.addAll(previous.context());
    }
    java.util.Set<PromptTokenizer.Message> calls = new java.util.HashSet<>();
    List<PromptTokenizer.Message> added = inputItems(root.get("input"), calls, images);
    all.addAll(added);
    JsonNode summary = root.path("reasoning").path("summary");
    boolean reasoningSummary = summary.isTextual() && !summary.textValue().equals("none");
    List<JsonNode> tools = ToolTurns.responsesTools(root);
    String choice = ToolTurns.responsesChoice(root, tools);
    List<PromptTokenizer.Message> templated = ToolTurns.qwen(all, tools, calls);
    PromptTokenizer.Tokens tokens =
        images.tokens(tokenizer, PromptTokenizer.chatTemplate(templated));
    if (tokens.count() > config.contextLength()) {
      throw ErrorReply.exceedContext(tokens.count(), config.contextLength());
    }
    return new ParsedRequest(
        ServedEndpoint.RESPONSES,
        stream,
        true,
        maxTokens,
        tokens,
        previous,
        List.copyOf(added),
        reasoningSummary,
        ToolTurns.calls(tools, choice, ToolTurns.loops(templated), ToolTurns.promptHash(tokens)));
  }

  private static List<PromptTokenizer.Message> inputItems(
      JsonNode input, java.util.Set<PromptTokenizer.Message> calls, ImageParts images) {
    if (input == null || input.isNull()) {
      throw ErrorReply.badRequest("'input' is required", "input");
    }
    if (input.isTextual()) {
      return List.of(new PromptTokenizer.Message("user", input.textValue()));
    }
    if (!input.isArray() || input.isEmpty()) {
      throw ErrorReply.badRequest(
          "'input' must be a string or a non-empty array of items, got "
              + (input.isArray() ? "an empty array" : kind(input)),
          "input");
    }
    List<PromptTokenizer.Message> messages = new ArrayList<>(input.size());
    for (int i = 0; i < input.size(); i++) {
      String where = "input[" + i + "]";
      JsonNode item = input.get(i);
      if (!item.isObject()) {
        throw ErrorReply.badRequest("'" + where + "' must be an object, got " + kind(item), where);
      }
      String type = item.path("type").asText("message");
      switch (type) {
        case "message" -> {
          JsonNode role = item.get("role");
          if (role == null
              || !role.isTextual()
              || !List.of("system", "developer", "user", "assistant").contains(role.textValue())) {
            throw ErrorReply.badRequest(
                "'" + where + ".role' must be system, developer, user or assistant",
                where + ".role");
          }
          messages.add(
              new PromptTokenizer.Message(
                  role.textValue(), parts(item.get("content"), where, images)));
        }
        case "function_call" -> {
          PromptTokenizer.Message call =
              new PromptTokenizer.Message(
                  "assistant", toolCall(text(item, "name", where), text(item, "arguments", where)));
          calls.add(call);
          messages.add(call);
        }
        case "function_call_output" ->
            messages.add(new PromptTokenizer.Message("tool", text(item, "output", where)));
        default ->
            throw ErrorReply.badRequest(
                "'"
                    + where
                    + ".type' must be message, function_call or function_call_output (the"
                    + " simulator takes no other item), got '"
                    + type
                    + "'",
                where + ".type");
      }
    }
    return messages;
  }

  /** A tool call as Qwen's chat template renders it in an assistant turn. */
  private static String toolCall(String name, String arguments) {
    return "<tool_call>\n{\"name\": \""
        + name
        + "\", \"arguments\": "
        + arguments
        + "}\n</tool_call>";
  }

  private static String text(JsonNode node, String field, String where) {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw ErrorReply.badRequest(
          "'" + where + "." + field + "' must be a string, got " + kind(v), where + "." + field);
    }
    return v.textValue();
  }

  /**
   * A message's content: a string, or parts of text ({@code input_text}, {@code output_text},
   * {@code text}, Messages' {@code text}) joined with newlines; with {@code images}, a Responses
   * {@code input_image} ({@code {"type":"input_image","image_url":"data:..."}}) as its marker.
   */
  private static String parts(JsonNode content, String where, ImageParts images) {
    return textParts(
        content,
        where,
        List.of("input_text", "output_text", "text"),
        images == null ? "a text part" : "a text part or an input_image with a data URI",
        images);
  }

  private static String parts(JsonNode content, String where) {
    return parts(content, where, null);
  }

  /**
   * A content: a string, null (no text), or parts of the given types joined with newlines.
   *
   * @param expected what a part must be, for the refusal of another
   */
  private static String textParts(
      JsonNode content, String where, List<String> types, String expected, ImageParts images) {
    String field = where + ".content";
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isTextual()) {
      return content.textValue();
    }
    if (!content.isArray()) {
      throw ErrorReply.badRequest(
          "'" + field + "' must be a string or an array of text parts, got " + kind(content),
          field);
    }
    StringBuilder text = new StringBuilder();
    for (int j = 0; j < content.size(); j++) {
      JsonNode part = content.get(j);
      String image = images == null ? null : imagePart(part, field + "[" + j + "]", images);
      if (image != null) {
        if (j > 0) {
          text.append('\n');
        }
        text.append(image);
        continue;
      }
      JsonNode partText = part.get("text");
      if (!part.isObject()
          || !types.contains(part.path("type").asText(""))
          || partText == null
          || !partText.isTextual()) {
        throw ErrorReply.badRequest(
            "'"
                + field
                + "["
                + j
                + "]' must be "
                + expected
                + "; the simulator takes no other content",
            field);
      }
      if (j > 0) {
        text.append('\n');
      }
      text.append(partText.textValue());
    }
    return text.toString();
  }

  /**
   * An image part's marker: a chat {@code image_url} part (its {@code image_url.url}, or the URL as
   * a string) or a Responses {@code input_image} (its {@code image_url}); null for any other part.
   */
  private static String imagePart(JsonNode part, String field, ImageParts images) {
    String type = part.path("type").asText("");
    JsonNode url;
    if (type.equals("image_url")) {
      url = part.path("image_url");
      if (url.isObject()) {
        url = url.path("url");
        field += ".image_url.url";
      } else {
        field += ".image_url";
      }
    } else if (type.equals("input_image")) {
      url = part.path("image_url");
      field += ".image_url";
    } else {
      return null;
    }
    if (!url.isTextual()) {
      throw ErrorReply.badRequest(
          "'" + field + "' must be a string, a data URI, got " + kind(url), field);
    }
    return images.dataUri(url.textValue(), field);
  }

  /**
   * An Anthropic Messages request: {@code max_tokens} (required, as Anthropic's API requires it),
   * {@code system} (a string or text blocks), {@code messages} of user and assistant turns whose
   * content is a string or blocks ({@code text}, {@code tool_use}, {@code tool_result}, {@code
   * thinking} is left out), templated as chat messages.
   */
  private ParsedRequest messages(JsonNode root, boolean stream, ImageParts images) {
    JsonNode max = root.get("max_tokens");
    if (max == null || max.isNull()) {
      throw ErrorReply.badRequest("max_tokens: Field required", "max_tokens");
    }
    int maxTokens = maxTokens("max_tokens", max);
    List<PromptTokenizer.Message> all = new ArrayList<>();
    JsonNode system = root.get("system");
    if (system != null && !system.isNull()) {
      all.add(new PromptTokenizer.Message("system", parts(system, "system")));
    }
    JsonNode messages = root.get("messages");
    if (messages == null || !messages.isArray() || messages.isEmpty()) {
      throw ErrorReply.badRequest(
          "'messages' must be a non-empty array of messages, got "
              + (messages != null && messages.isArray() ? "an empty array" : kind(messages)),
          "messages");
    }
    for (int i = 0; i < messages.size(); i++) {
      String where = "messages[" + i + "]";
      JsonNode message = messages.get(i);
      JsonNode role = message.get("role");
      if (role == null
          || !role.isTextual()
          || !(role.textValue().equals("user") || role.textValue().equals("assistant"))) {
        throw ErrorReply.badRequest(
            "'" + where + ".role' must be user or assistant (system goes in 'system')",
            where + ".role");
      }
      JsonNode content = message.get("content");
      if (content == null || !content.isArray()) {
        all.add(new PromptTokenizer.Message(role.textValue(), parts(content, where)));
        continue;
      }
      StringBuilder text = new StringBuilder();
      for (int j = 0; j < content.size(); j++) {
        String at = where + ".content[" + j + "]";
        JsonNode block = content.get(j);
        String type = block.path("type").asText("");
        switch (type) {
          case "text" -> append(text, text(block, "text", at));
          case "image" -> append(text, imageBlock(block, at, images));
          case "tool_use" ->
              append(
                  text,
                  toolCall(
                      text(block, "name", at),
                      Responses.JSON.valueToTree(block.path("input")).toString()));
          case "tool_result" ->
              all.add(new PromptTokenizer.Message("tool", parts(block.get("content"), at)));
          case "thinking", "redacted_thinking" -> {
            // not sent back to the model's template
          }
          default ->
              throw ErrorReply.badRequest(
                  "'"
                      + at
                      + ".type' must be text, image, tool_use, tool_result or thinking (the"
                      + " simulator"
                      + " takes no other block), got '"
                      + type
                      + "'",
                  at + ".type");
        }
      }
      if (text.length() > 0) {
        all.add(new PromptTokenizer.Message(role.textValue(), text.toString()));
      }
    }
    List<JsonNode> tools = ToolTurns.messagesTools(root);
    String choice = ToolTurns.messagesChoice(root, tools);
    List<PromptTokenizer.Message> templated = ToolTurns.qwen(all, tools, java.util.Set.of());
    PromptTokenizer.Tokens tokens =
        images.tokens(tokenizer, PromptTokenizer.chatTemplate(templated));
    if (tokens.count() > config.contextLength()) {
      throw ErrorReply.exceedContext(tokens.count(), config.contextLength());
    }
    return new ParsedRequest(
        ServedEndpoint.MESSAGES,
        stream,
        true,
        maxTokens,
        tokens,
        null,
        null,
        false,
        ToolTurns.anthropicIds(
            ToolTurns.calls(
                tools, choice, ToolTurns.loops(templated), ToolTurns.promptHash(tokens))));
  }

  /**
   * A Messages {@code image} block's marker: its {@code source} must be {@code
   * {"type":"base64","media_type":"image/...","data":...}}.
   */
  private static String imageBlock(JsonNode block, String at, ImageParts images) {
    JsonNode source = block.path("source");
    if (!source.path("type").asText("").equals("base64")
        || !source.path("media_type").asText("").startsWith("image/")
        || !source.path("data").isTextual()) {
      throw ErrorReply.badRequest(
          "'"
              + at
              + ".source' must be {\"type\": \"base64\", \"media_type\": \"image/...\","
              + " \"data\": ...} (the simulator fetches no URL)",
          at + ".source");
    }
    return images.base64(source.get("data").textValue(), at + ".source.data");
  }

  private static void append(StringBuilder text, String part) {
    if (text.length() > 0) {
      text.append('\n');
    }
    text.append(part);
  }

  /** A completions prompt: a string, an array of one string, or an array of token ids. */
  private PromptTokenizer.Tokens completionTokens(JsonNode root) {
    JsonNode prompt = root.get("prompt");
    if (prompt == null || prompt.isNull()) {
      throw ErrorReply.badRequest("'prompt' is required", "prompt");
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

  private static ErrorReply promptShape(JsonNode prompt) {
    return ErrorReply.badRequest(
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
      throw ErrorReply.badRequest("'" + name + "' must be a boolean, got " + kind(value), name);
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
