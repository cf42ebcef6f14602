package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.ChannelHandlerContext;

/**
 * A reply on Anthropic's Messages API, as Anthropic streams it: {@code message_start} (with the
 * prompt's usage: {@code input_tokens} the uncached part, {@code cache_read_input_tokens} the
 * cached part, {@code cache_creation_input_tokens} 0, as llama.cpp and vLLM report an automatic
 * prefix cache), {@code ping}, a {@code thinking} block ({@code thinking_delta}s, then a {@code
 * signature_delta}) when the reply reasons, a {@code text} block ({@code text_delta}s), each opened
 * with {@code content_block_start} and closed with {@code content_block_stop}; {@code
 * message_delta} with {@code stop_reason} ({@code max_tokens} at the limit, else {@code end_turn})
 * and {@code usage.output_tokens}; {@code message_stop}. A reply of tool calls (a request with
 * {@code tools}, {@link ToolTurns}) is one {@code tool_use} block a call ({@code id}, {@code name},
 * {@code input} {}), its input streamed as {@code input_json_delta}s, and ends with {@code
 * stop_reason: tool_use}, as Anthropic streams it. Not thread-safe.
 */
final class MessagesReply implements ApiReply {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The signature a thinking block ends with (Anthropic's is an opaque token to send back). */
  static final String SIGNATURE = "Z2F0bGluZy1sbG0tc2ltdWxhdG9y";

  private final boolean stream;
  private final String id;
  private final String model;
  private final int promptTokens;
  private final int cachedTokens;
  private boolean started;
  private int index = -1;
  private Boolean open;
  private StringBuilder thinking;
  private final StringBuilder answer = new StringBuilder();
  private EventTemplate thinkingDelta;
  private EventTemplate textDelta;
  private final java.util.List<String[]> calls = new java.util.ArrayList<>(2);
  private final java.util.List<StringBuilder> callInputs = new java.util.ArrayList<>(2);
  private boolean toolOpen;

  MessagesReply(boolean stream, String id, String model, int promptTokens, int cachedTokens) {
    this.stream = stream;
    this.id = id;
    this.model = model;
    this.promptTokens = promptTokens;
    this.cachedTokens = cachedTokens;
  }

  private static ObjectNode event(String type) {
    return NODES.objectNode().put("type", type);
  }

  private static void send(ChannelHandlerContext ctx, ObjectNode event) {
    Responses.sseEvent(ctx, event.get("type").textValue(), event);
  }

  private ObjectNode usage(int outputTokens) {
    ObjectNode usage = NODES.objectNode();
    usage.put("input_tokens", promptTokens - cachedTokens);
    usage.put("cache_creation_input_tokens", 0);
    usage.put("cache_read_input_tokens", cachedTokens);
    usage.put("output_tokens", outputTokens);
    return usage;
  }

  private ObjectNode message(String stopReason, int outputTokens) {
    ObjectNode message = NODES.objectNode();
    message.put("id", id);
    message.put("type", "message");
    message.put("role", "assistant");
    ArrayNode content = message.putArray("content");
    if (stopReason != null) {
      if (thinking != null) {
        content
            .addObject()
            .put("type", "thinking")
            .put("thinking", thinking.toString())
            .put("signature", SIGNATURE);
      }
      if (answer.length() > 0 || (thinking == null && calls.isEmpty())) {
        content.addObject().put("type", "text").put("text", answer.toString());
      }
      for (int i = 0; i < calls.size(); i++) {
        ObjectNode use =
            content
                .addObject()
                .put("type", "tool_use")
                .put("id", calls.get(i)[0])
                .put("name", calls.get(i)[1]);
        use.set("input", input(callInputs.get(i).toString()));
      }
    }
    message.put("model", model);
    message.put("stop_reason", stopReason);
    message.putNull("stop_sequence");
    message.set("usage", usage(outputTokens));
    return message;
  }

  private void start(ChannelHandlerContext ctx) {
    if (started) {
      return;
    }
    started = true;
    ObjectNode start = event("message_start");
    start.set("message", message(null, 1));
    send(ctx, start);
    send(ctx, event("ping"));
  }

  @Override
  public void chunk(ChannelHandlerContext ctx, boolean reasoning, String text) {
    if (reasoning) {
      if (thinking == null) {
        thinking = new StringBuilder();
      }
      thinking.append(text);
    } else {
      answer.append(text);
    }
    if (!stream) {
      return;
    }
    start(ctx);
    if (open == null || open != reasoning) {
      close(ctx);
      index++;
      open = reasoning;
      ObjectNode start = event("content_block_start");
      start.put("index", index);
      ObjectNode block = start.putObject("content_block");
      if (reasoning) {
        block.put("type", "thinking").put("thinking", "").put("signature", "");
      } else {
        block.put("type", "text").put("text", "");
      }
      send(ctx, start);
    }
    EventTemplate template = reasoning ? thinkingDelta : textDelta;
    if (template == null) {
      ObjectNode delta = event("content_block_delta");
      delta.put("index", index);
      delta
          .putObject("delta")
          .put("type", reasoning ? "thinking_delta" : "text_delta")
          .put(reasoning ? "thinking" : "text", EventTemplate.SLOT);
      template = EventTemplate.of("content_block_delta", delta);
      if (reasoning) {
        thinkingDelta = template;
      } else {
        textDelta = template;
      }
    }
    Responses.sseEvent(ctx, template.render(ctx.alloc(), text));
  }

  /** A call's input: its arguments as a JSON object, {} when they are not one (cut short). */
  private static com.fasterxml.jackson.databind.JsonNode input(String arguments) {
    try {
      com.fasterxml.jackson.databind.JsonNode node = Responses.JSON.readTree(arguments);
      return node != null && node.isObject() ? node : NODES.objectNode();
    } catch (java.io.IOException e) {
      return NODES.objectNode();
    }
  }

  @Override
  public void toolPiece(
      ChannelHandlerContext ctx, int call, String id, String name, boolean head, String args) {
    if (head) {
      calls.add(new String[] {id, name});
      callInputs.add(new StringBuilder());
    }
    callInputs.get(callInputs.size() - 1).append(args);
    if (!stream) {
      return;
    }
    start(ctx);
    if (head) {
      close(ctx);
      index++;
      toolOpen = true;
      ObjectNode start = event("content_block_start");
      start.put("index", index);
      ObjectNode block = start.putObject("content_block");
      block.put("type", "tool_use").put("id", id).put("name", name);
      block.putObject("input");
      send(ctx, start);
      return;
    }
    ObjectNode delta = event("content_block_delta");
    delta.put("index", index);
    delta.putObject("delta").put("type", "input_json_delta").put("partial_json", args);
    send(ctx, delta);
  }

  private void close(ChannelHandlerContext ctx) {
    if (toolOpen) {
      toolOpen = false;
      ObjectNode stop = event("content_block_stop");
      stop.put("index", index);
      send(ctx, stop);
      return;
    }
    if (open == null) {
      return;
    }
    if (open) {
      ObjectNode signature = event("content_block_delta");
      signature.put("index", index);
      signature.putObject("delta").put("type", "signature_delta").put("signature", SIGNATURE);
      send(ctx, signature);
    }
    ObjectNode stop = event("content_block_stop");
    stop.put("index", index);
    send(ctx, stop);
    open = null;
  }

  @Override
  public void finish(
      ChannelHandlerContext ctx, boolean length, int outputTokens, int reasoningTokens) {
    start(ctx);
    close(ctx);
    ObjectNode delta = event("message_delta");
    delta.putObject("delta").put("stop_reason", stopReason(length)).putNull("stop_sequence");
    delta.putObject("usage").put("output_tokens", outputTokens);
    send(ctx, delta);
    send(ctx, event("message_stop"));
  }

  @Override
  public ObjectNode body(boolean length, int outputTokens, int reasoningTokens) {
    return message(stopReason(length), outputTokens);
  }

  private String stopReason(boolean length) {
    return length ? "max_tokens" : calls.isEmpty() ? "end_turn" : "tool_use";
  }

  @Override
  public String answer() {
    return answer.toString();
  }
}
