package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.ConversationFeederBuilder;
import io.github.gatlingllm.LlmDsl;
import io.github.gatlingllm.feeder.ConversationWorkload;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** {@link ConversationSettings} and the checks of {@link ConversationFeederBuilder}. */
class ConversationSettingsTest {

  private static ConversationSettings settings(Map<String, String> values, String... properties) {
    Properties p = new Properties();
    for (int i = 0; i < properties.length; i += 2) {
      p.setProperty("llm." + properties[i], properties[i + 1]);
    }
    return ConversationSettings.from(p, values);
  }

  private static String rejected(Executable call) {
    return assertThrows(IllegalArgumentException.class, call).getMessage();
  }

  @Test
  void defaults() {
    assertEquals(
        new ConversationSettings(
            10, 0, 4, 4, 128, 0, 1, 0, 0, null, "conv_t4_u128", 0, false, "estimate"),
        settings(Map.of()));
  }

  @Test
  void rangesAndPropertiesOverValues() {
    ConversationSettings s =
        settings(
            Map.of("turns", "3", "userTokens", "64", "thinkTimeMs", "1000-3000"),
            "turns",
            "2-6",
            "systemTokens",
            "512",
            "systemGroups",
            "4",
            "maxContextTokens",
            "4096",
            "seed",
            "42");
    assertEquals(
        new ConversationSettings(
            10, 0, 2, 6, 64, 512, 4, 1000, 3000, 4096, "conv_t2-6_u64", 42, false, "estimate"),
        s);
  }

  @Test
  void badValuesNameTheSettingTheValueAndWhatIsAllowed() {
    assertEquals(
        "llm.turns: got \"abc\", expected a whole number of turns >= 1, or MIN-MAX (2-6)",
        rejected(() -> settings(Map.of(), "turns", "abc")));
    assertEquals(
        "llm.turns: got \"6-2\", expected a whole number of turns >= 1, or MIN-MAX (2-6)",
        rejected(() -> settings(Map.of("turns", "6-2"))));
    assertEquals(
        "llm.thinkTimeMs: got \"-5\", expected milliseconds >= 0, or MIN-MAX milliseconds"
            + " (1000-3000) drawn uniformly",
        rejected(() -> settings(Map.of("thinkTimeMs", "-5"))));
    assertEquals(
        "llm.conversations: got \"0\", expected a whole number >= 1",
        rejected(() -> settings(Map.of(), "conversations", "0")));
    assertEquals(
        "llm.maxContextTokens: got 600, expected at least 657 (the first turn's system prompt 512"
            + " + user message 128 + template allowance 16 + 1 token of reply), or no conversation"
            + " gets past its first turn",
        rejected(
            () -> settings(Map.of("systemTokens", "512", "maxContextTokens", "600")).checked()));
  }

  @Test
  void theContextWindowIsCheckedOnTheFinalSettingsInAnyOrder() {
    assertEquals(
        100,
        LlmDsl.conversations()
            .maxContextTokens(100)
            .userTokens(32)
            .settings()
            .checked()
            .maxContextTokens());
    assertEquals(
        100,
        LlmDsl.conversations()
            .userTokens(32)
            .maxContextTokens(100)
            .settings()
            .checked()
            .maxContextTokens());
    assertEquals(
        32, settings(Map.of("userTokens", "32"), "maxContextTokens", "100").checked().userTokens());
    assertEquals(
        "llm.maxContextTokens: got 100, expected at least 145 (the first turn's system prompt 0"
            + " + user message 128 + template allowance 16 + 1 token of reply), or no conversation"
            + " gets past its first turn",
        rejected(() -> LlmDsl.conversations().maxContextTokens(100).get()));
  }

  @Test
  void theFirstTurnMustFitWithTheTemplateAllowanceAndMaxTokens() {
    assertEquals(
        "llm.maxContextTokens: got 40, expected at least 64 (the first turn's system prompt 0 +"
            + " user message 32 + template allowance 16 + max_tokens 16), or no conversation gets"
            + " past its first turn",
        ConversationWorkload.contextMisfit(40, 0, 32, 16));
    assertEquals(null, ConversationWorkload.contextMisfit(64, 0, 32, 16));
    assertEquals(null, ConversationWorkload.contextMisfit(null, 0, 32, 16));
    assertEquals(
        "llm.maxContextTokens: got 63, expected at least 64 (the first turn's system prompt 0 +"
            + " user message 32 + template allowance 16 + max_tokens 16), or no conversation gets"
            + " past its first turn",
        ConversationWorkload.contextMisfit(63, 0, 32, 16));
  }

  @Test
  void theBuilderChecksEachValueWhenSet() {
    ConversationFeederBuilder b = LlmDsl.conversations();
    assertEquals(
        "llm.turns: got \"0\", expected a whole number of turns >= 1, or MIN-MAX (2-6)",
        rejected(() -> b.turns(0)));
    assertEquals(
        "llm.turns: got \"5-3\", expected a whole number of turns >= 1, or MIN-MAX (2-6)",
        rejected(() -> b.turns(5, 3)));
    assertEquals(
        "llm.userTokens: got \"0\", expected a whole number >= 1", rejected(() -> b.userTokens(0)));
    assertEquals(
        "conversations().systemPrompt: got 0 tokens, expected >= 1",
        rejected(() -> b.systemPrompt(0, 2)));
    assertEquals(
        "llm.systemGroups: got \"0\", expected a whole number >= 1",
        rejected(() -> b.systemPrompt(64, 0)));
    assertEquals(
        "llm.thinkTimeMs: got \"500-100\", expected milliseconds >= 0, or MIN-MAX milliseconds"
            + " (1000-3000) drawn uniformly",
        rejected(() -> b.thinkTime(Duration.ofMillis(500), Duration.ofMillis(100))));
    assertEquals("conversations().name: got \" \", expected a name", rejected(() -> b.name(" ")));
    assertEquals(
        "conversation(llm(\"chat\")...): a conversation sends its own messages (the fed"
            + " conversation's turns); remove .prompt(...) from this request",
        rejected(() -> LlmDsl.conversation(LlmDsl.llm("chat").chatCompletion().prompt("hi"))));
    assertEquals(
        new ConversationSettings(
            12, 2, 2, 5, 96, 256, 3, 100, 400, 8192, "mine", 9, false, "estimate"),
        b.turns(2, 5)
            .userTokens(96)
            .systemPrompt(256, 3)
            .thinkTime(Duration.ofMillis(100), Duration.ofMillis(400))
            .conversations(12)
            .warmup(2)
            .maxContextTokens(8192)
            .seed(9)
            .caseId("mine")
            .settings());
  }

  @Test
  void unnamedWorkloadsAreNamedApartAndADuplicateNameIsRefused() {
    ConversationFeederBuilder a = LlmDsl.conversations().seed(1);
    ConversationFeederBuilder b = LlmDsl.conversations().seed(2);
    ConversationFeederBuilder named = LlmDsl.conversations().name("mine");
    try {
      a.get();
      b.get();
      named.get();
      assertEquals("conversations", a.workload().name());
      assertEquals("conversations-2", b.workload().name());
      assertEquals(
          "conversations().name: got \"mine\", which another conversations() workload of this run"
              + " has, expected a name of its own (each workload is one entry of llm-run.json's"
              + " conversations)",
          rejected(() -> LlmDsl.conversations().seed(3).name("mine").get()));
    } finally {
      a.workload().close();
      b.workload().close();
      named.workload().close();
    }
  }
}
