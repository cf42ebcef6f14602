package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

class SloLoadCheckTest {

  private static final List<Injection> SWEEP =
      List.of(
          new Injection(
              "chat",
              true,
              List.of(
                  new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 2_000, null),
                  new Step(Type.CONSTANT_CONCURRENT_USERS, 2, 2, 2_000, null),
                  new Step(Type.CONSTANT_CONCURRENT_USERS, 4, 4, 2_000, null)),
              List.of()));

  @Test
  void unsetIsNeverChecked() {
    assertNull(SloLoadCheck.check(null, List.of(), SWEEP));
  }

  @Test
  void aBoundWithoutTheSloLoadAssertionIsRefused() {
    assertEquals(
        "llm.assert.sloLoadAtLeast: got 2, but setUp(...) has no assertion on the SLO LOAD row, so"
            + " the run would pass whatever load meets the SLO: add llm.assertions(...) to setUp"
            + " (setUp(...).protocols(llm).assertions(llm.assertions(1.0, \"chat\"))), or"
            + " LlmDsl.sloLoadMet() to its assertions",
        assertThrows(
                IllegalArgumentException.class,
                () -> SloLoadCheck.check(2.0, List.of(List.of("chat")), SWEEP))
            .getMessage());
  }

  @Test
  void aBoundWithItsAssertionPassesOrWarnsWhenAboveTheTopLevel() {
    List<List<String>> asserted = List.of(List.of("chat"), List.of("SLO LOAD"));
    assertNull(SloLoadCheck.check(4.0, asserted, SWEEP));
    assertEquals(
        "llm.assert.sloLoadAtLeast 5 is above the highest load level of the injection profiles"
            + " (4): the run cannot show that load meeting the SLO, so its SLO LOAD assertion will"
            + " fail; raise the sweep's top level (llm.sweep.maxConcurrency) or lower the bound",
        SloLoadCheck.check(5.0, asserted, SWEEP));
  }

  @Test
  void unreadableAssertionsAreNotRefused() {
    assertNull(SloLoadCheck.check(2.0, null, SWEEP));
  }
}
