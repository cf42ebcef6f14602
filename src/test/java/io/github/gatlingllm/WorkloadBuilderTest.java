package io.github.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** What the prompt and conversation feeder builders share, through each of them. */
class WorkloadBuilderTest {

  @Test
  void aBlankPromptsNameIsRefusedNamingTheCall() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LlmDsl.prompts().name(" "));
    assertEquals("prompts().name: got \" \", expected a name", e.getMessage());
  }

  @Test
  void aNullConversationsNameIsRefusedNamingTheCall() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LlmDsl.conversations().name(null));
    assertEquals("conversations().name: got null, expected a name", e.getMessage());
  }

  @Test
  void sharedSettersKeepTheBuildersTypeAndValues() {
    PromptFeederBuilder prompts =
        LlmDsl.prompts().seed(7).caseId("case").tokenizer("estimate").name("chat").inputTokens(64);
    io.github.gatlingllm.settings.LlmSettings s = prompts.settings();
    assertEquals(7L, s.seed());
    assertEquals("case", s.caseId());
    assertEquals(64, s.inputTokens());
    assertEquals(true, prompts.toString().startsWith("prompts(){"), prompts.toString());
    assertEquals(true, prompts.toString().endsWith("} named chat"), prompts.toString());
  }

  @Test
  void aBadValueIsRefusedWhenSetNamingTheSetting() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LlmDsl.conversations().turns(0));
    assertEquals(true, e.getMessage().contains("turns"), e.getMessage());
  }

  @Test
  void theWorkloadIsMadeOncePerBuilder() {
    ConversationFeederBuilder chats = LlmDsl.conversations().conversations(2).name("once");
    try {
      assertSame(chats.workload(), chats.workload());
    } finally {
      chats.workload().close();
    }
  }

  @Test
  void twoPromptWorkloadsCannotShareAName() {
    PromptFeederBuilder first = LlmDsl.prompts().inputTokens(64).requests(5).name("same");
    try {
      first.workload();
      PromptFeederBuilder second = LlmDsl.prompts().inputTokens(512).requests(7).name("same");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, second::workload);
      assertEquals(
          true,
          e.getMessage()
              .startsWith(
                  "prompts().name: got \"same\", which another workload of this run has, expected"
                      + " a name of its own"),
          e.getMessage());
    } finally {
      first.workload().close();
    }
  }

  @Test
  void anUnnamedPromptWorkloadWhoseDefaultIsTakenGetsASuffix() {
    PromptFeederBuilder first = LlmDsl.prompts().unique().inputTokens(64).requests(5);
    PromptFeederBuilder second = LlmDsl.prompts().unique().inputTokens(64).requests(5);
    try {
      assertEquals("unique", first.workload().name());
      assertEquals("unique-2", second.workload().name());
    } finally {
      first.workload().close();
      second.workload().close();
    }
  }

  @Test
  void aWorkloadThatCannotBeMadeThrowsItsOneLineAndPrintsNothingItself() {
    java.io.PrintStream out = System.out;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    IllegalArgumentException e;
    try {
      System.setOut(
          new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
      e =
          assertThrows(
              IllegalArgumentException.class,
              () -> LlmDsl.trace("/no/such/dir/trace.jsonl").rows());
    } finally {
      System.setOut(out);
    }

    assertEquals(
        "llm.trace: /no/such/dir/trace.jsonl is not a readable file (expected Mooncake-format JSONL)",
        e.getMessage());
    // The line is printed once, by internal/OneLineErrors when Gatling's launcher logs the refusal
    // (it came twice when the builder printed it too).
    assertEquals("", printed.toString(java.nio.charset.StandardCharsets.UTF_8));
  }
}
