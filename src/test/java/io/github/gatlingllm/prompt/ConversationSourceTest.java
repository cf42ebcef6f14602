package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conversation generator: its texts and digests are the reference generator's pieces (a nonce
 * of {@code sha256("{seed}:{case_id}:{phase}:" + label)[:12]} in brackets, then its filler words),
 * so the literal values below were computed apart from this code, with Python's hashlib and the
 * reference's filler list.
 */
class ConversationSourceTest {

  private static ConversationSource source(long seed, String phase) {
    return new ConversationSource(
        EstimatedTokenCounter.INSTANCE, seed, "conv-test", phase, 8, 12, 3, 2, 6, 100, 500);
  }

  @Test
  void userMessagesAreANonceOfConversationAndTurnThenFiller() {
    ConversationSource s = source(7, "measured");
    Prompt first = s.userMessage(0, 1);
    assertEquals(
        "[d7d6b8b0e972] profile inference latency throughput memory tokens scheduler",
        first.text());
    assertEquals("428e9e0ed684a9cf", first.digest());
    assertEquals("c0-t1-d7d6b8b0e972", first.promptId());
    assertEquals(8, first.plannedCount().value());
    assertEquals("f3b5975f553e8677", s.userMessage(0, 2).digest());
    assertEquals("a9b48435342cbd6b", s.userMessage(3, 1).digest());
  }

  @Test
  void theSystemPromptIsSharedWithinItsGroup() {
    ConversationSource s = source(7, "measured");
    Prompt system = s.system(1);
    assertEquals(
        "[02ecb640cc17] profile inference latency throughput memory tokens scheduler request"
            + " streaming capacity profile",
        system.text());
    assertEquals("b7c5f17295178c5e", system.digest());
    assertEquals(1, system.prefixGroup());
    assertEquals(12, system.sharedPrefixTokens());
    assertSame(system, s.system(1));
  }

  @Test
  void turnsGroupsAndThinkTimesAreSeededDraws() {
    ConversationSource s = source(7, "measured");
    List<Integer> turns = new ArrayList<>();
    List<Integer> groups = new ArrayList<>();
    for (long c = 0; c < 5; c++) {
      ConversationSource.Script script = s.script(c);
      turns.add(script.turns());
      groups.add(script.group());
      assertEquals(s.system(script.group()).text(), script.system().text());
    }
    assertEquals(List.of(4, 4, 4, 4, 2), turns);
    assertEquals(List.of(2, 0, 2, 2, 0), groups);
    assertEquals(391, s.thinkMs(0, 1));
    assertEquals(175, s.thinkMs(0, 2));
    assertEquals(477, s.thinkMs(0, 3));
  }

  @Test
  void aConversationDigestCoversItsSentUserMessagesAndThePhaseDigestItsConversations() {
    ConversationSource s = source(7, "measured");
    assertNull(s.digest());
    String conversation =
        s.ended(0, List.of(s.userMessage(0, 1).digest(), s.userMessage(0, 2).digest()));
    assertEquals("a676da7e5709120b", conversation);
    assertEquals("4ee6d21f105721e2", s.digest());
    assertEquals(1, s.ended());
  }

  @Test
  void sameSeedSameMessagesOtherSeedOrPhaseOthers() {
    assertEquals(
        source(7, "measured").userMessage(2, 3).text(),
        source(7, "measured").userMessage(2, 3).text());
    assertNotEquals(
        source(7, "measured").userMessage(2, 3).digest(),
        source(8, "measured").userMessage(2, 3).digest());
    assertNotEquals(
        source(7, "measured").userMessage(2, 3).digest(),
        source(7, "measured").forPhase("warmup").userMessage(2, 3).digest());
    assertNotEquals(
        source(7, "measured").system(0).digest(), source(7, "warmup").system(0).digest());
  }

  @Test
  void withoutASystemPromptAScriptHasNoGroup() {
    ConversationSource s =
        new ConversationSource(
            EstimatedTokenCounter.INSTANCE, 0, "c", "measured", 64, 0, 1, 3, 3, 0, 0);
    ConversationSource.Script script = s.script(9);
    assertEquals(3, script.turns());
    assertNull(script.group());
    assertNull(script.system());
    assertEquals(0, s.thinkMs(9, 1));
  }

  @Test
  void badValuesAreNamed() {
    assertEquals(
        "turns: got 5-3, expected min <= max",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new ConversationSource(
                        EstimatedTokenCounter.INSTANCE, 0, "c", "measured", 64, 0, 1, 5, 3, 0, 0))
            .getMessage());
    assertEquals(
        "userTokens: got 0, expected >= 1",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new ConversationSource(
                        EstimatedTokenCounter.INSTANCE, 0, "c", "measured", 0, 0, 1, 1, 1, 0, 0))
            .getMessage());
    assertEquals(
        "thinkTimeMs: got 10-5, expected 0 <= min <= max milliseconds",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new ConversationSource(
                        EstimatedTokenCounter.INSTANCE, 0, "c", "measured", 64, 0, 1, 1, 1, 10, 5))
            .getMessage());
  }
}
