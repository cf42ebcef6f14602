package io.github.gatlingllm.protocol;

import io.github.gatlingllm.feeder.PromptCeiling;
import java.util.ArrayList;
import java.util.List;

/**
 * Not API. Whether a run's prompts fit the server's context, said before load: a workload whose
 * longest prompt is longer than the context the server reports gets one line naming its prompt
 * tokens, the context and the setting to change, as does one whose prompt plus the output it asks
 * for does not fit. A warning, not a stop: the context is the server's word (llama.cpp's is a
 * slot's share of {@code -c}, vLLM's {@code max_model_len}), a run may send over-long prompts on
 * purpose to measure the refusals, and every request sent is still recorded with its HTTP 400.
 * Pure: ceilings in, lines out.
 */
final class ContextCheck {

  private ContextCheck() {}

  /**
   * The warnings of a run's workloads against a context.
   *
   * @param ceilings each workload's ceiling, never null
   * @param contextTokens the server's context, tokens, at least 1
   * @param contextSource where the context comes from, e.g. {@code llama.cpp /props: a slot's share
   *     of -c}, never null
   * @param templateTokens the chat template's lead the server adds to each prompt, tokens, at least
   *     0 (0 when unknown or for completions)
   * @param maxTokens the requests' {@code max_tokens} ({@code llm.outputTokens}), at least 1
   * @return one line per workload that does not fit, in the ceilings' order; empty when all fit
   */
  static List<String> warnings(
      List<PromptCeiling> ceilings,
      int contextTokens,
      String contextSource,
      int templateTokens,
      int maxTokens) {
    List<String> out = new ArrayList<>();
    String context = "the server's context of " + contextTokens + " tokens (" + contextSource + ")";
    String template = templateTokens > 0 ? " plus the chat template's " + templateTokens : "";
    for (PromptCeiling c : ceilings) {
      String workload = "workload " + c.workload() + ": ";
      if (c.promptTokens() == null) {
        if (c.totalTokens() > contextTokens) {
          out.add(
              workload
                  + c.setting()
                  + " "
                  + c.totalTokens()
                  + " is above "
                  + context
                  + ": a session whose context grows past "
                  + contextTokens
                  + " tokens is refused (HTTP 400) or cut short instead of ending at its window;"
                  + " set "
                  + c.setting()
                  + "="
                  + contextTokens
                  + " or start the server with more context");
        }
        continue;
      }
      int prompt = c.promptTokens() + templateTokens;
      if (prompt > contextTokens) {
        out.add(
            workload
                + "prompts of up to "
                + c.promptTokens()
                + " tokens ("
                + c.setting()
                + ")"
                + template
                + " are longer than "
                + context
                + ": the server refuses them (HTTP 400); send shorter prompts or start the server"
                + " with more context");
        continue;
      }
      boolean rows = c.totalTokens() != null;
      int total = (rows ? c.totalTokens() : c.promptTokens() + maxTokens) + templateTokens;
      if (total > contextTokens) {
        out.add(
            workload
                + "prompts of up to "
                + c.promptTokens()
                + " tokens"
                + template
                + " and the "
                + (rows ? "output tokens their rows ask" : maxTokens + " output tokens asked")
                + " ("
                + (rows ? c.setting() : c.setting() + ", llm.outputTokens")
                + ") need up to "
                + total
                + " tokens, more than "
                + context
                + ": vLLM refuses such requests (HTTP 400), llama.cpp ends their reply at the"
                + " context (finish_reason length); ask for fewer tokens or start the server with"
                + " more context");
      }
    }
    return out;
  }
}
