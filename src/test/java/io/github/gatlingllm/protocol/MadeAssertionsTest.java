package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.commons.stats.assertion.Assertion;
import io.github.gatlingllm.LlmDsl;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link MadeAssertions}: the LLM assertions a later {@code .assertions(...)} call dropped. */
class MadeAssertionsTest {

  /** Keys of their own, so the tests do not see each other's assertions. */
  private static final class KeptSimulation {}

  private static final class DroppedSimulation {}

  private static final class NoneSimulation {}

  private static final Assertion CHAT = LlmDsl.failedBelow("chat", 1.0).asScala();
  private static final Assertion SLO = LlmDsl.goodputRatio("chat", 0.9).asScala();
  private static final Assertion OWN =
      io.gatling.javaapi.core.CoreDsl.global().responseTime().max().lt(100).asScala();

  @Test
  void assertionsKeptAmongTheSimulationsAreNotDropped() {
    MadeAssertions.made(KeptSimulation.class, List.of(CHAT, SLO));
    assertEquals(List.of(), MadeAssertions.dropped(KeptSimulation.class, List.of(OWN, CHAT, SLO)));
  }

  @Test
  void assertionsMissingFromTheSimulationsAreDropped() {
    MadeAssertions.made(DroppedSimulation.class, List.of(CHAT, SLO));
    assertEquals(List.of(CHAT, SLO), MadeAssertions.dropped(DroppedSimulation.class, List.of(OWN)));
  }

  @Test
  void aSimulationThatMadeNoneDropsNone() {
    assertEquals(List.of(), MadeAssertions.dropped(NoneSimulation.class, List.of()));
  }

  @Test
  void outsideASimulationNothingIsNoted() {
    MadeAssertions.made(null, List.of(CHAT));
    assertEquals(List.of(), MadeAssertions.dropped(null, List.of()));
  }

  @Test
  void theErrorNamesTheDroppedAssertionsAndTheWayToKeepThem() {
    assertEquals(
        "llm.assertions(...): 1 of its assertions is not in setUp(...)'s (chat E2E: percentage of"
            + " failed events is less than 1.0): a later .assertions(...) call replaced them"
            + " (Gatling keeps only the last call); put all in one call:"
            + " .assertions(llm.assertions(1.0, \"chat\").and(yourAssertions...))",
        MadeAssertions.describe(List.of("chat E2E: percentage of failed events is less than 1.0")));
  }
}
