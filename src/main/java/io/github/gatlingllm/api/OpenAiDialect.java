package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OpenAI's chat completions and completions: the bodies of {@link RequestBodies}, the events of
 * {@link StreamEvent#parse(byte[], int, int, boolean)} (its fast path included), {@code [DONE]} at
 * the end. A chat history's tool calls are an assistant message's {@code tool_calls} ({@code
 * {"id","type":"function","function":{"name","arguments"}}}) and its tool results {@code
 * {"role":"tool","tool_call_id","content"}} messages; completions take a history of messages only,
 * as one transcript ({@link ChatMessage#transcript}).
 */
final class OpenAiDialect implements Dialect {

  static final OpenAiDialect CHAT = new OpenAiDialect(WireApi.CHAT);
  static final OpenAiDialect COMPLETIONS = new OpenAiDialect(WireApi.COMPLETIONS);

  private final WireApi api;

  private OpenAiDialect(WireApi api) {
    this.api = api;
  }

  @Override
  public WireApi api() {
    return api;
  }

  @Override
  public Map<String, String> headers(String apiKey) {
    return apiKey == null ? Map.of() : Map.of("Authorization", "Bearer " + apiKey);
  }

  @Override
  public void check(RequestSettings settings) {
    // RequestSettings checks its extraBody against these APIs' fields when it is made.
    Objects.requireNonNull(settings, "settings");
  }

  @Override
  public String body(RequestSettings settings, String prompt) {
    Objects.requireNonNull(prompt, "prompt");
    return RequestBodies.body(forEndpoint(settings), prompt);
  }

  @Override
  public byte[] bodyBytes(RequestSettings settings, String prompt, byte[] promptJson) {
    Objects.requireNonNull(prompt, "prompt");
    return RequestBodies.bodyBytes(forEndpoint(settings), prompt, promptJson);
  }

  @Override
  public BodyParts body(
      RequestSettings settings, String prompt, io.github.gatlingllm.image.PromptImages images) {
    if (api == WireApi.COMPLETIONS) {
      return Dialect.super.body(settings, prompt, images);
    }
    return RequestBodies.imageBody(forEndpoint(settings), prompt, images);
  }

  @Override
  public String body(RequestSettings settings, List<Turn> history) {
    Objects.requireNonNull(settings, "settings");
    Bodies.requireTurns(history);
    boolean tools = false;
    for (Turn t : history) {
      tools |= !(t instanceof Turn.Message);
    }
    if (!tools) {
      List<ChatMessage> messages = new ArrayList<>(history.size());
      for (Turn t : history) {
        Turn.Message m = (Turn.Message) t;
        messages.add(new ChatMessage(m.role(), m.text()));
      }
      return RequestBodies.body(forEndpoint(settings), messages);
    }
    if (api == WireApi.COMPLETIONS) {
      throw new IllegalArgumentException(
          "completions has no tool calls: a history with tool calls or results needs chat,"
              + " responses or messages");
    }
    RequestSettings s = forEndpoint(settings);
    return RequestBodies.build(g -> writeChat(g, s, history, null, null));
  }

  /**
   * Chat's agent turn: the history as {@code messages} (an assistant reply's calls as its {@code
   * tool_calls}, {@code content} null when it had no text; one {@code tool} message a result), then
   * {@code tools} and {@code tool_choice}. Completions takes no tools.
   */
  @Override
  public String agentBody(
      RequestSettings settings, List<Turn> history, JsonNode tools, String toolChoice) {
    if (api == WireApi.COMPLETIONS) {
      return Dialect.super.agentBody(settings, history, tools, toolChoice);
    }
    Objects.requireNonNull(settings, "settings");
    Bodies.requireTurns(history);
    RequestSettings s = forEndpoint(settings);
    return RequestBodies.build(g -> writeChat(g, s, history, tools, toolChoice));
  }

  private static void writeChat(
      JsonGenerator g, RequestSettings s, List<Turn> history, JsonNode tools, String toolChoice)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("model", s.model());
    g.writeArrayFieldStart("messages");
    boolean inCalls = false;
    for (int i = 0; i < history.size(); i++) {
      Turn t = history.get(i);
      if (t instanceof Turn.ToolCall call) {
        if (!inCalls) {
          g.writeStartObject();
          g.writeStringField("role", "assistant");
          g.writeNullField("content");
          g.writeArrayFieldStart("tool_calls");
          inCalls = true;
        }
        g.writeStartObject();
        g.writeStringField("id", call.id());
        g.writeStringField("type", "function");
        g.writeObjectFieldStart("function");
        g.writeStringField("name", call.name());
        g.writeStringField("arguments", call.arguments());
        g.writeEndObject();
        g.writeEndObject();
        continue;
      }
      if (inCalls) {
        g.writeEndArray();
        g.writeEndObject();
        inCalls = false;
      }
      if (t instanceof Turn.Message m) {
        boolean callsFollow =
            m.role().equals("assistant")
                && i + 1 < history.size()
                && history.get(i + 1) instanceof Turn.ToolCall;
        g.writeStartObject();
        g.writeStringField("role", m.role());
        g.writeStringField("content", m.text());
        if (callsFollow) {
          g.writeArrayFieldStart("tool_calls");
          inCalls = true;
        } else {
          g.writeEndObject();
        }
      } else if (t instanceof Turn.ToolResult r) {
        g.writeStartObject();
        g.writeStringField("role", "tool");
        g.writeStringField("tool_call_id", r.callId());
        g.writeStringField("content", r.output());
        g.writeEndObject();
      }
    }
    if (inCalls) {
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    if (tools != null && !tools.isEmpty()) {
      g.writeFieldName("tools");
      Json.MAPPER.writeTree(g, tools);
      if (toolChoice != null) {
        g.writeStringField("tool_choice", toolChoice);
      }
    }
    g.writeBooleanField("stream", s.stream());
    if (s.sendsStreamOptions()) {
      g.writeObjectFieldStart("stream_options");
      g.writeBooleanField("include_usage", true);
      g.writeEndObject();
    }
    g.writeNumberField(s.maxTokensField(), s.maxTokens());
    Bodies.writeOptional(g, s);
    g.writeEndObject();
  }

  private RequestSettings forEndpoint(RequestSettings s) {
    Objects.requireNonNull(s, "settings");
    if (s.endpoint() == api) {
      return s;
    }
    return new RequestSettings(
        api,
        s.model(),
        s.maxTokens(),
        s.maxTokensField(),
        s.stream(),
        s.includeUsage(),
        s.ignoreEos(),
        s.temperature(),
        s.extraBody());
  }

  @Override
  public EventParser parser(EventParser.Listener listener) {
    return new EventParser(new ChatDecoder(), listener);
  }

  @Override
  public StreamEvent parseResponse(String body) {
    return StreamEvent.parseResponse(body);
  }

  @Override
  public String terminalEvent() {
    return "[DONE]";
  }

  /** Every payload through {@link StreamEvent#parse(byte[], int, int, boolean)}. */
  private static final class ChatDecoder extends EventParser.Decoder {
    private boolean done;

    @Override
    void decode(byte[] data, int from, int to, boolean keepText, EventParser.Listener out) {
      StreamEvent event = StreamEvent.parse(data, from, to, keepText);
      if (event.kind() == StreamEvent.Kind.DONE) {
        done = true;
      }
      out.onEvent(event);
    }

    @Override
    boolean terminal() {
      return done;
    }
  }
}
