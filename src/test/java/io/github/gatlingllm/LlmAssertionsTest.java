package io.github.gatlingllm;

import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gatling.javaapi.core.Assertion;
import io.github.gatlingllm.internal.GatlingAssertions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LlmAssertions}: the LLM assertions joined with a simulation's own, in one list. */
class LlmAssertionsTest {

  private static List<String> texts(List<Assertion> assertions) {
    return assertions.stream().map(a -> GatlingAssertions.message(a.asScala())).toList();
  }

  @Test
  void theFailureBoundIsOnTheE2eFigureWhateverTheGroups() {
    assertEquals(
        List.of("chat E2E: percentage of failed events is less than 1.0"),
        texts(LlmDsl.llm().assertions(1.0, "chat")));
  }

  @Test
  void andAppendsTheSimulationsOwnInOrder() {
    LlmAssertions llm = LlmDsl.llm().assertions(1.0, "chat");
    LlmAssertions all =
        llm.and(
            global().responseTime().max().lt(100),
            details("turn", "chat").successfulRequests().percent().gt(99.0));
    assertEquals(
        List.of(
            "chat E2E: percentage of failed events is less than 1.0",
            "Global: max of response time is less than 100.0",
            "turn / chat: percentage of successful events is greater than 99.0"),
        texts(all));
    assertEquals(1, llm.size());
  }

  @Test
  void andTakesAList() {
    LlmAssertions all =
        LlmDsl.llm().assertions(1.0, "chat").and(List.of(global().failedRequests().count().is(0L)));
    assertEquals(2, all.size());
    assertEquals("Global: count of failed events is 0.0", texts(all).get(1));
  }

  @Test
  void theListCannotBeChanged() {
    LlmAssertions llm = LlmDsl.llm().assertions(1.0, "chat");
    assertThrows(
        UnsupportedOperationException.class, () -> llm.add(global().responseTime().max().lt(1)));
  }

  @Test
  void aNullAssertionIsRefused() {
    LlmAssertions llm = LlmDsl.llm().assertions(1.0, "chat");
    assertThrows(NullPointerException.class, () -> llm.and((Assertion) null));
  }

  @Test
  void aFailurePercentageOutOfRangeIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LlmDsl.failedBelow("chat", 0));
    assertEquals(
        "failed percentage bound: got 0.0, expected a percentage in (0, 100], e.g. 1.0",
        e.getMessage());
  }
}
