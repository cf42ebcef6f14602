package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prompt longer than the server's context is said once, before load, naming its tokens, the
 * context and the setting (issue 40): here against the embedded simulator, whose context is a
 * setting; {@code ServerProbeTest} reads llama.cpp's and vLLM's from stub servers.
 */
@Tag("forked")
@Tag("parallel")
class ContextRunsTest {

  @TempDir Path results;

  @Test
  void promptsLongerThanTheContextAreSaidOnceBeforeTheFirstRequest() throws Exception {
    DslRun run =
        DslRun.run(
                OpenBudgetSimulation.class,
                results,
                "-Dllm.inputTokens=600",
                "-Dllm.simulator.contextLength=512")
            .exits(0);

    String line =
        "gatling-llm WARNING: workload repeat: prompts of up to 600 tokens (llm.inputTokens) plus"
            + " the chat template's 1 are longer than the server's context of 512 tokens (the"
            + " embedded simulator's llm.simulator.contextLength): the server refuses them (HTTP"
            + " 400); send shorter prompts or start the server with more context";
    assertEquals(1, run.count(line), run.log);
    // Said before load: before the first request ended (Gatling's first status lines).
    assertTrue(run.log.indexOf(line) < run.log.indexOf("---- Requests"), run.log);
    for (JsonNode r : run.requests()) {
      assertEquals(400, r.path("http_status").asInt(), r.toString());
    }
  }
}
