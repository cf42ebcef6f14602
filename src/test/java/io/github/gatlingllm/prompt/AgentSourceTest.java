package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent session generator: its texts are the reference generator's pieces (a nonce of {@code
 * sha256("{seed}:{case_id}:{phase}:" + label)[:12]} in brackets, then its filler words), so the
 * literal values below were computed apart from this code, with Python's hashlib.
 */
class AgentSourceTest {

  private static AgentSpec spec(int toolCalls, Integer maxContextTokens) {
    return new AgentSpec(3, 4, 6, 10, 3, 5, toolCalls, 100, 500, "auto", maxContextTokens);
  }

  private static AgentSource source(String phase) {
    return new AgentSource(spec(4, null), EstimatedTokenCounter.INSTANCE, 7, "agent-test", phase);
  }

  @Test
  void theTaskIsANonceOfTheSessionThenFiller() {
    Prompt task = source("measured").script(0).task();
    assertEquals("[2a755a10016d] profile inference latency throughput memory", task.text());
    assertEquals("5bed3fec784fdd30", task.digest());
    assertEquals("a0-task-2a755a10016d", task.promptId());
    assertEquals(6, task.plannedCount().value());
  }

  @Test
  void aToolResultIsANonceOfSessionLoopAndCallThenFiller() {
    Prompt result = source("measured").toolResult(0, 2, 1);
    assertEquals("[a8a0f1f5f9f6] profile inference latency throughput", result.text());
    assertEquals("946ea558a1ba5401", result.digest());
    assertEquals("a0-l2-c1-a8a0f1f5f9f6", result.promptId());
    assertEquals(5, result.plannedCount().value());
  }

  @Test
  void theSystemPromptIsSharedWithinItsGroup() {
    AgentSource s = source("measured");
    Prompt system = s.system(1);
    assertEquals(
        "[a43cd9f553c3] profile inference latency throughput memory tokens scheduler request"
            + " streaming",
        system.text());
    assertEquals("5f979347a3b34f17", system.digest());
    assertEquals(1, system.prefixGroup());
    assertSame(system, s.system(1));
  }

  @Test
  void groupsAreSeededDraws() {
    AgentSource s = source("measured");
    List<Integer> groups = new ArrayList<>();
    for (long i = 0; i < 5; i++) {
      groups.add(s.script(i).group());
    }
    assertEquals(List.of(0, 1, 2, 0, 2), groups);
  }

  @Test
  void toolLatenciesAreSeededDrawsInTheRange() {
    AgentSource s = source("measured");
    assertEquals(402, s.toolLatencyMs(0, 1));
    assertEquals(438, s.toolLatencyMs(0, 2));
    assertEquals(110, s.toolLatencyMs(0, 3));
  }

  @Test
  void aFixedToolLatencyIsNoDraw() {
    AgentSpec fixed = new AgentSpec(3, 4, 6, 0, 1, 5, 4, 250, 250, "auto", null);
    AgentSource s = new AgentSource(fixed, EstimatedTokenCounter.INSTANCE, 7, "agent-test", "m");
    assertEquals(250, s.toolLatencyMs(3, 2));
  }

  @Test
  void withoutASystemPromptNoGroup() {
    AgentSpec none = new AgentSpec(3, 4, 6, 0, 1, 5, 4, 0, 0, "auto", null);
    AgentSource.Script script =
        new AgentSource(none, EstimatedTokenCounter.INSTANCE, 7, "agent-test", "measured")
            .script(0);
    assertNull(script.group());
    assertNull(script.system());
    assertEquals(
        "[2a755a10016d] profile inference latency throughput memory", script.task().text());
  }

  @Test
  void anotherPhaseHasItsOwnTextsAndTheSameTools() {
    AgentSource measured = source("measured");
    AgentSource warmup = measured.forPhase("warmup");
    assertNotEquals(measured.script(0).task().text(), warmup.script(0).task().text());
    assertNotEquals(measured.toolResult(0, 1, 0).text(), warmup.toolResult(0, 1, 0).text());
    assertSame(measured.tools(), warmup.tools());
  }

  @Test
  void theToolsAreTheCatalogOfSeedAndCase() {
    assertEquals("7f46e3af4ab15235", source("measured").tools().digest());
  }

  @Test
  void sessionAndPhaseDigests() {
    AgentSource s = source("measured");
    assertNull(s.digest());
    String session =
        s.ended(0, List.of(s.script(0).task().digest(), s.toolResult(0, 1, 0).digest()));
    assertEquals(
        ConversationSource.conversationDigest(
            List.of("5bed3fec784fdd30", s.toolResult(0, 1, 0).digest())),
        session);
    assertEquals(1, s.ended());
    assertEquals(16, s.digest().length());
  }

  @Test
  void loopZeroRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> source("m").toolResult(0, 0, 0));
    assertEquals("tool result: got loop 0, call 0, expected loop >= 1, call >= 0", e.getMessage());
  }

  @Test
  void laterTurnTokensAddThePreviousPromptReplyAndEachResult() {
    assertEquals(1000 + 40 + 2 * (5 + 8), spec(4, null).laterTurnTokens(1000, 40, 2));
  }

  @Test
  void firstTurnTokensAddSystemToolsAndTask() {
    assertEquals(10 + 300 + 6, spec(4, null).firstTurnTokens(300));
  }

  @Test
  void aTurnThatFitsTheWindowExactlyIsSent() {
    assertFalse(spec(4, 1000).exceeds(1000 - 16 - 64, 64));
  }

  @Test
  void aTurnOneTokenOverTheWindowIsNot() {
    assertTrue(spec(4, 1000).exceeds(1000 - 16 - 64 + 1, 64));
  }

  @Test
  void noWindowNeverExceeds() {
    assertFalse(spec(4, null).exceeds(Integer.MAX_VALUE, 64));
  }
}
