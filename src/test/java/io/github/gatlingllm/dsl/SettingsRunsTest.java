package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.examples.AgentSessionSimulation;
import io.github.gatlingllm.examples.ConversationSimulation;
import io.github.gatlingllm.examples.OpenLoopSimulation;
import io.github.gatlingllm.examples.QuickstartSimulation;
import io.github.gatlingllm.examples.RampedConcurrencySimulation;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example honours its settings (issue 40, item 6), through the real Gatling engine: the
 * closed-loop examples take their users from {@code llm.concurrency}; a {@code -Dllm.*} setting
 * that nothing in the run reads is said once, and never one the run reads; the LLM files go into
 * Gatling's run folder whatever {@code llm.resultsFolder} says. And an agent session on the
 * completions API is refused before any load with one line naming {@code llm.endpoint} (item 7).
 */
@Tag("forked")
@Tag("parallel")
class SettingsRunsTest {

  private static final String UNUSED = "nothing in this run reads";

  @TempDir Path results;

  @Test
  void aSettingNothingReadsIsSaidOnce() throws Exception {
    DslRun run =
        DslRun.run(
                OpenLoopSimulation.class,
                results,
                "-Dllm.requests=10",
                "-Dllm.concurrency=4",
                "-Dllm.agent.sessions=3",
                "-Dllm.simulator.decodeMsPerToken=1")
            .exits(0);

    // Before: no word of either, and the open loop ran as it would have without them.
    assertEquals(
        1,
        run.count(
            "[WARN ] i.g.g.p.RunContext - -Dllm.agent.sessions=3 (read by agents()),"
                + " -Dllm.concurrency=4 (read by the users of a closed loop, concurrency(n)) are"
                + " set, but nothing in this run reads them: they change nothing (every setting"
                + " and what reads it: docs/settings.md)\n"),
        run.log);
    assertEquals(1, run.count(UNUSED), run.log);
  }

  @Test
  void theQuickstartWithItsDocumentedSettingsWarnsNothing() throws Exception {
    DslRun run =
        DslRun.run(
                QuickstartSimulation.class,
                results,
                "-Dllm.promptMode=unique",
                "-Dllm.concurrency=2",
                "-Dllm.requests=12",
                "-Dllm.maxTokens=8",
                "-Dllm.seed=3",
                "-Dllm.simulator.decodeMsPerToken=1")
            .exits(0);

    assertEquals(0, run.count(UNUSED), run.log);
    assertEquals(1, run.count("; 2 users, closed loop;"), run.log);
  }

  @Test
  void conversationsTakeTheirUsersFromConcurrency() throws Exception {
    DslRun run =
        DslRun.run(
                ConversationSimulation.class,
                results,
                "-Dllm.concurrency=1",
                "-Dllm.conversations=2",
                "-Dllm.warmupConversations=0",
                "-Dllm.thinkTimeMs=0",
                "-Dllm.simulator.decodeMsPerToken=1")
            .exits(0);

    // Before: 4 users whatever llm.concurrency said.
    assertEquals(1, run.count("; 1 user, closed loop;"), run.log);
    assertEquals(0, run.count(UNUSED), run.log);
  }

  @Test
  void theRampTopIsConcurrency() throws Exception {
    DslRun run =
        DslRun.run(
                RampedConcurrencySimulation.class,
                results,
                "-Dllm.concurrency=3",
                "-Dllm.requests=12",
                "-Dllm.simulator.decodeMsPerToken=1")
            .exits(0);

    assertEquals(0, run.count(UNUSED), run.log);
    // Before: a ramp from 1 to 32 users.
    assertTrue(run.log.contains("constantConcurrentUsers(3)"), run.log);
    assertFalse(run.log.contains("(32)"), run.log);
  }

  @Test
  void theLlmFilesGoIntoGatlingsRunFolder() throws Exception {
    Path elsewhere = results.resolve("elsewhere");
    DslRun run =
        DslRun.run(
                OpenLoopSimulation.class,
                results,
                "-Dllm.requests=10",
                "-Dllm.resultsFolder=" + elsewhere,
                "-Dllm.simulator.decodeMsPerToken=1")
            .exits(0);

    // Before: llm-run.json and llm-report.html in elsewhere/llm-<epoch ms>/, Gatling's report
    // under results without its LLM tab.
    assertTrue(Files.exists(run.folder().resolve("llm-run.json")), run.log);
    assertTrue(Files.exists(run.folder().resolve("llm-report.html")), run.log);
    assertTrue(
        Files.readString(run.folder().resolve("index.html")).contains("llm_report_link"), run.log);
    assertFalse(Files.exists(elsewhere), run.log);
    assertEquals(
        1,
        run.count(
            "llm.resultsFolder=\"" + elsewhere + "\": Gatling writes this run's folder under \""),
        run.log);
  }

  @Test
  void agentSessionsOnTheCompletionsApiAreRefusedBeforeAnyLoad() throws Exception {
    DslRun run = DslRun.run(AgentSessionSimulation.class, results, "-Dllm.endpoint=completions");

    // Before: the first turn crashed the run, the line three times, a stack trace.
    run.stopsWithOneLine(
        "llm.endpoint: got \"completions\", but agentSession(llm(\"agent\")...) sends tools and"
            + " reads tool calls, which the completions API (a raw text prompt) has not; expected"
            + " chat, responses or messages (or llm(\"agent\").chatCompletion() for this"
            + " request)");
    assertFalse(DslRun.anyRunRecord(results), run.log);
  }
}
