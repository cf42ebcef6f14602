package io.github.gatlingllm.internal;

import io.gatling.charts.stats.LogFileData;
import io.gatling.charts.stats.LogFileReader;
import io.gatling.commons.stats.assertion.Assertion;
import io.gatling.core.CoreComponents;
import io.gatling.shared.model.assertion.AssertionMessage;
import io.gatling.shared.model.assertion.AssertionResult;
import io.gatling.shared.model.assertion.AssertionValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import scala.jdk.javaapi.CollectionConverters;

/**
 * For internal use only. Gatling 3.16's own verdict on a simulation's assertions, computed the way
 * Gatling computes it after the run ({@code RunResultProcessor}): its {@code LogFileReader} reads
 * the run folder's {@code simulation.log} and its {@code AssertionValidator} resolves each
 * assertion. Gatling's stats engine has closed the log before the actor system terminates, so the
 * verdict is complete when the run's termination tasks run, before Gatling prints it. Looked up in
 * one place, with {@code GatlingInternalsTest} failing when an upgrade moves it.
 */
public final class GatlingAssertions {

  /**
   * One assertion's verdict.
   *
   * @param assertion Gatling's text of the assertion, as its console prints it, e.g. {@code chat
   *     E2E: percentage of failed events is less than 1.0}
   * @param passed whether it holds
   * @param actual the figure it was checked against (a percentage, a count, milliseconds or
   *     requests per second), or null when Gatling could not resolve it
   * @param error why it could not be resolved (e.g. {@code Could not find stats matching assertion
   *     path List(chat)}), or null
   */
  public record Verdict(String assertion, boolean passed, Double actual, String error) {}

  private GatlingAssertions() {}

  /**
   * Gatling's text of an assertion, as its console prints it.
   *
   * @param assertion the assertion, never null
   * @return e.g. {@code Global: max of response time is less than 100.0}
   */
  public static String message(Assertion assertion) {
    return AssertionMessage.message(Objects.requireNonNull(assertion, "assertion"));
  }

  /**
   * Evaluates assertions on a finished run folder exactly as Gatling does after the run.
   *
   * @param core the run's core components (for Gatling's configuration), never null
   * @param runFolder Gatling's run folder, holding a complete {@code simulation.log}, never null
   * @param assertions the assertions, never null
   * @return one verdict per assertion, in order
   * @throws IllegalStateException when the folder has no {@code simulation.log}, or Gatling's
   *     reader refuses it (a run that lasted less than a millisecond: {@code Run didn't last})
   * @throws RuntimeException when Gatling cannot read the log
   */
  public static List<Verdict> evaluate(
      CoreComponents core, Path runFolder, List<Assertion> assertions) {
    Objects.requireNonNull(core, "core");
    if (!Files.isRegularFile(runFolder.resolve("simulation.log"))) {
      throw new IllegalStateException("no simulation.log in " + runFolder);
    }
    LogFileData data;
    try {
      data =
          LogFileReader.apply(
                  runFolder.getFileName().toString(),
                  runFolder.toAbsolutePath().getParent(),
                  core.configuration())
              .read();
    } catch (AssertionError e) {
      // Gatling's reader asserts that the run lasted ("Run didn't last": a run stopped in the
      // millisecond it started, e.g. refused at its first request). An Error out of here would
      // end the run's termination task and leave Gatling's thread pools, and the JVM, running.
      throw new IllegalStateException(String.valueOf(e.getMessage()), e);
    }
    List<AssertionResult> results =
        CollectionConverters.asJava(
            new AssertionValidator(data)
                .validateAssertions(CollectionConverters.asScala(assertions).toList()));
    List<Verdict> out = new ArrayList<>();
    for (AssertionResult r : results) {
      String text = message(r.assertion());
      if (r instanceof AssertionResult.Resolved resolved) {
        out.add(new Verdict(text, resolved.success(), resolved.actualValue(), null));
      } else if (r instanceof AssertionResult.ResolutionError error) {
        out.add(new Verdict(text, false, null, error.error()));
      } else {
        out.add(new Verdict(text, r.success(), null, null));
      }
    }
    return out;
  }
}
