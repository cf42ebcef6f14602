package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Where a run's LLM files go (issue 40, item 6): into Gatling's run folder wherever Gatling's
 * launcher put its results, so the run has one folder; {@code llm.resultsFolder} only where
 * Gatling's cannot be known. Before, {@code -Dllm.resultsFolder} alone split the run in two.
 */
class ResultsFolderTest {

  @Test
  void gatlingsFolderWinsOverLlmResultsFolder() {
    assertEquals(
        Path.of("/work/p/target/gatling"),
        LlmProtocol.resultsFolder("target/elsewhere", true, Path.of("/work/p/target/gatling")));
  }

  @Test
  void gatlingsFolderWhenLlmResultsFolderIsUnset() {
    assertEquals(
        Path.of("/results/shard-0"),
        LlmProtocol.resultsFolder("target/gatling", false, Path.of("/results/shard-0")));
  }

  @Test
  void llmResultsFolderWhenGatlingsIsNotKnown() {
    assertEquals(
        Path.of("target/elsewhere"), LlmProtocol.resultsFolder("target/elsewhere", true, null));
  }

  @Test
  void theDefaultWhenNeitherIsKnown() {
    assertEquals(
        Path.of("target/gatling"), LlmProtocol.resultsFolder("target/gatling", false, null));
  }
}
