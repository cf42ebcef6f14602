package io.github.gatlingllm;

import static io.github.gatlingllm.LlmDsl.llm;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.javaapi.core.Assertion;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LlmProtocolBuilder#assertions}: each setting adds its own assertion and nothing else; the
 * level attainment ({@code llm.slo.levelAttainment}) adds none, so a stepped run meant to cross the
 * knee is judged by {@code llm.assert.sloLoadAtLeast} alone (issue 29 point 6).
 */
class LlmProtocolBuilderAssertionsTest {

  private static List<Object> scala(List<Assertion> assertions) {
    return assertions.stream().map(a -> (Object) a.asScala()).toList();
  }

  @Test
  void aSteppedRunsLevelAttainmentAddsNoWholeRunAssertion() {
    LlmProtocolBuilder llm = llm().sloTtftMs(300).sloLevelAttainment(0.9).sloLoadAtLeast(4);
    assertEquals(
        scala(List.of(LlmDsl.failedBelow("chat", 1.0), LlmDsl.sloLoadMet())),
        scala(llm.assertions(1.0, "chat")));
  }

  @Test
  void theGoodputRatioIsTheWholeRunsAssertionWhenAskedFor() {
    LlmProtocolBuilder llm = llm().sloTtftMs(300).goodputRatio(0.95).sloLoadAtLeast(4);
    assertEquals(
        scala(
            List.of(
                LlmDsl.failedBelow("chat", 1.0),
                LlmDsl.goodputRatio("chat", 0.95),
                LlmDsl.sloLoadMet())),
        scala(llm.assertions(1.0, "chat")));
  }
}
