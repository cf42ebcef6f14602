package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code agentSession(...)} fed anything but {@code agents()}, and {@code conversation(...)} fed
 * {@code agents()}: the run stops at the first turn, before any request, with one line naming what
 * was fed and what the loop expects.
 */
@Tag("forked")
class MisfedSessionRunsTest {

  @TempDir Path results;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "prompts | agentSession(llm(\"agent\")...): the virtual user was fed a prompts() feeder, but"
            + " agentSession(...) runs the sessions of an agents() feeder: feed one before it"
            + " (feed(agents()...).exec(agentSession(llm(\"agent\")...)))",
        "conversations | agentSession(llm(\"agent\")...): the virtual user was fed a conversations()"
            + " feeder, but agentSession(...) runs the sessions of an agents() feeder: feed one"
            + " before it (feed(agents()...).exec(agentSession(llm(\"agent\")...)))",
        "agents | conversation(llm(\"chat\")...): the virtual user was fed an agents() feeder, but"
            + " conversation(...) runs the conversations of a conversations() feeder: run agents()"
            + " sessions with agentSession(...) (feed(agents()...).exec(agentSession(llm(\"chat\")"
            + "...)))"
      })
  void aSessionLoopFedTheWrongKindStopsBeforeAnyRequest(String fed, String message)
      throws Exception {
    DslRun run = DslRun.run(MisfedSessionSimulation.class, results, "-Dmisfed=" + fed);

    assertEquals(1, run.exitCode, run.log);
    assertEquals(1, run.count("[ERROR] i.g.g.a.LlmAction - " + message), run.log);
    assertEquals(List.of(), run.requests());
    assertTrue(run.log.contains("Run crashed"), run.log);
  }
}
