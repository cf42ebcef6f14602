package io.github.gatlingllm.protocol;

import io.gatling.core.CoreComponents;
import io.github.gatlingllm.internal.GatlingAssertions;
import io.github.gatlingllm.internal.GatlingInjection;
import io.github.gatlingllm.record.Assertions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The simulation's Gatling assertions, at both ends of a run: before any load, that a
 * later {@code setUp(...).assertions(...)} call did not drop those {@code llm.assertions(...)}
 * made; at the end, Gatling's own verdict on each of them, for the run record ({@code
 * assertions_verdict}, {@code assertion_results}), the report page and the console summary.
 */
final class AssertionCheck {

  private static final Logger LOG = LoggerFactory.getLogger(AssertionCheck.class);

  private final CoreComponents core;
  private final List<io.gatling.commons.stats.assertion.Assertion> assertions;

  AssertionCheck(
      CoreComponents core, List<io.gatling.commons.stats.assertion.Assertion> assertions) {
    this.core = core;
    this.assertions = assertions;
  }

  /**
   * Reads the simulation's assertions and checks that none {@code llm.assertions(...)} made was
   * dropped.
   *
   * @param core Gatling's core components, never null
   * @param simulation the simulation class, or null when unknown
   * @return the check, whose assertions are null (with a warning) when Gatling's cannot be read
   * @throws IllegalArgumentException naming the dropped assertions
   */
  static AssertionCheck start(CoreComponents core, Class<?> simulation) {
    List<io.gatling.commons.stats.assertion.Assertion> read;
    try {
      read = GatlingInjection.assertions(core);
    } catch (RuntimeException e) {
      LOG.warn(
          "Gatling's assertions cannot be read, so the LLM report cannot say whether they pass: {}",
          e.toString());
      return new AssertionCheck(core, null);
    }
    List<io.gatling.commons.stats.assertion.Assertion> dropped =
        MadeAssertions.dropped(simulation, read);
    if (!dropped.isEmpty()) {
      List<String> texts = new ArrayList<>();
      for (io.gatling.commons.stats.assertion.Assertion a : dropped) {
        texts.add(GatlingAssertions.message(a));
      }
      throw new IllegalArgumentException(MadeAssertions.describe(texts));
    }
    return new AssertionCheck(core, read);
  }

  /**
   * Gatling's verdict on the simulation's assertions, as record fields: {@code assertions_verdict}
   * ({@link Assertions#PASSED}, {@link Assertions#FAILED} or {@link Assertions#NOT_CHECKED}: the
   * record's {@link Assertions} block), with {@code assertion_results} (one map per result: {@code
   * assertion}, {@code passed}, {@code actual}, {@code error}) when checked, or {@code
   * assertions_not_checked} (why) when not. Nothing when the simulation has no assertion.
   *
   * @param runFolder Gatling's run folder, or null when not found
   * @param cut why the run's log may be incomplete, or null when Gatling closed it: {@link
   *     RunEnd.Reason#INTERRUPTED} (Ctrl+C or SIGTERM: Gatling checks nothing either), {@link
   *     RunEnd.Reason#CRASHED} (nor after a crash), any other (Gatling checks them itself)
   * @return the fields, in order; empty when there is no assertion
   */
  Map<String, Object> toRecord(Path runFolder, RunEnd.Reason cut) {
    if (assertions != null && assertions.isEmpty()) {
      return new LinkedHashMap<>();
    }
    String why = null;
    if (assertions == null) {
      why = "Gatling's assertions could not be read: see Gatling's own lines after this run's";
    } else if (cut == RunEnd.Reason.INTERRUPTED) {
      why =
          "the run was stopped by Ctrl+C or SIGTERM before Gatling closed its log, and Gatling"
              + " checks no assertion of a run so stopped";
    } else if (cut == RunEnd.Reason.CRASHED) {
      why = "the run crashed, and Gatling checks no assertion of a crashed run";
    } else if (cut != null) {
      why =
          "the run was cut ("
              + cut.wireName()
              + ") before Gatling closed its log: see Gatling's own lines after this run's";
    } else if (runFolder == null) {
      why = "Gatling's run folder was not found: see Gatling's own lines after this run's";
    }
    List<GatlingAssertions.Verdict> verdicts = null;
    if (why == null) {
      try {
        verdicts = GatlingAssertions.evaluate(core, runFolder, assertions);
      } catch (RuntimeException e) {
        why =
            "Gatling's simulation.log could not be read ("
                + e.getMessage()
                + "): see Gatling's own lines after this run's";
      }
    }
    if (verdicts == null) {
      return Assertions.notChecked(why).fields();
    }
    List<Assertions.Result> results = new ArrayList<>();
    for (GatlingAssertions.Verdict v : verdicts) {
      results.add(new Assertions.Result(v.assertion(), v.passed(), v.actual(), v.error()));
    }
    return Assertions.checked(results).fields();
  }
}
