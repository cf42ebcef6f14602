package io.github.gatlingllm.simulator;

import java.util.ArrayList;
import java.util.List;

/** The documented timing model of {@link Simulator}, with the {@link WordCycle} text. */
final class StandardStrategy implements ResponseStrategy {

  static final StandardStrategy INSTANCE = new StandardStrategy();

  private StandardStrategy() {}

  @Override
  public List<PlannedChunk> plan(GenerationRequest request, SimulatorConfig config) {
    int tokens = request.maxTokens();
    // Reasoning tokens come first and count towards max_tokens (as on vLLM and OpenAI).
    int reasoning = Math.min(config.reasoningTokens(), tokens);
    long first = config.baseTtftNanos() + config.prefillNanos(request.uncachedTokens());
    long decode = config.decodeNanos();
    int perChunk = config.tokensPerChunk();
    List<PlannedChunk> chunks = new ArrayList<>(2 + (tokens - 1 + perChunk - 1) / perChunk);
    // The first token goes out alone, as soon as it exists (vLLM's stream interval does the same).
    chunks.add(new PlannedChunk(first, 1, WordCycle.token(0), reasoning > 0));
    for (int start = 1; start < tokens; ) {
      int end = Math.min(start + perChunk, tokens);
      if (start < reasoning && end > reasoning) {
        // A chunk is all reasoning or all answer.
        end = reasoning;
      }
      // Token k (0-based) exists at first + k * decode; a chunk leaves with its last token.
      chunks.add(
          new PlannedChunk(
              first + (end - 1) * decode,
              end - start,
              WordCycle.text(start, end),
              start < reasoning));
      start = end;
    }
    return chunks;
  }
}
