package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code agentSession(...)} fed anything but {@code agents()}, and {@code conversation(...)} fed
 * {@code agents()}: the run stops at the first turn, before any request, with one line naming what
 * was fed and what the loop expects, said once as the console's last line, exit code 1.
 */
@Tag("forked")
@Tag("parallel")
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

    // The line once, last, exit code 1, no stack trace, no Gatling crash; the run record written
    // (issue 40, item 7: before, the line three times, a crash and its stack trace).
    run.stopsWithOneLine(message);
    assertTrue(run.log.stripTrailing().endsWith("\n" + message), run.log);
    assertEquals(0, run.count("Run crashed"), run.log);
    assertEquals(0, run.count("Exception"), run.log);
    assertEquals(List.of(), run.requests());
    // Nothing was sent: Gatling has nothing to report ("Run didn't last", said no more), the run
    // record and the LLM report say what happened.
    assertTrue(Files.exists(run.folder().resolve("llm-report.html")), run.log);
    assertEquals("crashed", run.record().get("end_reason").asText());
  }
}
