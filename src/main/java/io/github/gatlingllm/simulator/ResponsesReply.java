package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.ChannelHandlerContext;

/**
 * A reply on OpenAI's Responses API, as OpenAI streams it: {@code response.created}, {@code
 * response.in_progress}; a {@code reasoning} output item whose text streams as {@code
 * response.reasoning_summary_text.delta} (when the request asked for {@code reasoning.summary}, as
 * OpenAI) or {@code response.reasoning_text.delta} (vLLM); a {@code message} item whose text
 * streams as {@code response.output_text.delta}, each item opened with {@code *.added} and closed
 * with {@code *.done}; then {@code response.completed}, or {@code response.incomplete} with {@code
 * incomplete_details.reason: max_output_tokens} when the reply reached its limit, carrying {@code
 * usage} ({@code input_tokens}, {@code input_tokens_details.cached_tokens}, {@code output_tokens},
 * {@code output_tokens_details.reasoning_tokens}). A reply of tool calls (a request with {@code
 * tools}, {@link ToolTurns}) is one {@code function_call} item a call ({@code id}, {@code call_id},
 * {@code name}), its arguments streamed as {@code response.function_call_arguments.delta}, closed
 * by {@code response.function_call_arguments.done} and {@code response.output_item.done} with the
 * whole arguments, as OpenAI streams them. No {@code [DONE]}. Not thread-safe.
 */
final class ResponsesReply implements ApiReply {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private enum Phase {
    NONE,
    REASONING,
    ANSWER,
    TOOL
  }

  /** One function_call item of the reply. */
  private record Call(String itemId, String callId, String name, StringBuilder arguments) {}

  private final boolean stream;
  private final String id;
  private final String reasoningId;
  private final String messageId;
  private final long created;
  private final String model;
  private final boolean summary;
  private final int promptTokens;
  private final int cachedTokens;
  private boolean started;
  private Phase phase = Phase.NONE;
  private int outputIndex = -1;
  private StringBuilder reasoning;
  private final StringBuilder answer = new StringBuilder();
  private EventTemplate reasoningDelta;
  private EventTemplate answerDelta;
  private final java.util.List<Call> calls = new java.util.ArrayList<>(2);
  private final long requestId;

  ResponsesReply(
      boolean stream,
      long requestId,
      String id,
      long created,
      String model,
      boolean summary,
      int promptTokens,
      int cachedTokens) {
    this.stream = stream;
    this.requestId = requestId;
    this.id = id;
    this.reasoningId = "rs_" + requestId;
    this.messageId = "msg_" + requestId;
    this.created = created;
    this.model = model;
    this.summary = summary;
    this.promptTokens = promptTokens;
    this.cachedTokens = cachedTokens;
  }

  private ObjectNode event(String type) {
    return NODES.objectNode().put("type", type);
  }

  private void send(ChannelHandlerContext ctx, ObjectNode event) {
    Responses.sseEvent(ctx, event.get("type").textValue(), event);
  }

  private void start(ChannelHandlerContext ctx) {
    if (started) {
      return;
    }
    started = true;
    ObjectNode response = response("in_progress");
    response.putArray("output");
    response.putNull("usage");
    ObjectNode created = event("response.created");
    created.set("response", response);
    send(ctx, created);
    ObjectNode inProgress = event("response.in_progress");
    inProgress.set("response", response);
    send(ctx, inProgress);
  }

  private ObjectNode response(String status) {
    ObjectNode response = NODES.objectNode();
    response.put("id", id);
    response.put("object", "response");
    response.put("created_at", created);
    response.put("status", status);
    response.put("model", model);
    return response;
  }

  @Override
  public void chunk(ChannelHandlerContext ctx, boolean reasoningChunk, String text) {
    if (reasoningChunk) {
      if (reasoning == null) {
        reasoning = new StringBuilder();
      }
      reasoning.append(text);
    } else {
      answer.append(text);
    }
    if (!stream) {
      return;
    }
    start(ctx);
    Phase wanted = reasoningChunk ? Phase.REASONING : Phase.ANSWER;
    if (phase != wanted) {
      close(ctx);
      open(ctx, wanted);
    }
    if (reasoningChunk) {
      if (reasoningDelta == null) {
        String type =
            summary ? "response.reasoning_summary_text.delta" : "response.reasoning_text.delta";
        ObjectNode delta = event(type);
        delta.put("item_id", reasoningId);
        delta.put("output_index", outputIndex);
        delta.put(summary ? "summary_index" : "content_index", 0);
        delta.put("delta", EventTemplate.SLOT);
        reasoningDelta = EventTemplate.of(type, delta);
      }
      Responses.sseEvent(ctx, reasoningDelta.render(ctx.alloc(), text));
    } else {
      if (answerDelta == null) {
        ObjectNode delta = event("response.output_text.delta");
        delta.put("item_id", messageId);
        delta.put("output_index", outputIndex);
        delta.put("content_index", 0);
        delta.put("delta", EventTemplate.SLOT);
        delta.putArray("logprobs");
        answerDelta = EventTemplate.of("response.output_text.delta", delta);
      }
      Responses.sseEvent(ctx, answerDelta.render(ctx.alloc(), text));
    }
  }

  private void open(ChannelHandlerContext ctx, Phase wanted) {
    phase = wanted;
    outputIndex++;
    ObjectNode added = event("response.output_item.added");
    added.put("output_index", outputIndex);
    if (wanted == Phase.REASONING) {
      ObjectNode item = added.putObject("item");
      item.put("id", reasoningId);
      item.put("type", "reasoning");
      item.putArray("summary");
      send(ctx, added);
      if (summary) {
        ObjectNode part = event("response.reasoning_summary_part.added");
        part.put("item_id", reasoningId);
        part.put("output_index", outputIndex);
        part.put("summary_index", 0);
        part.putObject("part").put("type", "summary_text").put("text", "");
        send(ctx, part);
      }
    } else {
      ObjectNode item = added.putObject("item");
      item.put("id", messageId);
      item.put("type", "message");
      item.put("status", "in_progress");
      item.put("role", "assistant");
      item.putArray("content");
      send(ctx, added);
      ObjectNode part = event("response.content_part.added");
      part.put("item_id", messageId);
      part.put("output_index", outputIndex);
      part.put("content_index", 0);
      outputText(part.putObject("part"), "");
      send(ctx, part);
    }
  }

  private void close(ChannelHandlerContext ctx) {
    if (phase == Phase.REASONING) {
      String text = reasoning.toString();
      if (summary) {
        ObjectNode done = event("response.reasoning_summary_text.done");
        done.put("item_id", reasoningId);
        done.put("output_index", outputIndex);
        done.put("summary_index", 0);
        done.put("text", text);
        send(ctx, done);
        ObjectNode part = event("response.reasoning_summary_part.done");
        part.put("item_id", reasoningId);
        part.put("output_index", outputIndex);
        part.put("summary_index", 0);
        part.putObject("part").put("type", "summary_text").put("text", text);
        send(ctx, part);
      } else {
        ObjectNode done = event("response.reasoning_text.done");
        done.put("item_id", reasoningId);
        done.put("output_index", outputIndex);
        done.put("content_index", 0);
        done.put("text", text);
        send(ctx, done);
      }
      ObjectNode itemDone = event("response.output_item.done");
      itemDone.put("output_index", outputIndex);
      itemDone.set("item", reasoningItem());
      send(ctx, itemDone);
    } else if (phase == Phase.ANSWER) {
      String text = answer.toString();
      ObjectNode done = event("response.output_text.done");
      done.put("item_id", messageId);
      done.put("output_index", outputIndex);
      done.put("content_index", 0);
      done.put("text", text);
      send(ctx, done);
      ObjectNode part = event("response.content_part.done");
      part.put("item_id", messageId);
      part.put("output_index", outputIndex);
      part.put("content_index", 0);
      outputText(part.putObject("part"), text);
      send(ctx, part);
      ObjectNode itemDone = event("response.output_item.done");
      itemDone.put("output_index", outputIndex);
      itemDone.set("item", messageItem());
      send(ctx, itemDone);
    } else if (phase == Phase.TOOL) {
      Call c = calls.get(calls.size() - 1);
      ObjectNode done = event("response.function_call_arguments.done");
      done.put("item_id", c.itemId());
      done.put("output_index", outputIndex);
      done.put("arguments", c.arguments().toString());
      send(ctx, done);
      ObjectNode itemDone = event("response.output_item.done");
      itemDone.put("output_index", outputIndex);
      itemDone.set("item", functionCall(c, "completed"));
      send(ctx, itemDone);
    }
    phase = Phase.NONE;
  }

  @Override
  public void toolPiece(
      ChannelHandlerContext ctx, int call, String callId, String name, boolean head, String args) {
    if (head && stream) {
      start(ctx);
      close(ctx);
    }
    if (head) {
      calls.add(new Call("fc_" + requestId + "_" + call, callId, name, new StringBuilder()));
    }
    Call c = calls.get(calls.size() - 1);
    c.arguments().append(args);
    if (!stream) {
      return;
    }
    if (head) {
      phase = Phase.TOOL;
      outputIndex++;
      ObjectNode added = event("response.output_item.added");
      added.put("output_index", outputIndex);
      added.set("item", functionCall(c, "in_progress"));
      send(ctx, added);
      return;
    }
    ObjectNode delta = event("response.function_call_arguments.delta");
    delta.put("item_id", c.itemId());
    delta.put("output_index", outputIndex);
    delta.put("delta", args);
    send(ctx, delta);
  }

  private static ObjectNode functionCall(Call c, String status) {
    ObjectNode item = NODES.objectNode();
    item.put("id", c.itemId());
    item.put("type", "function_call");
    item.put("status", status);
    item.put("arguments", status.equals("in_progress") ? "" : c.arguments().toString());
    item.put("call_id", c.callId());
    item.put("name", c.name());
    return item;
  }

  private static void outputText(ObjectNode part, String text) {
    part.put("type", "output_text");
    part.putArray("annotations");
    part.put("text", text);
  }

  private ObjectNode reasoningItem() {
    ObjectNode item = NODES.objectNode();
    item.put("id", reasoningId);
    item.put("type", "reasoning");
    ArrayNode summaryParts = item.putArray("summary");
    if (summary) {
      summaryParts.addObject().put("type", "summary_text").put("text", reasoning.toString());
    } else {
      item.putArray("content")
          .addObject()
          .put("type", "reasoning_text")
          .put("text", reasoning.toString());
    }
    return item;
  }

  private ObjectNode messageItem() {
    ObjectNode item = NODES.objectNode();
    item.put("id", messageId);
    item.put("type", "message");
    item.put("status", "completed");
    item.put("role", "assistant");
    outputText(item.putArray("content").addObject(), answer.toString());
    return item;
  }

  private ObjectNode whole(boolean length, int outputTokens, int reasoningTokens) {
    ObjectNode response = response(length ? "incomplete" : "completed");
    if (length) {
      response.putObject("incomplete_details").put("reason", "max_output_tokens");
    } else {
      response.putNull("incomplete_details");
    }
    response.putNull("error");
    ArrayNode output = response.putArray("output");
    if (reasoning != null) {
      output.add(reasoningItem());
    }
    if (answer.length() > 0 || (reasoning == null && calls.isEmpty())) {
      output.add(messageItem());
    }
    for (Call c : calls) {
      output.add(functionCall(c, "completed"));
    }
    ObjectNode usage = response.putObject("usage");
    usage.put("input_tokens", promptTokens);
    usage.putObject("input_tokens_details").put("cached_tokens", cachedTokens);
    usage.put("output_tokens", outputTokens);
    usage.putObject("output_tokens_details").put("reasoning_tokens", reasoningTokens);
    usage.put("total_tokens", promptTokens + outputTokens);
    return response;
  }

  @Override
  public void finish(
      ChannelHandlerContext ctx, boolean length, int outputTokens, int reasoningTokens) {
    start(ctx);
    close(ctx);
    String type = length ? "response.incomplete" : "response.completed";
    ObjectNode end = event(type);
    end.set("response", whole(length, outputTokens, reasoningTokens));
    send(ctx, end);
  }

  @Override
  public ObjectNode body(boolean length, int outputTokens, int reasoningTokens) {
    return whole(length, outputTokens, reasoningTokens);
  }

  @Override
  public String answer() {
    return answer.toString();
  }
}
