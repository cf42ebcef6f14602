/**
 * One dialect a wire API: chat completions and completions (OpenAI-compatible), OpenAI's Responses
 * API ({@code /v1/responses}) and Anthropic's Messages API ({@code /v1/messages}). A {@link
 * io.github.gatlingllm.api.Dialect} knows its API's request body, its history of turns and tool
 * calls ({@link io.github.gatlingllm.api.Turn}), its headers, its incremental event parser over
 * bytes ({@link io.github.gatlingllm.api.EventParser}) and its error bodies, and reduces every
 * event to the {@link io.github.gatlingllm.openai.StreamEvent}s the metrics already time, so the
 * action and the metrics never ask which API they speak.
 *
 * <p>Pure: imports no Gatling, Netty or HTTP class. The OpenAI shapes still live in {@code
 * openai/}, which this room wraps (and will take in).
 */
package io.github.gatlingllm.api;
