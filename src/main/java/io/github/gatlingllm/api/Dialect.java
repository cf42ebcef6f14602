package io.github.gatlingllm.api;

import java.util.List;
import java.util.Map;

/**
 * One wire API: its request body, its history of turns and tool calls, its headers, its incremental
 * event parser and its error bodies. Every event is reduced to the {@link StreamEvent}s that {@code
 * metrics.RequestTimer} times (a token-bearing chunk for reasoning, answer text or a tool call; a
 * chunk with {@code usage} and the finish reason; {@link StreamEvent.Kind#DONE} at the API's
 * terminal event; {@link StreamEvent.Kind#ERROR} for a failure the server reports), so that the
 * caller never asks which API it speaks.
 *
 * <p>Implementations are stateless and thread-safe; {@link #parser} makes the one per-request
 * object.
 */
public interface Dialect {

  /**
   * The API this dialect speaks.
   *
   * @return the API, never null
   */
  WireApi api();

  /**
   * The path of the API relative to the base URL, without a leading slash.
   *
   * @return for example {@code "responses"}
   */
  default String path() {
    return api().path();
  }

  /**
   * The headers a request carries besides {@code Content-Type} and {@code Accept}: the key in the
   * API's header ({@code Authorization: Bearer KEY}, or Anthropic's {@code x-api-key: KEY}) and any
   * header the API requires ({@code anthropic-version}).
   *
   * @param apiKey the key, or null for none
   * @return the headers in order, unmodifiable, never null
   */
  Map<String, String> headers(String apiKey);

  /**
   * Checks that settings can make this API's body: their {@code extraBody} must not set a field
   * this dialect writes itself.
   *
   * @param settings the settings, never null
   * @throws IllegalArgumentException naming the key, the API and the keys it reserves
   */
  void check(RequestSettings settings);

  /**
   * The body of a request of one prompt (the user's message).
   *
   * @param settings the model and generation settings, never null ({@link
   *     RequestSettings#endpoint()} is not read: the dialect is the API)
   * @param prompt the prompt text, never null
   * @return the JSON body
   * @throws NullPointerException if an argument is null
   */
  String body(RequestSettings settings, String prompt);

  /**
   * The UTF-8 bytes of {@link #body(RequestSettings, String)}, copied around the prompt's JSON
   * string when it was prepared ahead ({@code Prompt.jsonBytes}, on the thread that builds prompts
   * ahead): the same bytes, the prompt neither escaped nor encoded at send time.
   *
   * @param settings the model and generation settings, never null
   * @param prompt the prompt text, never null
   * @param promptJson {@code prompt} as a JSON string literal, quotes included, escaped as Jackson
   *     escapes it and encoded in UTF-8; or null to escape {@code prompt} here
   * @return the body's bytes, a new array
   * @throws NullPointerException if {@code settings} or {@code prompt} is null
   */
  byte[] bodyBytes(RequestSettings settings, String prompt, byte[] promptJson);

  /**
   * The body of a request of one prompt with images: the user's message carries the images before
   * the text ({@link io.github.gatlingllm.image.PromptImages#before()}, a group's shared ones), the
   * text, then the others, in this API's shape (chat {@code image_url} parts with data URIs,
   * Responses {@code input_image} items, Messages {@code image} blocks with a base64 source), as
   * UTF-8 parts: each image's data the array it was built in, neither encoded nor copied again
   * ({@link RequestBodies#buildParts}).
   *
   * @param settings the model and generation settings, never null
   * @param prompt the prompt text, never null
   * @param images the images, never null
   * @return the JSON body's parts
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if this API takes no images (completions)
   */
  default BodyParts body(
      RequestSettings settings, String prompt, io.github.gatlingllm.image.PromptImages images) {
    throw new IllegalArgumentException(
        api().settingName()
            + " takes no images: prompts with images (llm.images.count, a prompts file's images)"
            + " need chat, responses or messages (llm.endpoint)");
  }

  /**
   * The body of a conversation's turn: the whole history in this API's shape, ending with the new
   * user message (or tool results).
   *
   * @param settings the model and generation settings, never null
   * @param history the turns in order, never null nor empty
   * @return the JSON body
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the history cannot be written in this API (tool calls on
   *     completions)
   */
  String body(RequestSettings settings, List<Turn> history);

  /**
   * The body of an agent session's turn (issue 32): the whole history in this API's shape, then the
   * function tools in this API's {@code tools} shape and {@code tool_choice} in its own.
   *
   * @param settings the model and generation settings, never null
   * @param history the turns in order (system, the task, each reply's text and tool calls as
   *     received, each tool result), never null nor empty
   * @param tools the function tools as the chat API writes them ({@code
   *     [{"type":"function","function":{"name","description","parameters"}}]}), or null (or empty)
   *     for none
   * @param toolChoice {@code auto}, {@code required} or {@code none}, or null to leave it out;
   *     written only with tools
   * @return the JSON body
   * @throws NullPointerException if settings or history is null
   * @throws IllegalArgumentException if the history cannot be written in this API
   * @throws UnsupportedOperationException if this API takes no tools (completions)
   */
  default String agentBody(
      RequestSettings settings,
      List<Turn> history,
      com.fasterxml.jackson.databind.JsonNode tools,
      String toolChoice) {
    throw new UnsupportedOperationException(
        api().settingName() + " takes no tools: an agent turn needs chat, responses or messages");
  }

  /**
   * Whether this API can keep a conversation's history on the server ({@link #body(RequestSettings,
   * List, String)}).
   *
   * @return true for the Responses API ({@code previous_response_id})
   */
  default boolean keepsHistoryOnServer() {
    return false;
  }

  /**
   * The body of a conversation's turn whose history the server keeps: only the turns after the
   * previous response, and that response's id.
   *
   * @param settings the model and generation settings, never null
   * @param newTurns the turns after the previous response, never null nor empty
   * @param previousResponseId the previous response's id ({@link EventParser#responseId()}), never
   *     null
   * @return the JSON body
   * @throws UnsupportedOperationException if {@link #keepsHistoryOnServer()} is false
   */
  default String body(RequestSettings settings, List<Turn> newTurns, String previousResponseId) {
    throw new UnsupportedOperationException(
        api().settingName() + " keeps no history on the server: send the whole history");
  }

  /**
   * The body of an agent session's turn whose history the server keeps: only the turns after the
   * previous response (its tool results), that response's id, and the tools as in {@link
   * #agentBody(RequestSettings, List, com.fasterxml.jackson.databind.JsonNode, String)} (a stored
   * response carries no tools over: OpenAI's Responses API wants them on every request).
   *
   * @param settings the model and generation settings, never null
   * @param newTurns the turns after the previous response, never null nor empty
   * @param tools the function tools as the chat API writes them, or null (or empty) for none
   * @param toolChoice {@code auto}, {@code required} or {@code none}, or null to leave it out
   * @param previousResponseId the previous response's id, never null
   * @return the JSON body
   * @throws UnsupportedOperationException if {@link #keepsHistoryOnServer()} is false
   */
  default String agentBody(
      RequestSettings settings,
      List<Turn> newTurns,
      com.fasterxml.jackson.databind.JsonNode tools,
      String toolChoice,
      String previousResponseId) {
    throw new UnsupportedOperationException(
        api().settingName() + " keeps no history on the server: send the whole history");
  }

  /**
   * The id of a whole (non-streamed) response, for a later request to name ({@code
   * previous_response_id}); a stream's is {@link EventParser#responseId()}.
   *
   * @param body the body, or null
   * @return the Responses API's top-level {@code id}; null for another API, or when the body has
   *     none
   */
  default String responseId(String body) {
    return null;
  }

  /**
   * A parser for one streamed response.
   *
   * @param listener receives the events, never null
   * @return a new parser, not thread-safe
   */
  EventParser parser(EventParser.Listener listener);

  /**
   * Reads a whole non-streamed response body (or an error body), keeping its text. Never throws.
   *
   * @param body the body; null is read as {@link StreamEvent.Kind#EMPTY}
   * @return a {@link StreamEvent.Kind#CHUNK} with the reply's content, reasoning, tool calls, usage
   *     and finish reason; {@link StreamEvent.Kind#ERROR}; {@link StreamEvent.Kind#MALFORMED} or
   *     {@link StreamEvent.Kind#EMPTY}
   */
  StreamEvent parseResponse(String body);

  /**
   * The name of the event that ends a complete stream, for the error of a stream cut short.
   *
   * @return {@code "[DONE]"}, {@code "response.completed"} or {@code "message_stop"}
   */
  String terminalEvent();

  /**
   * A one-line description of an HTTP error answer's body ({@link ErrorBody#describe}, which reads
   * OpenAI's {@code {"error":{...}}} and Anthropic's {@code
   * {"type":"error","error":{"type":..,"message":..}}} alike).
   *
   * @param body the body, or null
   * @param contentType the {@code Content-Type} header value, or null
   * @return the description, or null for a null or blank body
   */
  default String describeError(String body, String contentType) {
    return ErrorBody.describe(body, contentType);
  }
}
