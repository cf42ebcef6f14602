package io.github.gatlingllm.dsl;

import static io.github.gatlingllm.LlmDsl.prompts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code prompts().fromFile(...)} as a feeder: its records and session keys, its budget, and the
 * mistakes refused when the feeder is made (before any load), each in one line.
 */
@ExtendWith(NoLlmProperties.class)
class PromptFileFeederTest {

  @TempDir Path dir;

  private Path file() throws IOException {
    return Files.writeString(
        dir.resolve("p.jsonl"),
        "{\"prompt\": \"alpha beta\"}\n"
            + "{\"messages\": [{\"role\": \"user\", \"content\": \"gamma\"}], \"output_tokens\": 4}\n"
            + "{\"prompt\": \"delta\"}\n",
        StandardCharsets.UTF_8);
  }

  private static String message(Runnable call) {
    return assertThrows(IllegalArgumentException.class, call::run).getMessage();
  }

  @Test
  void theFeederHandsOutEachRowOnceThenDone() throws IOException {
    Iterator<Map<String, Object>> feeder = prompts().fromFile(file().toString()).get();

    Map<String, Object> first = feeder.next();
    Map<String, Object> second = feeder.next();
    Map<String, Object> third = feeder.next();
    Map<String, Object> fourth = feeder.next();

    assertEquals("alpha beta", first.get("llm.text"));
    assertEquals(0L, first.get("llm.index"));
    assertEquals("measured", first.get("llm.phase"));
    assertEquals("row-0", first.get("llm.promptId"));
    assertEquals(2, first.get("llm.plannedTokens"));
    // Always set, so that a record never inherits the previous record's values in the session.
    assertEquals(0, first.get("llm.maxTokens"));
    assertEquals(List.of(), first.get("llm.messages"));
    assertEquals("[{\"role\":\"user\",\"content\":\"gamma\"}]", second.get("llm.text"));
    assertEquals(List.of(Map.of("role", "user", "content", "gamma")), second.get("llm.messages"));
    assertEquals(4, second.get("llm.maxTokens"));
    assertEquals("delta", third.get("llm.text"));
    assertEquals(true, fourth.get("llm.done"));
  }

  @Test
  void theWarmupTakesTheLastRowsAndTheBudgetTheRest() throws IOException {
    Iterator<Map<String, Object>> feeder = prompts().fromFile(file()).warmup(1).get();

    Map<String, Object> warmup = feeder.next();

    assertEquals(
        List.of("warmup", "delta"), List.of(warmup.get("llm.phase"), warmup.get("llm.text")));
    assertEquals("alpha beta", feeder.next().get("llm.text"));
    feeder.next();
    assertEquals(true, feeder.next().get("llm.done"));
  }

  @Test
  void aMissingFileStopsTheFeederBeforeAnyLoad() {
    Path missing = dir.resolve("missing.jsonl");

    assertEquals(
        "prompts file " + missing + ": does not exist, expected a JSONL, CSV or JSON prompts file",
        message(() -> prompts().fromFile(missing.toString()).get()));
  }

  @Test
  void aBudgetBeyondTheFileWithoutWrapIsRefused() throws IOException {
    Path file = file();

    assertEquals(
        "prompts file "
            + file
            + ": 5 measured and 0 warmup requests need 5 rows, it has 3; expected fewer requests"
            + " (llm.requests, llm.warmupRequests) or wrap-around (.wrap(), llm.promptsWrap=true)",
        message(() -> prompts().fromFile(file).requests(5).get()));
  }

  @Test
  void wrapLetsTheBudgetGoRoundTheFile() throws IOException {
    Iterator<Map<String, Object>> feeder = prompts().fromFile(file()).requests(4).wrap().get();
    for (int i = 0; i < 3; i++) {
      feeder.next();
    }

    assertEquals("alpha beta", feeder.next().get("llm.text"));
  }

  @Test
  void shuffleWithoutAFileIsRefused() {
    assertEquals(
        "llm.promptsOrder=shuffle: goes with a prompts file, and none is set; expected"
            + " prompts().fromFile(path) or -Dllm.promptsFile=PATH",
        message(() -> prompts().shuffle().get()));
  }

  @Test
  void aPromptModeWithAFileIsRefused() throws IOException {
    Path file = file();

    assertEquals(
        "llm.promptMode: goes with generated prompts, not with the prompts file "
            + file
            + " (llm.promptsFile); expected one or the other",
        message(() -> prompts().fromFile(file).sharedPrefix(0.5, 2).get()));
  }

  @Test
  void aBadOrderPropertyIsRefusedWhereItIsSet() {
    System.setProperty("llm.promptsOrder", "random");
    try {
      assertEquals(
          "llm.promptsOrder: got \"random\", expected index or shuffle",
          message(() -> prompts().requests(3)));
    } finally {
      System.clearProperty("llm.promptsOrder");
    }
  }

  @Test
  void theFilePropertyWinsOverTheBuilders() throws IOException {
    Path file = file();
    System.setProperty("llm.promptsFile", file.toString());
    try {
      assertEquals(
          "alpha beta", prompts().fromFile("elsewhere.jsonl").get().next().get("llm.text"));
    } finally {
      System.clearProperty("llm.promptsFile");
    }
  }

  @Test
  void theFilePropertyReplacesTheSimulationsGeneratedPrompts() throws IOException {
    // The quickstart's prompts(), run with -Dllm.promptsFile (issue 30, point 5).
    Path file = file();
    System.setProperty("llm.promptsFile", file.toString());
    try {
      Iterator<Map<String, Object>> feeder =
          prompts().sharedPrefix(0.5, 4).inputTokens(256).requests(3).caseId("c8").get();

      assertEquals("alpha beta", feeder.next().get("llm.text"));
      assertEquals("[{\"role\":\"user\",\"content\":\"gamma\"}]", feeder.next().get("llm.text"));
      assertEquals("delta", feeder.next().get("llm.text"));
      assertEquals(true, feeder.next().get("llm.done"));
    } finally {
      System.clearProperty("llm.promptsFile");
    }
  }

  @Test
  void theFilePropertyWithAPromptModePropertyIsRefused() throws IOException {
    Path file = file();
    System.setProperty("llm.promptsFile", file.toString());
    System.setProperty("llm.promptMode", "unique");
    try {
      assertEquals(
          "llm.promptMode: goes with generated prompts, not with the prompts file "
              + file
              + " (llm.promptsFile); expected one or the other",
          message(() -> prompts().sharedPrefix(0.5, 4).get()));
    } finally {
      System.clearProperty("llm.promptsFile");
      System.clearProperty("llm.promptMode");
    }
  }
}
