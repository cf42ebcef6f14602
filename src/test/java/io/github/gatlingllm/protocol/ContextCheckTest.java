package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.feeder.PromptCeiling;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextCheckTest {

  private static final String LLAMA = "llama.cpp: a slot's share of -c";

  @Test
  void aPromptLongerThanTheContextIsSaidWithItsTokensTheContextAndTheSetting() {
    assertEquals(
        List.of(
            "workload unique: prompts of up to 5000 tokens (llm.inputTokens) plus the chat"
                + " template's 3 are longer than the server's context of 4096 tokens (llama.cpp: a"
                + " slot's share of -c): the server refuses them (HTTP 400); send shorter prompts or"
                + " start the server with more context"),
        ContextCheck.warnings(
            List.of(new PromptCeiling("unique", 5000, null, "llm.inputTokens")),
            4096,
            LLAMA,
            3,
            32));
  }

  @Test
  void aPromptThatFitsWithItsTemplateAndOutputSaysNothing() {
    assertEquals(
        List.of(),
        ContextCheck.warnings(
            List.of(new PromptCeiling("unique", 4061, null, "llm.inputTokens")),
            4096,
            LLAMA,
            3,
            32));
  }

  @Test
  void theTemplateLeadTipsAPromptOver() {
    assertEquals(
        1,
        ContextCheck.warnings(
                List.of(new PromptCeiling("unique", 4094, null, "llm.inputTokens")),
                4096,
                LLAMA,
                3,
                1)
            .size());
  }

  @Test
  void aPromptThatFitsButNotWithItsOutputTokensIsSaidToo() {
    assertEquals(
        List.of(
            "workload unique: prompts of up to 4000 tokens plus the chat template's 3 and the 128"
                + " output tokens asked (llm.inputTokens, llm.outputTokens) need up to 4131 tokens,"
                + " more than the server's context of 4096 tokens (llama.cpp: a slot's share of -c):"
                + " vLLM refuses such requests (HTTP 400), llama.cpp ends their reply at the context"
                + " (finish_reason length); ask for fewer tokens or start the server with more"
                + " context"),
        ContextCheck.warnings(
            List.of(new PromptCeiling("unique", 4000, null, "llm.inputTokens")),
            4096,
            LLAMA,
            3,
            128));
  }

  @Test
  void aTraceRowIsJudgedWithTheOutputItsRowAsks() {
    assertEquals(
        List.of(
            "workload trace: prompts of up to 4000 tokens and the output tokens their rows ask (the"
                + " trace's input_length and output_length) need up to 4200 tokens, more than the"
                + " server's context of 4096 tokens (vLLM's max_model_len): vLLM refuses such"
                + " requests (HTTP 400), llama.cpp ends their reply at the context (finish_reason"
                + " length); ask for fewer tokens or start the server with more context"),
        ContextCheck.warnings(
            List.of(
                new PromptCeiling(
                    "trace", 4000, 4200, "the trace's input_length and output_length")),
            4096,
            "vLLM's max_model_len",
            0,
            128));
  }

  @Test
  void aSessionWindowAboveTheContextNamesTheWindowSetting() {
    assertEquals(
        List.of(
            "workload agent: llm.maxContextTokens 8192 is above the server's context of 4096 tokens"
                + " (llama.cpp: a slot's share of -c): a session whose context grows past 4096"
                + " tokens is refused (HTTP 400) or cut short instead of ending at its window; set"
                + " llm.maxContextTokens=4096 or start the server with more context"),
        ContextCheck.warnings(
            List.of(new PromptCeiling("agent", null, 8192, "llm.maxContextTokens")),
            4096,
            LLAMA,
            3,
            64));
  }

  @Test
  void eachWorkloadThatDoesNotFitGetsItsOwnLine() {
    assertEquals(
        2,
        ContextCheck.warnings(
                List.of(
                    new PromptCeiling("a", 9000, null, "llm.inputTokens"),
                    new PromptCeiling("b", 100, null, "llm.inputTokens"),
                    new PromptCeiling("c", null, 9000, "llm.maxContextTokens")),
                8192,
                LLAMA,
                0,
                16)
            .size());
  }
}
