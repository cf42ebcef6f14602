package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Anthropic's Messages API, {@code POST /v1/messages} (served by Anthropic, vLLM, SGLang and
 * llama.cpp).
 *
 * <p>Headers: {@code x-api-key} with the key, and always {@code anthropic-version: 2023-06-01}.
 * Body: <code>{"model":M,"system":S,"messages":[...],"stream":B,"max_tokens":N}</code> ({@code
 * max_tokens} is required by the API and always sent; {@code system} only when the history has
 * system messages, joined by blank lines), then {@code ignore_eos}, {@code temperature} when set
 * and the extra fields. Turns of the same role in a row make one message; a message of one text is
 * {@code "content":TEXT}, else a list of blocks: {@code {"type":"text","text"}}, an assistant's
 * {@code {"type":"tool_use","id","name","input":{...}}} (the call's arguments as a JSON object;
 * ones that are not, a call cut at the output limit, as {@link PartialJson} completes them) and a
 * user's {@code {"type":"tool_result","tool_use_id","content"}}.
 *
 * <p>Events (the {@code type} of each event's data):
 *
 * <ul>
 *   <li>{@code message_start}: the prompt's usage, prompt tokens = {@code input_tokens +
 *       cache_read_input_tokens + cache_creation_input_tokens}, cached tokens = {@code
 *       cache_read_input_tokens};
 *   <li>{@code content_block_delta}: {@code text_delta} (answer), {@code thinking_delta}
 *       (reasoning), {@code input_json_delta} (a tool call) are token-bearing; {@code
 *       signature_delta} and {@code citations_delta} carry nothing;
 *   <li>{@code message_delta}: {@code usage.output_tokens} and {@code delta.stop_reason} as the
 *       finish reason (and the prompt's counts again when it repeats them);
 *   <li>{@code message_stop}: the end of the stream ({@link StreamEvent.Kind#DONE});
 *   <li>{@code error}: {@link StreamEvent.Kind#ERROR} with {@code error.type} and {@code
 *       error.message};
 *   <li>{@code ping}, {@code content_block_start}, {@code content_block_stop}, unknown types: an
 *       event that carries nothing ({@code tool_use} blocks are assembled into {@link
 *       EventParser#toolCalls()});
 *   <li>data without a {@code type}, blank data, {@code [DONE]} and what is not JSON: as {@link
 *       StreamEvent#parse(byte[], int, int, boolean)} reads them.
 * </ul>
 */
final class MessagesDialect implements Dialect {

  static final MessagesDialect INSTANCE = new MessagesDialect();

  /** The API version sent in {@code anthropic-version}. */
  static final String VERSION = "2023-06-01";

  /** The body's output limit. */
  private static final String LIMIT_FIELD = "max_tokens";

  private static final List<String> RESERVED =
      List.of("model", "system", "messages", "stream", "max_tokens");

  private MessagesDialect() {}

  @Override
  public WireApi api() {
    return WireApi.MESSAGES;
  }

  @Override
  public Map<String, String> headers(String apiKey) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (apiKey != null) {
      headers.put("x-api-key", apiKey);
    }
    headers.put("anthropic-version", VERSION);
    return Collections.unmodifiableMap(headers);
  }

  @Override
  public void check(RequestSettings settings) {
    Bodies.checkExtra(WireApi.MESSAGES, settings, RESERVED);
  }

  @Override
  public String body(RequestSettings settings, String prompt) {
    return Bodies.promptBody(settings, prompt, LIMIT_FIELD, userMessage(prompt, null));
  }

  @Override
  public byte[] bodyBytes(RequestSettings settings, String prompt, byte[] promptJson) {
    return Bodies.promptBodyBytes(
        settings, prompt, LIMIT_FIELD, userMessage(prompt, promptJson), promptJson);
  }

  /** {@code "messages":[{"role":"user","content":PROMPT}]}. */
  private static RequestBodies.BodyWriter userMessage(String prompt, byte[] promptJson) {
    return g -> {
      g.writeArrayFieldStart("messages");
      g.writeStartObject();
      g.writeStringField("role", "user");
      Bodies.writePromptField(g, "content", prompt, promptJson);
      g.writeEndObject();
      g.writeEndArray();
    };
  }

  /**
   * {@inheritDoc}
   *
   * <p>The user message's {@code content} holds {@code
   * {"type":"image","source":{"type":"base64","media_type":"image/png","data":"..."}}} blocks
   * around {@code {"type":"text","text":PROMPT}}.
   */
  @Override
  public BodyParts body(
      RequestSettings settings, String prompt, io.github.gatlingllm.image.PromptImages images) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(images, "images");
    return RequestBodies.buildParts(
        (g, splice) -> {
          g.writeStartObject();
          g.writeStringField("model", settings.model());
          g.writeArrayFieldStart("messages");
          g.writeStartObject();
          g.writeStringField("role", "user");
          g.writeArrayFieldStart("content");
          for (io.github.gatlingllm.image.Image image : images.before()) {
            imageBlock(g, splice, image);
          }
          g.writeStartObject();
          g.writeStringField("type", "text");
          g.writeStringField("text", prompt);
          g.writeEndObject();
          for (io.github.gatlingllm.image.Image image : images.after()) {
            imageBlock(g, splice, image);
          }
          g.writeEndArray();
          g.writeEndObject();
          g.writeEndArray();
          Bodies.writeTail(g, settings, LIMIT_FIELD);
        });
  }

  private static void imageBlock(
      JsonGenerator g, RequestBodies.Splice splice, io.github.gatlingllm.image.Image image)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("type", "image");
    g.writeObjectFieldStart("source");
    g.writeStringField("type", "base64");
    g.writeStringField("media_type", image.format().mediaType());
    g.writeFieldName("data");
    splice.base64(g, image);
    g.writeEndObject();
    g.writeEndObject();
  }

  @Override
  public String body(RequestSettings settings, List<Turn> history) {
    return write(settings, history, null, null);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each tool as a Messages tool, {@code {"name","description","input_schema"}}; {@code
   * tool_choice} as {@code {"type":"auto"}}, {@code {"type":"any"}} for {@code required} or {@code
   * {"type":"none"}}. A call's arguments become {@code tool_use.input}, the JSON object they are
   * (or their start closed, {@link PartialJson}).
   */
  @Override
  public String agentBody(
      RequestSettings settings, List<Turn> history, JsonNode tools, String toolChoice) {
    return write(settings, history, tools, toolChoice);
  }

  private String write(
      RequestSettings settings, List<Turn> history, JsonNode tools, String toolChoice) {
    Objects.requireNonNull(settings, "settings");
    Bodies.requireTurns(history);
    StringBuilder system = null;
    List<List<Turn>> groups = new ArrayList<>();
    List<String> roles = new ArrayList<>();
    for (Turn t : history) {
      String role;
      if (t instanceof Turn.Message m) {
        if (m.role().equals("system")) {
          system = system == null ? new StringBuilder() : system.append("\n\n");
          system.append(m.text());
          continue;
        }
        role = m.role();
      } else {
        role = t instanceof Turn.ToolCall ? "assistant" : "user";
      }
      if (roles.isEmpty() || !roles.get(roles.size() - 1).equals(role)) {
        roles.add(role);
        groups.add(new ArrayList<>(2));
      }
      groups.get(groups.size() - 1).add(t);
    }
    if (groups.isEmpty()) {
      throw new IllegalArgumentException(
          "messages needs at least one user or assistant turn besides the system message");
    }
    List<JsonNode> inputs = new ArrayList<>();
    for (List<Turn> group : groups) {
      for (Turn t : group) {
        if (t instanceof Turn.ToolCall c) {
          inputs.add(arguments(c));
        }
      }
    }
    String systemText = system == null ? null : system.toString();
    return RequestBodies.build(
        g -> {
          g.writeStartObject();
          g.writeStringField("model", settings.model());
          if (systemText != null) {
            g.writeStringField("system", systemText);
          }
          g.writeArrayFieldStart("messages");
          int input = 0;
          for (int i = 0; i < groups.size(); i++) {
            List<Turn> group = groups.get(i);
            g.writeStartObject();
            g.writeStringField("role", roles.get(i));
            if (group.size() == 1 && group.get(0) instanceof Turn.Message m) {
              g.writeStringField("content", m.text());
            } else {
              g.writeArrayFieldStart("content");
              for (Turn t : group) {
                g.writeStartObject();
                if (t instanceof Turn.Message m) {
                  g.writeStringField("type", "text");
                  g.writeStringField("text", m.text());
                } else if (t instanceof Turn.ToolCall c) {
                  g.writeStringField("type", "tool_use");
                  g.writeStringField("id", c.id());
                  g.writeStringField("name", c.name());
                  g.writeFieldName("input");
                  Json.MAPPER.writeTree(g, inputs.get(input++));
                } else if (t instanceof Turn.ToolResult r) {
                  g.writeStringField("type", "tool_result");
                  g.writeStringField("tool_use_id", r.callId());
                  g.writeStringField("content", r.output());
                }
                g.writeEndObject();
              }
              g.writeEndArray();
            }
            g.writeEndObject();
          }
          g.writeEndArray();
          tools(g, tools, toolChoice);
          Bodies.writeTail(g, settings, LIMIT_FIELD);
        });
  }

  private static void tools(JsonGenerator g, JsonNode tools, String toolChoice) throws IOException {
    if (tools == null || tools.isEmpty()) {
      return;
    }
    g.writeArrayFieldStart("tools");
    for (JsonNode tool : tools) {
      JsonNode function = tool.path("function");
      g.writeStartObject();
      g.writeStringField("name", function.path("name").asText());
      if (function.has("description")) {
        g.writeStringField("description", function.get("description").asText());
      }
      g.writeFieldName("input_schema");
      if (function.has("parameters")) {
        Json.MAPPER.writeTree(g, function.get("parameters"));
      } else {
        g.writeStartObject();
        g.writeStringField("type", "object");
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    if (toolChoice != null) {
      g.writeObjectFieldStart("tool_choice");
      g.writeStringField("type", toolChoice.equals("required") ? "any" : toolChoice);
      g.writeEndObject();
    }
  }

  /**
   * A tool call's arguments as the JSON object {@code tool_use.input} needs: the object they are,
   * or, when they are not one (a reply cut at its limit mid-call), the object their start makes
   * once closed, as Anthropic's client libraries read a cut {@code partial_json} ({@link
   * PartialJson}); {@code {}} when blank or no object's start. The call is counted malformed where
   * its reply was recorded ({@code ToolCallAssembly#malformed}).
   */
  private static JsonNode arguments(Turn.ToolCall call) {
    return PartialJson.object(call.arguments());
  }

  @Override
  public EventParser parser(EventParser.Listener listener) {
    return new EventParser(new Decoder(), listener);
  }

  @Override
  public String terminalEvent() {
    return "message_stop";
  }

  @Override
  public StreamEvent parseResponse(String body) {
    return NonStreamed.messages(body);
  }

  /** Prompt tokens as Anthropic splits them: input + cache read + cache creation; null if none. */
  static Integer promptTokens(Integer input, Integer cacheRead, Integer cacheCreation) {
    if (input == null && cacheRead == null && cacheCreation == null) {
      return null;
    }
    long sum =
        (long) (input == null ? 0 : input)
            + (cacheRead == null ? 0 : cacheRead)
            + (cacheCreation == null ? 0 : cacheCreation);
    return sum > Integer.MAX_VALUE ? null : (int) sum;
  }

  /** One stream's events. */
  static final class Decoder extends TypedEventDecoder {

    private static final byte[] BLOCK_DELTA = DeltaScanner.bytes("content_block_delta");
    private static final byte[] TEXT_DELTA = DeltaScanner.bytes("text_delta");
    private static final byte[] THINKING_DELTA = DeltaScanner.bytes("thinking_delta");
    private static final byte[] SIGNATURE_DELTA = DeltaScanner.bytes("signature_delta");
    private static final byte[] PING = DeltaScanner.bytes("ping");

    private String toolId;
    private String toolName;
    private StringBuilder toolArguments;

    // the event being read
    private String deltaType;
    private int textChars;
    private String text;
    private String partialJson;
    private String stopReason;
    private String blockType;
    private String blockId;
    private String blockName;
    private boolean usageSeen;
    private Integer inputTokens;
    private Integer cacheRead;
    private Integer cacheCreation;
    private Integer outputTokens;

    @Override
    void decodeTyped(String type, EventParser.Listener out) {
      switch (type) {
        case "content_block_delta" -> {
          if (deltaType == null) {
            out.onEvent(Events.NOTHING);
            return;
          }
          switch (deltaType) {
            case "text_delta" -> out.onEvent(Events.content(textChars, text));
            case "thinking_delta" -> out.onEvent(Events.reasoning(textChars, text));
            case "input_json_delta" -> {
              if (toolArguments != null && partialJson != null) {
                toolArguments.append(partialJson);
              }
              out.onEvent(Events.TOOL_CALL);
            }
            default -> out.onEvent(Events.NOTHING);
          }
        }
        case "message_start" -> {
          Integer prompt = promptTokens(inputTokens, cacheRead, cacheCreation);
          out.onEvent(
              prompt == null && cacheRead == null
                  ? Events.NOTHING
                  : Events.usage(new Usage(prompt, null, cacheRead), null));
        }
        case "message_delta" -> {
          Integer prompt = promptTokens(inputTokens, cacheRead, cacheCreation);
          out.onEvent(
              Events.usage(
                  usageSeen ? new Usage(prompt, outputTokens, cacheRead) : null, stopReason));
        }
        case "message_stop" -> {
          terminal = true;
          out.onEvent(StreamEvent.DONE);
        }
        case "content_block_start" -> {
          if ("tool_use".equals(blockType)) {
            toolId = blockId;
            toolName = blockName;
            toolArguments = new StringBuilder();
          }
          out.onEvent(Events.NOTHING);
        }
        case "content_block_stop" -> {
          if (toolArguments != null) {
            if (toolId != null && toolName != null) {
              String args = toolArguments.length() == 0 ? "{}" : toolArguments.toString();
              addToolCall(new Turn.ToolCall(toolId, toolName, args));
            }
            toolArguments = null;
            toolId = null;
            toolName = null;
          }
          out.onEvent(Events.NOTHING);
        }
        case "error" -> out.onEvent(Events.error(error.message, error.type, null));
        default -> out.onEvent(Events.NOTHING);
      }
    }

    @Override
    StreamEvent fast() {
      if (scanner.typeIs(PING)) {
        return Events.NOTHING;
      }
      if (!scanner.typeIs(BLOCK_DELTA) || scanner.deltaTypeFrom < 0) {
        return null;
      }
      if (scanner.deltaTypeIs(TEXT_DELTA)) {
        return Events.content(scanner.deltaChars, null);
      }
      if (scanner.deltaTypeIs(THINKING_DELTA)) {
        return Events.reasoning(scanner.deltaChars, null);
      }
      return scanner.deltaTypeIs(SIGNATURE_DELTA) ? Events.NOTHING : null;
    }

    @Override
    void clear() {
      deltaType = null;
      textChars = 0;
      text = null;
      partialJson = null;
      stopReason = null;
      blockType = null;
      blockId = null;
      blockName = null;
      usageSeen = false;
      inputTokens = null;
      cacheRead = null;
      cacheCreation = null;
      outputTokens = null;
    }

    @Override
    void field(JsonParser p, String name, JsonToken t, boolean keepText) throws IOException {
      switch (name) {
        case "delta" -> {
          if (Events.object(p, t)) {
            readDelta(p, keepText);
          }
        }
        case "message" -> {
          if (Events.object(p, t)) {
            readMessage(p);
          }
        }
        case "usage" -> {
          if (Events.object(p, t)) {
            readUsage(p);
          }
        }
        case "content_block" -> {
          if (Events.object(p, t)) {
            readBlock(p);
          }
        }
        default -> p.skipChildren();
      }
    }

    private void readDelta(JsonParser p, boolean keepText) throws IOException {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "type" -> deltaType = Events.scalarText(p, t);
          case "text", "thinking" -> {
            if (t == JsonToken.VALUE_STRING) {
              textChars = p.getTextLength();
              if (textChars > 0 && (keepText || Events.hasThinkTag(p))) {
                text = p.getText();
              }
            } else {
              p.skipChildren();
            }
          }
          case "partial_json" -> partialJson = Events.scalarText(p, t);
          case "stop_reason" -> stopReason = Events.scalarText(p, t);
          default -> p.skipChildren();
        }
      }
    }

    private void readMessage(JsonParser p) throws IOException {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        if (!name.equals("usage")) {
          p.skipChildren();
        } else if (Events.object(p, t)) {
          readUsage(p);
        }
      }
    }

    private void readUsage(JsonParser p) throws IOException {
      usageSeen = true;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "input_tokens" -> inputTokens = Events.count(p, t);
          case "cache_read_input_tokens" -> cacheRead = Events.count(p, t);
          case "cache_creation_input_tokens" -> cacheCreation = Events.count(p, t);
          case "output_tokens" -> outputTokens = Events.count(p, t);
          default -> p.skipChildren();
        }
      }
    }

    private void readBlock(JsonParser p) throws IOException {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "type" -> blockType = Events.scalarText(p, t);
          case "id" -> blockId = Events.scalarText(p, t);
          case "name" -> blockName = Events.scalarText(p, t);
          default -> p.skipChildren();
        }
      }
    }
  }
}
