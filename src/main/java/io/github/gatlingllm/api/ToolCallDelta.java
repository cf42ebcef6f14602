package io.github.gatlingllm.api;

/**
 * One entry of a streamed {@code choices[].delta.tool_calls} array (or of a whole response's {@code
 * choices[].message.tool_calls}, or a legacy {@code function_call}), as received: OpenAI sends a
 * call's {@code id}, {@code type} and {@code function.name} on its first delta and then only {@code
 * index} and a piece of {@code function.arguments} on each later one; {@link ToolCallAssembly} puts
 * the pieces back together.
 *
 * @param index the call's {@code index} in the reply, or null when the entry has none (a whole
 *     response's calls and a legacy {@code function_call} carry none)
 * @param id the call's {@code id} when this entry carries it, else null
 * @param name {@code function.name} when this entry carries it, else null
 * @param arguments this entry's piece of {@code function.arguments}, as received (a JSON text cut
 *     anywhere), or null when absent
 */
public record ToolCallDelta(Integer index, String id, String name, String arguments) {}
