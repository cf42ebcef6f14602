package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AgentSpecTest {

  private static String refused(
      int tools, int toolResultTokens, int toolCalls, long minMs, long maxMs, String choice) {
    return assertThrows(
            IllegalArgumentException.class,
            () ->
                new AgentSpec(
                    tools, 8, 16, 0, 1, toolResultTokens, toolCalls, minMs, maxMs, choice, null))
        .getMessage();
  }

  @Test
  void negativeLoopsRefused() {
    assertEquals("toolCalls: got -1, expected >= 0", refused(4, 16, -1, 0, 0, "auto"));
  }

  @Test
  void zeroToolResultTokensRefused() {
    assertEquals("toolResultTokens: got 0, expected >= 1", refused(4, 0, 2, 0, 0, "auto"));
  }

  @Test
  void negativeToolLatencyRefused() {
    assertEquals(
        "toolLatencyMs: got -5-10, expected 0 <= min <= max milliseconds",
        refused(4, 16, 2, -5, 10, "auto"));
  }

  @Test
  void toolLatencyMinAboveMaxRefused() {
    assertEquals(
        "toolLatencyMs: got 20-10, expected 0 <= min <= max milliseconds",
        refused(4, 16, 2, 20, 10, "auto"));
  }

  @Test
  void unknownToolChoiceRefused() {
    assertEquals(
        "toolChoice: got 'always', expected auto, required or none",
        refused(4, 16, 2, 0, 0, "always"));
  }

  @Test
  void requiredWithoutToolsRefused() {
    assertEquals(
        "toolChoice: got 'required' with tools 0, expected at least 1 tool to require a call of",
        refused(0, 16, 2, 0, 0, "required"));
  }

  @Test
  void toolChoiceReadWithoutCaseOrSpaces() {
    assertEquals(
        "required", new AgentSpec(4, 8, 16, 0, 1, 16, 2, 0, 0, " Required ", null).toolChoice());
  }

  @Test
  void zeroContextWindowRefused() {
    assertEquals(
        "maxContextTokens: got 0, expected >= 1 or unset",
        assertThrows(
                IllegalArgumentException.class,
                () -> new AgentSpec(4, 8, 16, 0, 1, 16, 2, 0, 0, "auto", 0))
            .getMessage());
  }

  @Test
  void defaultCaseIdNamesLoopsResultAndTask() {
    assertEquals("agent_l4_r256_t128", AgentSpec.defaults().defaultCaseId());
  }
}
