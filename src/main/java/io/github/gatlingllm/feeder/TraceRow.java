package io.github.gatlingllm.feeder;

/**
 * Not API. What a trace replay adds to a fed prompt: the row's place in its file, its lengths, the
 * hash ids of its prompt's blocks and when it is due.
 *
 * @param row the 0-based line of the file ({@code trace_row} of the request's record)
 * @param inputTokens the row's {@code input_length}, in tokens
 * @param outputTokens the row's {@code output_length}, in tokens: the request's {@code max_tokens}
 * @param hashIds the hash ids of the prompt's blocks, in order, never null (not copied: read only)
 * @param dueNanos when the row is due, nanoseconds from the replay's start, or null for a trace
 *     without timestamps
 */
public record TraceRow(int row, int inputTokens, int outputTokens, long[] hashIds, Long dueNanos) {}
