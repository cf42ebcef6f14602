/**
 * One dialect a wire API: chat completions and completions (OpenAI-compatible), OpenAI's Responses
 * API ({@code /v1/responses}) and Anthropic's Messages API ({@code /v1/messages}). A {@link
 * io.github.gatlingllm.api.Dialect} knows its API's request body, its history of turns and tool
 * calls ({@link io.github.gatlingllm.api.Turn}), its headers, its incremental event parser over
 * bytes ({@link io.github.gatlingllm.api.EventParser}) and its error bodies, and reduces every
 * event to the {@link io.github.gatlingllm.api.StreamEvent}s the metrics already time, so the
 * action and the metrics never ask which API they speak.
 *
 * <p>The OpenAI-compatible shapes live here too: request bodies ({@link
 * io.github.gatlingllm.api.RequestBodies}), SSE framing over bytes ({@link
 * io.github.gatlingllm.api.SseParser}), chunk parsing ({@link
 * io.github.gatlingllm.api.ChunkScanner}, {@link io.github.gatlingllm.api.StreamEventParser}) and
 * non-streamed bodies.
 *
 * <p>Pure: imports no Gatling, Netty or HTTP class.
 */
package io.github.gatlingllm.api;
