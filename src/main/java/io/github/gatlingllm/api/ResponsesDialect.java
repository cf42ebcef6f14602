package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OpenAI's Responses API, {@code POST /v1/responses} (served by OpenAI, vLLM, SGLang and
 * llama.cpp).
 *
 * <p>Body: <code>{"model":M,"input":PROMPT,"stream":S,"max_output_tokens":N}</code> then {@code
 * ignore_eos}, {@code temperature} when set and the extra fields. A history is {@code input} as a
 * list of items: {@code {"type":"message","role":"system"|"user","content":TEXT}}, an assistant's
 * {@code {"type":"message","role":"assistant","content":[{"type":"output_text","text":TEXT}]}} (the
 * shape of an output item, which llama.cpp requires), {@code
 * {"type":"function_call","call_id","name","arguments"}} and {@code
 * {"type":"function_call_output","call_id","output"}}; with the history kept on the server, {@code
 * previous_response_id} and only the new items.
 *
 * <p>Events (the {@code type} of each event's data; {@code event:} lines are not needed):
 *
 * <ul>
 *   <li>token-bearing: {@code response.output_text.delta} and {@code response.refusal.delta}
 *       (answer), {@code response.reasoning_text.delta} (vLLM) and {@code
 *       response.reasoning_summary_text.delta} (OpenAI) (reasoning), {@code
 *       response.function_call_arguments.delta} (a tool call);
 *   <li>{@code response.completed} and {@code response.incomplete}: the usage ({@code
 *       input_tokens}, {@code input_tokens_details.cached_tokens}, {@code output_tokens}, {@code
 *       output_tokens_details.reasoning_tokens}) and the finish reason (the response's {@code
 *       status}, or {@code incomplete_details.reason} such as {@code max_output_tokens}), then the
 *       end of the stream ({@link StreamEvent.Kind#DONE});
 *   <li>{@code response.failed} ({@code response.error}) and {@code error} (top-level {@code
 *       code}/{@code message}, or an {@code error} object): {@link StreamEvent.Kind#ERROR};
 *   <li>everything else ({@code response.created}, {@code response.in_progress}, {@code *.added},
 *       {@code *.done}, unknown types): an event that carries nothing; {@code response.created}
 *       gives the {@link EventParser#responseId()}, and a {@code function_call} item's {@code
 *       response.output_item.done} a {@link EventParser#toolCalls()} entry;
 *   <li>data without a {@code type}, blank data, {@code [DONE]} and what is not JSON: as {@link
 *       StreamEvent#parse(byte[], int, int, boolean)} reads them.
 * </ul>
 */
final class ResponsesDialect implements Dialect {

  static final ResponsesDialect INSTANCE = new ResponsesDialect();

  /** The body's output limit. */
  private static final String LIMIT_FIELD = "max_output_tokens";

  private static final List<String> RESERVED =
      List.of("model", "input", "stream", "max_output_tokens", "previous_response_id");

  private ResponsesDialect() {}

  @Override
  public WireApi api() {
    return WireApi.RESPONSES;
  }

  @Override
  public Map<String, String> headers(String apiKey) {
    return apiKey == null ? Map.of() : Map.of("Authorization", "Bearer " + apiKey);
  }

  @Override
  public void check(RequestSettings settings) {
    Bodies.checkExtra(WireApi.RESPONSES, settings, RESERVED);
  }

  @Override
  public String body(RequestSettings settings, String prompt) {
    return Bodies.promptBody(
        settings, prompt, LIMIT_FIELD, g -> Bodies.writePromptField(g, "input", prompt, null));
  }

  @Override
  public byte[] bodyBytes(RequestSettings settings, String prompt, byte[] promptJson) {
    return Bodies.promptBodyBytes(
        settings,
        prompt,
        LIMIT_FIELD,
        g -> Bodies.writePromptField(g, "input", prompt, promptJson),
        promptJson);
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code input} is one user message whose {@code content} holds {@code
   * {"type":"input_image","image_url":"data:..."}} items around {@code
   * {"type":"input_text","text":PROMPT}}.
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
          g.writeArrayFieldStart("input");
          g.writeStartObject();
          g.writeStringField("type", "message");
          g.writeStringField("role", "user");
          g.writeArrayFieldStart("content");
          for (io.github.gatlingllm.image.Image image : images.before()) {
            inputImage(g, splice, image);
          }
          g.writeStartObject();
          g.writeStringField("type", "input_text");
          g.writeStringField("text", prompt);
          g.writeEndObject();
          for (io.github.gatlingllm.image.Image image : images.after()) {
            inputImage(g, splice, image);
          }
          g.writeEndArray();
          g.writeEndObject();
          g.writeEndArray();
          Bodies.writeTail(g, settings, LIMIT_FIELD);
        });
  }

  private static void inputImage(
      JsonGenerator g, RequestBodies.Splice splice, io.github.gatlingllm.image.Image image)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("type", "input_image");
    g.writeFieldName("image_url");
    splice.dataUri(g, image);
    g.writeEndObject();
  }

  @Override
  public String body(RequestSettings settings, List<Turn> history) {
    Objects.requireNonNull(settings, "settings");
    Bodies.requireTurns(history);
    return RequestBodies.build(g -> items(g, settings, history, null, null, null));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each tool as a Responses function tool, {@code
   * {"type":"function","name","description","parameters"}} (flat, not under {@code function}), and
   * {@code tool_choice} as the string it is.
   */
  @Override
  public String agentBody(
      RequestSettings settings, List<Turn> history, JsonNode tools, String toolChoice) {
    Objects.requireNonNull(settings, "settings");
    Bodies.requireTurns(history);
    return RequestBodies.build(g -> items(g, settings, history, null, tools, toolChoice));
  }

  @Override
  public boolean keepsHistoryOnServer() {
    return true;
  }

  @Override
  public String body(RequestSettings settings, List<Turn> newTurns, String previousResponseId) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(previousResponseId, "previousResponseId");
    Bodies.requireTurns(newTurns);
    return RequestBodies.build(g -> items(g, settings, newTurns, previousResponseId, null, null));
  }

  @Override
  public String agentBody(
      RequestSettings settings,
      List<Turn> newTurns,
      JsonNode tools,
      String toolChoice,
      String previousResponseId) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(previousResponseId, "previousResponseId");
    Bodies.requireTurns(newTurns);
    return RequestBodies.build(
        g -> items(g, settings, newTurns, previousResponseId, tools, toolChoice));
  }

  @Override
  public String responseId(String body) {
    return NonStreamed.responseId(body);
  }

  private static void items(
      JsonGenerator g,
      RequestSettings settings,
      List<Turn> turns,
      String previous,
      JsonNode tools,
      String toolChoice)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("model", settings.model());
    if (previous != null) {
      g.writeStringField("previous_response_id", previous);
    }
    g.writeArrayFieldStart("input");
    for (Turn t : turns) {
      g.writeStartObject();
      if (t instanceof Turn.Message m) {
        g.writeStringField("type", "message");
        g.writeStringField("role", m.role());
        if (m.role().equals("assistant")) {
          g.writeArrayFieldStart("content");
          g.writeStartObject();
          g.writeStringField("type", "output_text");
          g.writeStringField("text", m.text());
          g.writeEndObject();
          g.writeEndArray();
        } else {
          g.writeStringField("content", m.text());
        }
      } else if (t instanceof Turn.ToolCall c) {
        g.writeStringField("type", "function_call");
        g.writeStringField("call_id", c.id());
        g.writeStringField("name", c.name());
        g.writeStringField("arguments", c.arguments());
      } else if (t instanceof Turn.ToolResult r) {
        g.writeStringField("type", "function_call_output");
        g.writeStringField("call_id", r.callId());
        g.writeStringField("output", r.output());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    if (tools != null && !tools.isEmpty()) {
      g.writeArrayFieldStart("tools");
      for (JsonNode tool : tools) {
        JsonNode function = tool.path("function");
        g.writeStartObject();
        g.writeStringField("type", "function");
        g.writeStringField("name", function.path("name").asText());
        if (function.has("description")) {
          g.writeStringField("description", function.get("description").asText());
        }
        if (function.has("parameters")) {
          g.writeFieldName("parameters");
          Json.MAPPER.writeTree(g, function.get("parameters"));
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      if (toolChoice != null) {
        g.writeStringField("tool_choice", toolChoice);
      }
    }
    Bodies.writeTail(g, settings, LIMIT_FIELD);
  }

  @Override
  public EventParser parser(EventParser.Listener listener) {
    return new EventParser(new Decoder(), listener);
  }

  @Override
  public String terminalEvent() {
    return "response.completed";
  }

  @Override
  public StreamEvent parseResponse(String body) {
    return NonStreamed.responses(body);
  }

  /** One stream's events. */
  static final class Decoder extends TypedEventDecoder {

    private static final byte[][] CONTENT =
        bytesOf("response.output_text.delta", "response.refusal.delta");
    private static final byte[][] REASONING =
        bytesOf("response.reasoning_text.delta", "response.reasoning_summary_text.delta");
    private static final byte[] TOOL = DeltaScanner.bytes("response.function_call_arguments.delta");

    /** Events that carry nothing the decoder keeps: read by the scanner and dropped. */
    private static final byte[][] NOTHING =
        bytesOf(
            "response.in_progress",
            "response.output_item.added",
            "response.content_part.added",
            "response.content_part.done",
            "response.output_text.done",
            "response.refusal.done",
            "response.reasoning_text.done",
            "response.reasoning_summary_text.done",
            "response.reasoning_summary_part.added",
            "response.reasoning_summary_part.done",
            "response.reasoning_part.added",
            "response.reasoning_part.done",
            "response.function_call_arguments.done");

    private String responseId;

    // the event being read
    private int deltaChars;
    private String deltaText;
    private String status;
    private String incompleteReason;
    private Integer inputTokens;
    private Integer cachedTokens;
    private Integer outputTokens;
    private Integer reasoningTokens;
    private String itemType;
    private String itemCallId;
    private String itemName;
    private String itemArguments;
    private String createdId;

    @Override
    String responseId() {
      return responseId;
    }

    @Override
    void decodeTyped(String type, EventParser.Listener out) {
      switch (type) {
        case "response.output_text.delta", "response.refusal.delta" ->
            out.onEvent(Events.content(deltaChars, deltaText));
        case "response.reasoning_text.delta", "response.reasoning_summary_text.delta" ->
            out.onEvent(Events.reasoning(deltaChars, deltaText));
        case "response.function_call_arguments.delta" -> out.onEvent(Events.TOOL_CALL);
        case "response.completed", "response.incomplete" -> {
          terminal = true;
          String finish =
              incompleteReason != null
                  ? incompleteReason
                  : status != null
                      ? status
                      : type.equals("response.completed") ? "completed" : "incomplete";
          out.onEvent(Events.usage(usage(), finish));
          out.onEvent(StreamEvent.DONE);
        }
        case "response.failed" -> {
          terminal = true;
          out.onEvent(Events.error(error.message, "response.failed", error.code));
        }
        case "error" -> out.onEvent(Events.error(error.message, error.type, error.code));
        default -> {
          if (type.equals("response.created") && responseId == null) {
            // kept from response.created only: the id a later request names
            responseId = createdId;
          }
          if (type.equals("response.output_item.done")
              && "function_call".equals(itemType)
              && itemCallId != null
              && itemName != null) {
            addToolCall(
                new Turn.ToolCall(
                    itemCallId, itemName, itemArguments == null ? "" : itemArguments));
          }
          out.onEvent(Events.NOTHING);
        }
      }
    }

    @Override
    StreamEvent fast() {
      for (byte[] t : CONTENT) {
        if (scanner.typeIs(t)) {
          return scanner.deltaTypeFrom < 0 ? Events.content(scanner.deltaChars, null) : null;
        }
      }
      for (byte[] t : REASONING) {
        if (scanner.typeIs(t)) {
          return scanner.deltaTypeFrom < 0 ? Events.reasoning(scanner.deltaChars, null) : null;
        }
      }
      if (scanner.typeIs(TOOL)) {
        return Events.TOOL_CALL;
      }
      for (byte[] t : NOTHING) {
        if (scanner.typeIs(t)) {
          return Events.NOTHING;
        }
      }
      return null;
    }

    private static byte[][] bytesOf(String... names) {
      byte[][] out = new byte[names.length][];
      for (int k = 0; k < names.length; k++) {
        out[k] = DeltaScanner.bytes(names[k]);
      }
      return out;
    }

    private Usage usage() {
      return inputTokens == null
              && outputTokens == null
              && cachedTokens == null
              && reasoningTokens == null
          ? null
          : new Usage(inputTokens, outputTokens, cachedTokens, reasoningTokens);
    }

    @Override
    void clear() {
      deltaChars = 0;
      deltaText = null;
      status = null;
      incompleteReason = null;
      inputTokens = null;
      cachedTokens = null;
      outputTokens = null;
      reasoningTokens = null;
      itemType = null;
      itemCallId = null;
      itemName = null;
      itemArguments = null;
      createdId = null;
    }

    @Override
    void field(JsonParser p, String name, JsonToken t, boolean keepText) throws IOException {
      switch (name) {
        case "delta" -> {
          if (t == JsonToken.VALUE_STRING) {
            deltaChars = p.getTextLength();
            if (deltaChars > 0 && (keepText || Events.hasThinkTag(p))) {
              deltaText = p.getText();
            }
          } else {
            p.skipChildren();
          }
        }
        case "response" -> {
          if (Events.object(p, t)) {
            readResponse(p);
          }
        }
        case "item" -> {
          if (Events.object(p, t)) {
            readItem(p);
          }
        }
        case "message" -> error.message = Events.scalarText(p, t);
        case "code" -> error.code = Events.scalarText(p, t);
        default -> p.skipChildren();
      }
    }

    private void readResponse(JsonParser p) throws IOException {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "id" -> createdId = Events.scalarText(p, t);
          case "status" -> status = Events.scalarText(p, t);
          case "usage" -> {
            if (Events.object(p, t)) {
              readUsage(p);
            }
          }
          case "error" -> {
            if (Events.object(p, t)) {
              error.readObject(p);
            }
          }
          case "incomplete_details" -> {
            if (Events.object(p, t)) {
              while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (field.equals("reason")) {
                  incompleteReason = Events.scalarText(p, v);
                } else {
                  p.skipChildren();
                }
              }
            }
          }
          default -> p.skipChildren();
        }
      }
    }

    private void readUsage(JsonParser p) throws IOException {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "input_tokens" -> inputTokens = Events.count(p, t);
          case "output_tokens" -> outputTokens = Events.count(p, t);
          case "input_tokens_details" ->
              cachedTokens = Events.countIn(p, t, "cached_tokens", cachedTokens);
          case "output_tokens_details" ->
              reasoningTokens = Events.countIn(p, t, "reasoning_tokens", reasoningTokens);
          default -> p.skipChildren();
        }
      }
    }

    private void readItem(JsonParser p) throws IOException {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "type" -> itemType = Events.scalarText(p, t);
          case "call_id" -> itemCallId = Events.scalarText(p, t);
          case "name" -> itemName = Events.scalarText(p, t);
          case "arguments" -> itemArguments = Events.scalarText(p, t);
          default -> p.skipChildren();
        }
      }
    }
  }
}
