package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.examples.QuickstartSimulation;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -D} overrides of the quickstart, as {@code ./mvnw gatling:test -Dllm...} runs it (issue
 * 30, points 4 and 5): each changes one knob of what the simulation set, and runs.
 */
@Tag("forked")
@Tag("parallel")
class OverrideRunsTest {

  @TempDir Path results;

  private static final String[] SMALL = {
    "-Dllm.requests=8", "-Dllm.warmupRequests=0", "-Dllm.concurrency=2"
  };

  private DslRun run(String property) throws Exception {
    String[] all = new String[SMALL.length + 1];
    System.arraycopy(SMALL, 0, all, 0, SMALL.length);
    all[SMALL.length] = property;
    return DslRun.run(QuickstartSimulation.class, results, all).exits(0);
  }

  private static Set<String> values(List<JsonNode> requests, String field) {
    Set<String> values = new TreeSet<>();
    requests.forEach(r -> values.add(r.get(field).asText()));
    return values;
  }

  @Test
  void prefixGroupsChangesTheQuickstartsGroupsOnly() throws Exception {
    List<JsonNode> requests = run("-Dllm.prefixGroups=1").requests();

    assertEquals(8, requests.size());
    assertEquals(Set.of("0"), values(requests, "prefix_group"));
  }

  @Test
  void aPromptsFileReplacesTheQuickstartsGeneratedPrompts() throws Exception {
    List<JsonNode> requests =
        run("-Dllm.promptsFile=user-files/resources/prompts/sample-prompts.jsonl").requests();

    assertEquals(
        Set.of("row-0", "row-1", "row-2", "row-3", "row-4", "row-5", "row-6", "row-7"),
        values(requests, "prompt_id"));
  }

  @Test
  void maxTokensIsTheQuickstartsOutputTokens() throws Exception {
    List<JsonNode> requests = run("-Dllm.maxTokens=10").requests();

    assertEquals(Set.of("10"), values(requests, "completion_tokens"));
  }
}
