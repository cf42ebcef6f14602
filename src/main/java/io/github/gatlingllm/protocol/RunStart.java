package io.github.gatlingllm.protocol;

import io.gatling.core.CoreComponents;
import io.github.gatlingllm.internal.GatlingInjection;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.report.RunRecorder;
import io.github.gatlingllm.settings.LlmSettings;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. What {@link RunContext} reads and checks when the run starts, before any load: the
 * simulation's injection profiles, assertions and {@code maxDuration} from Gatling's core, the SLO
 * load check, the run record's folder and the open-files limit. What cannot be read from Gatling is
 * a warning (logged as {@link RunContext}'s, as the lines always were) and a null or empty value,
 * never a failed run; what the user set wrong is an {@link IllegalArgumentException} naming the
 * setting.
 */
final class RunStart {

  private static final Logger LOG = LoggerFactory.getLogger(RunContext.class);

  private RunStart() {}

  /**
   * The injection profiles read back from Gatling.
   *
   * @param read one entry per scenario; empty when they could not be read
   * @param unknown why they could not be read (naming the Gatling member or step kind), or null
   */
  record Injections(List<Injection> read, String unknown) {}

  /**
   * Reads the simulation's injection profiles; warns when they cannot be read (then no load levels
   * are computed, and a spent prompt budget stops the whole run).
   *
   * @param core Gatling's core components, never null
   * @return never null
   */
  static Injections injections(CoreComponents core) {
    try {
      return new Injections(GatlingInjection.read(core), null);
    } catch (IllegalStateException e) {
      String unknown = e.getMessage();
      LOG.warn(
          "The injection profiles cannot be read, so no load levels are computed, and once every"
              + " prompt budget is spent the whole run stops, scenarios with no budget of their"
              + " own included: {}",
          unknown);
      return new Injections(List.of(), unknown);
    }
  }

  /**
   * The simulation's assertion paths, quietly.
   *
   * @param core Gatling's core components, never null
   * @return the paths, or null when Gatling's assertions cannot be read
   */
  static List<List<String>> assertedPaths(CoreComponents core) {
    try {
      return GatlingInjection.assertedPaths(core);
    } catch (IllegalStateException e) {
      return null;
    }
  }

  /**
   * {@link SloLoadCheck} before any load ({@code llm.assert.sloLoadAtLeast}): refused without its
   * assertion, warned when too high for the profiles. Does nothing without the setting.
   *
   * @param settings the run's settings, never null
   * @param core Gatling's core components, never null
   * @param read the profiles read back, never null
   * @param unknown why they could not be read, or null
   * @throws IllegalArgumentException when the simulation does not assert {@code sloLoadMet}
   */
  static void checkSloLoad(
      LlmSettings settings, CoreComponents core, List<Injection> read, String unknown) {
    Double bound = settings.saturation().sloLoadAtLeast();
    if (bound == null) {
      return;
    }
    List<List<String>> asserted;
    try {
      asserted = GatlingInjection.assertedPaths(core);
    } catch (IllegalStateException e) {
      asserted = null;
      LOG.warn("The simulation's assertions cannot be read: {}", e.getMessage());
    }
    String warning = SloLoadCheck.check(bound, asserted, unknown == null ? read : List.of());
    if (warning != null) {
      LOG.warn("{}", warning);
    }
  }

  /**
   * The failure percentages the simulation's assertions stay under, by request name.
   *
   * @param core Gatling's core components, never null
   * @return the bounds, or null (with a warning) when Gatling's assertions cannot be read
   */
  static Map<String, Double> failedPercentBelow(CoreComponents core) {
    try {
      return GatlingInjection.failedPercentBelow(core);
    } catch (RuntimeException e) {
      LOG.warn(
          "Gatling's assertions cannot be read, so llm-run.json has no failed_percent_below: {}",
          e.toString());
      return null;
    }
  }

  /**
   * The simulation's {@code maxDuration}.
   *
   * @param core Gatling's core components, never null
   * @return milliseconds, or null when none is set or (with a warning) it cannot be read
   */
  static Long maxDurationMs(CoreComponents core) {
    try {
      return GatlingInjection.maxDurationMs(core);
    } catch (IllegalStateException e) {
      LOG.warn("Gatling's maxDuration cannot be read, so no run ends as max_duration: {}", e);
      return null;
    }
  }

  /**
   * Opens the run record under {@code llm.resultsFolder}; closes the target when it cannot.
   *
   * @param protocol the protocol, never null
   * @param target the started target, closed on failure, never null
   * @return the recorder
   * @throws IllegalArgumentException naming {@code llm.resultsFolder} when it cannot be written
   */
  static RunRecorder recorder(LlmProtocol protocol, RunTarget target) {
    LlmSettings settings = protocol.settings();
    try {
      return new RunRecorder(protocol.folders(), settings.slo(), settings.cacheTolerance());
    } catch (java.io.UncheckedIOException e) {
      target.close();
      throw new IllegalArgumentException(
          "llm.resultsFolder: cannot write run records under \""
              + protocol.folders().results()
              + "\" ("
              + e.getCause()
              + "), expected a folder that exists or can be made",
          e);
    }
  }

  /**
   * Warns when the process's open-files limit is in reach: every open stream is a socket, and an
   * open loop holds up to (arrival rate x {@code llm.timeout}) of them when the server or the
   * client falls behind.
   */
  static void warnOnLowFileLimit() {
    if (ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.UnixOperatingSystemMXBean unix
        && unix.getMaxFileDescriptorCount() < 16_384) {
      LOG.warn(
          "the open-files limit of this JVM is {}: every open LLM stream holds a socket; for more"
              + " streams in flight than that, raise it in the shell that starts the run (ulimit -n"
              + " 65536; ulimit -Hn shows the most allowed)",
          unix.getMaxFileDescriptorCount());
    }
  }
}
