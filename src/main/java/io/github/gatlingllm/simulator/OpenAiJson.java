package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The OpenAI response shapes the simulator sends, as vLLM and llama.cpp send them. */
final class OpenAiJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private OpenAiJson() {}

  /** Common head of every response and chunk: id, object, created, model. */
  private static ObjectNode head(String id, String object, long created, String model) {
    ObjectNode node = NODES.objectNode();
    node.put("id", id);
    node.put("object", object);
    node.put("created", created);
    node.put("model", model);
    return node;
  }

  /**
   * {@code usage}: prompt, completion and total tokens, and {@code
   * prompt_tokens_details.cached_tokens}.
   */
  static ObjectNode usage(int promptTokens, int completionTokens, int cachedTokens) {
    ObjectNode usage = NODES.objectNode();
    usage.put("prompt_tokens", promptTokens);
    usage.put("completion_tokens", completionTokens);
    usage.put("total_tokens", promptTokens + completionTokens);
    usage.putObject("prompt_tokens_details").put("cached_tokens", cachedTokens);
    return usage;
  }

  /** A streamed chat chunk with one choice. */
  static ObjectNode chatChunk(
      String id, long created, String model, ObjectNode delta, String finishReason) {
    return oneChoice(id, "chat.completion.chunk", created, model, "delta", delta, finishReason);
  }

  /** The first chat delta: the role, and {@code "content": null} (llama.cpp's shape). */
  static ObjectNode roleDelta() {
    ObjectNode delta = NODES.objectNode();
    delta.put("role", "assistant");
    delta.putNull("content");
    return delta;
  }

  /** A chat delta of reasoning text: {@code reasoning_content}, as vLLM, SGLang and llama.cpp. */
  static ObjectNode reasoningDelta(String text) {
    return NODES.objectNode().put("reasoning_content", text);
  }

  /** {@code usage} with {@code completion_tokens_details.reasoning_tokens}. */
  static ObjectNode usage(
      int promptTokens, int completionTokens, int cachedTokens, int reasoningTokens) {
    ObjectNode usage = usage(promptTokens, completionTokens, cachedTokens);
    usage.putObject("completion_tokens_details").put("reasoning_tokens", reasoningTokens);
    return usage;
  }

  /** A chat delta of content text. */
  static ObjectNode contentDelta(String text) {
    return NODES.objectNode().put("content", text);
  }

  /**
   * The first delta of a streamed tool call, as OpenAI sends it: {@code {"tool_calls": [{"index",
   * "id", "type": "function", "function": {"name", "arguments": ""}}]}}.
   */
  static ObjectNode toolCallHead(int index, String id, String name) {
    ObjectNode delta = NODES.objectNode();
    ObjectNode call = delta.putArray("tool_calls").addObject();
    call.put("index", index);
    call.put("id", id);
    call.put("type", "function");
    call.putObject("function").put("name", name).put("arguments", "");
    return delta;
  }

  /** A later delta of a streamed tool call: its index and a piece of its arguments. */
  static ObjectNode toolCallArguments(int index, String piece) {
    ObjectNode delta = NODES.objectNode();
    ObjectNode call = delta.putArray("tool_calls").addObject();
    call.put("index", index);
    call.putObject("function").put("arguments", piece);
    return delta;
  }

  /** A non-streamed chat completion whose message calls tools ({@code content} null). */
  static ObjectNode chatToolCalls(
      String id,
      long created,
      String model,
      java.util.List<ToolTurns.Call> calls,
      String finishReason,
      ObjectNode usage) {
    ObjectNode response = head(id, "chat.completion", created, model);
    ObjectNode choice = firstChoice(response);
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    message.putNull("content");
    ArrayNode toolCalls = message.putArray("tool_calls");
    for (ToolTurns.Call call : calls) {
      ObjectNode c = toolCalls.addObject();
      c.put("id", call.id());
      c.put("type", "function");
      c.putObject("function").put("name", call.name()).put("arguments", call.arguments());
    }
    choice.putNull("logprobs");
    choice.put("finish_reason", finishReason);
    response.set("usage", usage);
    return response;
  }

  /** The empty delta of the finishing chat chunk. */
  static ObjectNode emptyDelta() {
    return NODES.objectNode();
  }

  /** The separate usage chunk of a chat stream: {@code "choices": []} and {@code usage}. */
  static ObjectNode chatUsageChunk(String id, long created, String model, ObjectNode usage) {
    ObjectNode chunk = head(id, "chat.completion.chunk", created, model);
    chunk.putArray("choices");
    chunk.set("usage", usage);
    return chunk;
  }

  /**
   * A streamed completions chunk with one choice; {@code usage} (or null) rides on it, as llama.cpp
   * sends it on the finishing chunk.
   */
  static ObjectNode completionChunk(
      String id, long created, String model, String text, String finishReason, ObjectNode usage) {
    ObjectNode chunk = textChoice(id, created, model, text, finishReason);
    if (usage != null) {
      chunk.set("usage", usage);
    }
    return chunk;
  }

  /** A non-streamed chat completion. */
  static ObjectNode chatCompletion(
      String id, long created, String model, String text, String finishReason, ObjectNode usage) {
    return chatCompletion(id, created, model, text, null, finishReason, usage);
  }

  /** A non-streamed chat completion with its reasoning ({@code message.reasoning_content}). */
  static ObjectNode chatCompletion(
      String id,
      long created,
      String model,
      String text,
      String reasoning,
      String finishReason,
      ObjectNode usage) {
    ObjectNode response = head(id, "chat.completion", created, model);
    ObjectNode choice = firstChoice(response);
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    message.put("content", text);
    if (reasoning != null) {
      message.put("reasoning_content", reasoning);
    }
    choice.putNull("logprobs");
    choice.put("finish_reason", finishReason);
    response.set("usage", usage);
    return response;
  }

  /** A non-streamed text completion. */
  static ObjectNode textCompletion(
      String id, long created, String model, String text, String finishReason, ObjectNode usage) {
    ObjectNode response = textChoice(id, created, model, text, finishReason);
    response.set("usage", usage);
    return response;
  }

  /** A {@code text_completion} with one choice of {@code text}, streamed or not. */
  private static ObjectNode textChoice(
      String id, long created, String model, String text, String finishReason) {
    return oneChoice(
        id, "text_completion", created, model, "text", NODES.textNode(text), finishReason);
  }

  /** The one choice of a completion, its index 0. */
  private static ObjectNode firstChoice(ObjectNode completion) {
    ObjectNode choice = completion.putArray("choices").addObject();
    choice.put("index", 0);
    return choice;
  }

  /** An object of one choice: its index, {@code key}'s value, no logprobs, its finish reason. */
  private static ObjectNode oneChoice(
      String id,
      String object,
      long created,
      String model,
      String key,
      JsonNode value,
      String finishReason) {
    ObjectNode completion = head(id, object, created, model);
    ObjectNode choice = firstChoice(completion);
    choice.set(key, value);
    choice.putNull("logprobs");
    choice.put("finish_reason", finishReason);
    return completion;
  }

  /** {@code GET /v1/models}: a list with the one served model. */
  static ObjectNode models(String model, long created, int contextLength) {
    ObjectNode list = NODES.objectNode();
    list.put("object", "list");
    ArrayNode data = list.putArray("data");
    ObjectNode entry = data.addObject();
    entry.put("id", model);
    entry.put("object", "model");
    entry.put("created", created);
    entry.put("owned_by", "gatling-llm");
    entry.put("max_model_len", contextLength);
    return list;
  }

  /** {@code GET /health}: {@code {"status": "ok"}}. */
  static ObjectNode health() {
    return NODES.objectNode().put("status", "ok");
  }
}
