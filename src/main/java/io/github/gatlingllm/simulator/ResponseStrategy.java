package io.github.gatlingllm.simulator;

import java.util.List;

/**
 * How the simulator produces the output of an admitted request: which chunks, with which text, and
 * when. The simulator turns the plan into OpenAI responses (SSE events or one JSON body), counts
 * the tokens, and frees the request's sequence slot when the last chunk is out.
 *
 * <p>{@link #standard()} is the documented timing model of {@link Simulator}. Other strategies
 * (slow or stalled streams, for instance) plug in through {@link Simulator#start(SimulatorConfig,
 * int, ResponseStrategy)}.
 */
@FunctionalInterface
public interface ResponseStrategy {

  /**
   * Plans the output of one admitted request.
   *
   * <p>Called on a network thread: must not block. The chunks are sent in list order, each no
   * earlier than its {@link PlannedChunk#atNanos()} after admission; the request ends with the last
   * one. {@code finish_reason} is {@code "length"} when the chunks hold {@code maxTokens} tokens or
   * more, {@code "stop"} otherwise.
   *
   * @param request the admitted request, never null
   * @param config the simulator's configuration, never null
   * @return the chunks, in order, never null
   */
  List<PlannedChunk> plan(GenerationRequest request, SimulatorConfig config);

  /**
   * The standard strategy: exactly {@code maxTokens} tokens of the word cycle, timed as described
   * on {@link Simulator}.
   *
   * @return the standard strategy
   */
  static ResponseStrategy standard() {
    return StandardStrategy.INSTANCE;
  }
}
