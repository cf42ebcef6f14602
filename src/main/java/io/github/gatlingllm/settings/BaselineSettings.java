package io.github.gatlingllm.settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Not API. The run to compare this one with and the regression gate on it. Checked when made: an
 * error names the {@code llm.*} setting, the value and what is allowed.
 *
 * @param folder {@code llm.baseline}: a run folder (or a merged one) holding {@code
 *     llm-requests.jsonl}, or several such separated by commas (replicates of the baseline: the
 *     verdicts' intervals then take the spread between them), or null for no baseline; the run then
 *     compares itself with it at its end (the verdict table in {@code llm-run.json}'s {@code
 *     baseline}, the report page and the console)
 * @param noRegressionPct {@code llm.assert.noRegressionPct}: the change in percent, finite and at
 *     least 0, beyond which a metric worse than the baseline's with 95% confidence fails the build
 *     (a {@code BASELINE <metric>} row each, asserted by {@code llm.assertions(...)}); also the
 *     minimum effect of the verdicts; null for no gate (verdicts with the default 2%)
 */
public record BaselineSettings(String folder, Double noRegressionPct) {

  /** No baseline, no gate. */
  public static final BaselineSettings NONE = new BaselineSettings(null, null);

  /** The per-request file a baseline folder must hold. */
  static final String REQUESTS_FILE = "llm-requests.jsonl";

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming the setting, its value and what is allowed
   */
  public BaselineSettings {
    if (noRegressionPct != null && !(noRegressionPct >= 0 && Double.isFinite(noRegressionPct))) {
      throw new IllegalArgumentException(
          "llm.assert.noRegressionPct: got "
              + noRegressionPct
              + ", expected a finite percentage >= 0, e.g. 5");
    }
    if (noRegressionPct != null && folder == null) {
      throw new IllegalArgumentException(
          "llm.assert.noRegressionPct: got "
              + String.format(Locale.ROOT, "%s", noRegressionPct)
              + ", but llm.baseline is not set: expected the run folder to compare with"
              + " (-Dllm.baseline=target/gatling/chatsimulation-20261201...)");
    }
    if (folder != null) {
      for (String f : folder.split(",", -1)) {
        if (f.isBlank() || !Files.isRegularFile(Path.of(f.strip()).resolve(REQUESTS_FILE))) {
          throw new IllegalArgumentException(
              "llm.baseline: got \""
                  + folder
                  + "\""
                  + (f.isBlank()
                      ? ", which has an empty folder name between its commas"
                      : (folder.contains(",") ? ", whose \"" + f.strip() + "\"" : ", which")
                          + " has no "
                          + REQUESTS_FILE)
                  + ": expected a gatling-llm run folder (a Gatling run folder of an earlier run,"
                  + " or the output of bin/gatling-llm report A B --output DIR), or several"
                  + " separated by commas (replicates)");
        }
      }
    }
  }

  /**
   * The baseline's run folders: one, or several given comma-separated (replicates of the baseline,
   * compared as {@code report --compare A1,A2,A3 B} does).
   *
   * @return the folders, empty without a baseline
   */
  public java.util.List<String> folders() {
    if (folder == null) {
      return java.util.List.of();
    }
    return java.util.Arrays.stream(folder.split(",")).map(String::strip).toList();
  }

  /**
   * Whether the build is gated on the baseline.
   *
   * @return true with both a baseline and {@code llm.assert.noRegressionPct}
   */
  public boolean gated() {
    return folder != null && noRegressionPct != null;
  }
}
