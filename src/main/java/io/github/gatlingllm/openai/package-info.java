/**
 * OpenAI-compatible request bodies and response shapes: building a request body, framing a streamed
 * body's events over bytes ({@link io.github.gatlingllm.openai.SseParser}), parsing one SSE {@code
 * data} payload of a streamed completion, and reading a non-streamed response body.
 *
 * <p>Knows the request and response shapes of {@code /v1/chat/completions} and {@code
 * /v1/completions}, and the text of Gatling's rendering of an SSE message ({@link SseMessageData}),
 * but imports no Gatling or HTTP class.
 */
package io.github.gatlingllm.openai;
