package io.github.gatlingllm.protocol;

import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.LoadLevel;
import java.util.List;

/**
 * Not API. Checks {@code llm.assert.sloLoadAtLeast} against the simulation before any load: the
 * bound is only enforced by an assertion on the {@value LlmDsl#SLO_LOAD_ROW} row ({@code
 * llm.assertions(...)} adds it), so a bound without one would end the run with exit code 0 whatever
 * the load; and a bound above the highest level of the profile can never be met.
 */
final class SloLoadCheck {

  private SloLoadCheck() {}

  /**
   * Checks the bound.
   *
   * @param bound {@code llm.assert.sloLoadAtLeast}, or null when unset
   * @param assertedPaths the request paths of the simulation's {@code details(...)} assertions, or
   *     null when they cannot be read
   * @param injections every scenario's profile (empty when unknown)
   * @return a warning when the bound is above the highest level of every profile, else null
   * @throws IllegalArgumentException naming the setting when no assertion reads the {@value
   *     LlmDsl#SLO_LOAD_ROW} row
   */
  static String check(Double bound, List<List<String>> assertedPaths, List<Injection> injections) {
    if (bound == null) {
      return null;
    }
    if (assertedPaths != null
        && assertedPaths.stream().noneMatch(p -> p.equals(List.of(LlmProtocol.SLO_LOAD_ROW)))) {
      throw new IllegalArgumentException(
          "llm.assert.sloLoadAtLeast: got "
              + LoadLevel.describeNumber(bound)
              + ", but setUp(...) has no assertion on the "
              + LlmProtocol.SLO_LOAD_ROW
              + " row, so the run would pass whatever load meets the SLO: add llm.assertions(...)"
              + " to setUp (setUp(...).protocols(llm).assertions(llm.assertions(1.0, \"chat\"))),"
              + " or LlmDsl.sloLoadMet() to its assertions");
    }
    double highest = 0;
    boolean any = false;
    for (Injection i : injections) {
      for (Injection.Step step : i.steps()) {
        if (LoadLevel.isLevel(step)) {
          highest = Math.max(highest, step.to());
          any = true;
        }
      }
    }
    if (any && bound > highest) {
      return "llm.assert.sloLoadAtLeast "
          + LoadLevel.describeNumber(bound)
          + " is above the highest load level of the injection profiles ("
          + LoadLevel.describeNumber(highest)
          + "): the run cannot show that load meeting the SLO, so its SLO LOAD assertion will"
          + " fail; raise the sweep's top level (llm.sweep.maxConcurrency) or lower the bound";
    }
    return null;
  }
}
