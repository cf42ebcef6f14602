package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a request's prompt comes from when there is no feeder: its own {@code .prompt(...)}, or
 * nowhere (the run stops at once).
 */
@Tag("forked")
@Tag("parallel")
class PromptSourceRunsTest {

  @TempDir Path results;

  @Test
  void aPromptFromTheSessionNeedsNoFeederAndIsRecorded() throws Exception {
    DslRun run = DslRun.run(SessionPromptSimulation.class, results).exits(0);
    List<JsonNode> requests = run.requests();

    assertEquals(6, requests.size());
    java.util.Map<String, Integer> digests = new java.util.TreeMap<>();
    for (JsonNode r : requests) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertEquals("measured", r.get("phase").asText(), r.toString());
      // The text's digest and its count with the run's tokenizer (estimate: 5 words).
      assertEquals(5, r.get("planned_tokens").asInt(), r.toString());
      digests.merge(r.get("digest").asText(), 1, Integer::sum);
    }
    // Users 1 to 3, two requests each: "Say hello to user N." (printf ... | sha256sum).
    assertEquals(
        java.util.Map.of(
            PromptFileRunsTest.sha16("Say hello to user 1."), 2,
            PromptFileRunsTest.sha16("Say hello to user 2."), 2,
            PromptFileRunsTest.sha16("Say hello to user 3."), 2),
        digests);
    assertEquals(6, run.record().get("requests_recorded").asLong());
    assertEquals(0, run.count("[ERROR]"), run.log);
  }

  @Test
  void aRequestWithNoPromptStopsTheRunAtOnceAndFailsTheBuild() throws Exception {
    DslRun run = DslRun.run(NoPromptSimulation.class, results);

    // The line once, as the console's last line, exit code 1, no stack trace, no Gatling crash
    // (issue 40, item 7: before, logged by LlmAction, then again in Gatling's crash and its trace).
    run.stopsWithOneLine(
        "llm(\"chat\"): the virtual user has no prompt to send: feed a prompts() feeder before"
            + " this request (feed(prompts()...).exec(llm(\"chat\")...)) or give the request its"
            + " own .prompt(...)");
    assertEquals(0, run.count("Run crashed"), run.log);
    assertEquals(List.of(), run.requests());
    assertEquals(List.of(0L, 0L, 0L), run.row("Global"));
    assertEquals(true, run.record().get("interrupted").asBoolean());
  }
}
