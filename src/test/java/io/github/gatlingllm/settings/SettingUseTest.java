package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.settings.SettingUse.Part;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Which {@code -Dllm.*} properties no part of a run reads (issue 40, item 6): each part of the DSL
 * reads its own settings; a property of no part in the run is said once.
 */
class SettingUseTest {

  private static Properties properties(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static SettingUse run(Part... parts) {
    SettingUse use = new SettingUse();
    for (Part part : parts) {
      use.made(part);
    }
    return use;
  }

  @Test
  void concurrencyOnAnOpenLoopIsUnused() {
    assertEquals(
        List.of("llm.concurrency"),
        run(Part.PROTOCOL, Part.PROMPTS).unused(properties("llm.concurrency", "4")));
  }

  @Test
  void concurrencyIsReadByTheUsers() {
    assertEquals(
        List.of(),
        run(Part.PROTOCOL, Part.PROMPTS, Part.USERS).unused(properties("llm.concurrency", "4")));
  }

  @Test
  void concurrencyIsReadByADefaultCaseId() {
    SettingUse use = run(Part.PROTOCOL, Part.PROMPTS);
    use.read("concurrency");
    assertEquals(List.of(), use.unused(properties("llm.concurrency", "4")));
  }

  @Test
  void requestsBesideConversationsIsUnused() {
    assertEquals(
        List.of("llm.inputTokens", "llm.requests"),
        run(Part.PROTOCOL, Part.CONVERSATIONS)
            .unused(
                properties(
                    "llm.requests", "50", "llm.inputTokens", "100", "llm.conversations", "4")));
  }

  @Test
  void simulatorSettingBesideABaseUrlIsUnused() {
    assertEquals(
        List.of("llm.simulator.maxConcurrent"),
        run(Part.PROTOCOL, Part.PROMPTS)
            .unused(
                properties(
                    "llm.simulator.maxConcurrent", "8", "llm.baseUrl", "http://127.0.0.1:8/v1")));
  }

  @Test
  void simulatorSettingIsReadByTheSimulator() {
    assertEquals(
        List.of(),
        run(Part.PROTOCOL, Part.PROMPTS, Part.SIMULATOR)
            .unused(properties("llm.simulator.maxConcurrent", "8")));
  }

  @Test
  void aDslAliasIsItsSetting() {
    assertEquals(
        List.of(),
        run(Part.PROTOCOL).unused(properties("llm.maxTokens", "8", "llm.sloTtftMs", "9")));
  }

  @Test
  void theProtocolReadsTheTokenizerAndTheSeed() {
    assertEquals(
        List.of(),
        run(Part.PROTOCOL).unused(properties("llm.tokenizer", "estimate", "llm.seed", "3")));
  }

  @Test
  void aPromptFileReadsNoGeneratedShape() {
    assertEquals(
        List.of("llm.inputTokens"),
        run(Part.PROTOCOL, Part.PROMPT_FILE)
            .unused(properties("llm.inputTokens", "100", "llm.promptsColumn", "text")));
  }

  @Test
  void agentSettingsWithoutAgentsAreUnused() {
    assertEquals(
        List.of("llm.agent.sessions", "llm.responses.history", "llm.sessionHeader"),
        run(Part.PROTOCOL, Part.PROMPTS)
            .unused(
                properties(
                    "llm.agent.sessions",
                    "3",
                    "llm.sessionHeader",
                    "X-S",
                    "llm.responses.history",
                    "client")));
  }

  @Test
  void otherPropertiesArePassedOver() {
    assertEquals(
        List.of(), run().unused(properties("gatling.x", "1", "java.home", "/j", "llmx", "1")));
  }

  @Test
  void theLineNamesEachPropertyItsValueAndItsReader() {
    assertEquals(
        "-Dllm.concurrency=4 (read by the users of a closed loop, concurrency(n)) is set, but"
            + " nothing in this run reads it: it changes nothing (every setting and what reads it:"
            + " docs/settings.md)",
        run(Part.PROTOCOL, Part.PROMPTS).unusedLineOnce(properties("llm.concurrency", "4")));
  }

  @Test
  void theLineForSeveralNamesEach() {
    assertEquals(
        "-Dllm.requests=50 (read by prompts() or prompts().fromFile(...) or llm.promptsFile),"
            + " -Dllm.trace.timeScale=2 (read by trace(...)) are set, but nothing in this run"
            + " reads them: they change nothing (every setting and what reads it:"
            + " docs/settings.md)",
        run(Part.PROTOCOL, Part.AGENTS)
            .unusedLineOnce(properties("llm.requests", "50", "llm.trace.timeScale", "2")));
  }

  @Test
  void theLineIsMadeOnce() {
    SettingUse use = run(Part.PROTOCOL);
    Properties p = properties("llm.concurrency", "4");
    use.unusedLineOnce(p);
    assertNull(use.unusedLineOnce(p));
  }

  @Test
  void noLineWhenEverySettingIsRead() {
    assertNull(
        run(Part.PROTOCOL, Part.PROMPTS, Part.USERS)
            .unusedLineOnce(properties("llm.concurrency", "4", "llm.requests", "9")));
  }

  @Test
  void concurrencyFromTheProperty() {
    SettingUse use = new SettingUse();
    assertEquals(16, use.concurrency(properties("llm.concurrency", " 16 "), 8));
    assertEquals(List.of(), use.unused(properties("llm.concurrency", "16")));
  }

  @Test
  void concurrencyDefaultsToTheSimulations() {
    assertEquals(8, new SettingUse().concurrency(properties(), 8));
  }

  @Test
  void concurrencyNotANumber() {
    assertEquals(
        "llm.concurrency: got \"many\", expected a whole number",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SettingUse().concurrency(properties("llm.concurrency", "many"), 8))
            .getMessage());
  }

  @Test
  void concurrencyZero() {
    assertEquals(
        "llm.concurrency: got 0, expected a whole number >= 1",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SettingUse().concurrency(properties("llm.concurrency", "0"), 8))
            .getMessage());
  }
}
