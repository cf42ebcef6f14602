package io.github.gatlingllm.cli;

import io.github.gatlingllm.compare.RunComparison;
import io.github.gatlingllm.compare.RunSamples;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.report.RunReport;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code gatling-llm report}: rebuilds the LLM report of run folders from their {@code
 * llm-requests.jsonl}, merges several, exports CSV, or compares two runs.
 *
 * <ul>
 *   <li>{@code report RUN_FOLDER}: rewrites the folder's {@code llm-run.json} (metrics recomputed)
 *       and {@code llm-report.html}, and links the page from Gatling's {@code index.html}.
 *   <li>{@code report A B ... --output DIR}: one merged report of several folders in {@code DIR};
 *       the shards of one test ({@code llm.shard}) make that test's record. Warnings (windows that
 *       do not overlap, settings that differ, missing shards) go to stderr and the record.
 *   <li>{@code --csv}: also writes {@code llm-requests.csv}.
 *   <li>{@code --slo-ttft-ms} etc.: judges goodput against these bounds instead of the recorded
 *       ones.
 *   <li>{@code --compare A B}: A/B verdicts ({@link RunComparison}): for each headline metric A, B,
 *       the change in percent, its 95% interval from a seeded bootstrap over the runs' per-request
 *       records, and {@code better}, {@code worse}, {@code same} or {@code unclear}; per load level
 *       when both runs have the same levels; {@code --json} prints it as JSON. Exit 3 when the
 *       runs' prompts differ (the comparison is printed all the same).
 * </ul>
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Rebuilds llm-run.json and llm-report.html from run folders' llm-requests.jsonl;"
          + " several folders make one merged report (--output); --compare A B prints deltas."
    })
final class ReportCommand implements Callable<Integer> {

  /** The exit code of {@code --compare} when the two runs' prompt digests differ. */
  static final int DIGESTS_DIFFER = 3;

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "RUN_FOLDER", arity = "0..*", description = "Gatling run folders")
  private List<Path> folders = List.of();

  @Option(
      names = "--output",
      paramLabel = "DIR",
      description = "where to write the report; required with several folders")
  private Path output;

  @Option(names = "--csv", description = "also write llm-requests.csv")
  private boolean csv;

  @Option(names = "--slo-ttft-ms", paramLabel = "MS", description = "SLO bound on TTFT")
  private Double sloTtftMs;

  @Option(names = "--slo-itl-ms", paramLabel = "MS", description = "SLO bound on every ITL")
  private Double sloItlMs;

  @Option(names = "--slo-tpot-ms", paramLabel = "MS", description = "SLO bound on TPOT")
  private Double sloTpotMs;

  @Option(names = "--slo-e2e-ms", paramLabel = "MS", description = "SLO bound on E2E")
  private Double sloE2eMs;

  @Option(
      names = "--compare",
      arity = "2",
      paramLabel = "RUN_FOLDERS",
      description =
          "compare two run folders, A then B; several runs a side, comma-separated"
              + " (A1,A2,A3 B1,B2,B3), are replicates: the interval takes the spread between runs")
  private List<String> compare;

  @Option(
      names = "--json",
      description =
          "with --compare: print the comparison as JSON ({\"same_prompts\", \"metrics\"})")
  private boolean json;

  @Option(
      names = "--min-effect",
      paramLabel = "PCT",
      description =
          "with --compare: the least change in percent a verdict calls better or worse (default 2)")
  private Double minEffect;

  @Option(
      names = "--resamples",
      paramLabel = "N",
      description = "with --compare: bootstrap resamples of each run (default 1000)")
  private Integer resamples;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "with --compare: the bootstrap's seed (default 1): same seed, same output")
  private Long seed;

  @Option(
      names = "--metric",
      paramLabel = "NAME",
      split = ",",
      description = "with --compare: only these metrics (e.g. ttft_p99_ms,itl_p50_ms)")
  private List<String> metrics = List.of();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Slo slo = slo();
    if (compare == null
        && (json || minEffect != null || resamples != null || seed != null || !metrics.isEmpty())) {
      throw usage("--json, --min-effect, --resamples, --seed and --metric go with --compare A B");
    }
    if (compare != null) {
      return compare(out, slo);
    }
    if (folders.isEmpty()) {
      throw usage("a run folder is required (or --compare A B)");
    }
    if (folders.size() > 1 && output == null) {
      throw usage("--output DIR is required to merge " + folders.size() + " run folders");
    }
    check(folders);
    RunReport report = RunReport.read(folders, slo);
    for (String warning : report.warnings()) {
      spec.commandLine().getErr().println("gatling-llm report: warning: " + warning);
    }
    Path page = report.write(output != null ? output : folders.get(0), csv);
    out.println(page.toAbsolutePath().toUri());
    return 0;
  }

  /**
   * {@code --compare A B}: reads both runs, judged by one SLO (the options', else A's recorded one,
   * else B's), prints the comparison as text or JSON.
   *
   * @return 0, or {@link #DIGESTS_DIFFER} when the runs' prompts differ
   */
  private int compare(PrintWriter out, Slo slo) throws Exception {
    if (!folders.isEmpty() || csv) {
      throw usage(
          "--compare takes exactly two sides, A then B (each a run folder or several"
              + " comma-separated), and no other folder or --csv");
    }
    List<Path> sideA = side(compare.get(0));
    List<Path> sideB = side(compare.get(1));
    check(sideA);
    check(sideB);
    RunComparison.Settings defaults = RunComparison.Settings.DEFAULT;
    RunComparison.Settings settings;
    try {
      RunComparison.checkNames(metrics, "--metric");
      settings =
          new RunComparison.Settings(
              resamples == null ? defaults.resamples() : resamples,
              seed == null ? defaults.seed() : seed,
              minEffect == null ? defaults.minEffectPct() : minEffect);
    } catch (IllegalArgumentException e) {
      throw usage(
          e.getMessage()
              .replaceFirst("^resamples:", "--resamples:")
              .replaceFirst("^minimum effect:", "--min-effect:"));
    }
    List<RunSamples> a = new ArrayList<>();
    List<RunSamples> b = new ArrayList<>();
    // One SLO judges every run alike: the options', else A's recorded one, else B's.
    Slo used = slo != null ? slo : RunSamples.recordedSlo(sideA.get(0));
    if (used == null || !used.isSet()) {
      Slo other = RunSamples.recordedSlo(sideB.get(0));
      used = other != null && other.isSet() ? other : Slo.NONE;
    }
    try {
      for (Path p : sideA) {
        a.add(RunSamples.read(p, used, settings.seed()));
      }
      for (Path p : sideB) {
        b.add(RunSamples.read(p, used, settings.seed()));
      }
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    RunComparison c = RunComparison.compare(a, b, settings, metrics);
    if (json) {
      out.println(
          new com.fasterxml.jackson.databind.ObjectMapper()
              .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
              .writeValueAsString(c.toMap()));
    } else {
      for (String line : c.toText()) {
        out.println(line);
      }
    }
    if (!c.samePrompts()) {
      // Not the same prompts: the deltas do not compare like with like; a script must notice.
      spec.commandLine()
          .getErr()
          .println(
              "gatling-llm report: --compare: the runs' prompts differ ("
                  + String.join("; ", c.promptDifferences())
                  + "), exit "
                  + DIGESTS_DIFFER);
      return DIGESTS_DIFFER;
    }
    return 0;
  }

  /** One side of {@code --compare}: a run folder, or several comma-separated (replicates). */
  private List<Path> side(String folders) {
    List<Path> out = new ArrayList<>();
    for (String f : folders.split(",", -1)) {
      if (f.isBlank()) {
        throw usage(
            "--compare: got \""
                + folders
                + "\", which has an empty folder name; expected run folders separated by commas"
                + " (A1,A2,A3)");
      }
      out.add(Path.of(f.strip()));
    }
    return out;
  }

  /** The SLO of the options, or null (the recorded one) when none is given. */
  private Slo slo() {
    if (sloTtftMs == null && sloItlMs == null && sloTpotMs == null && sloE2eMs == null) {
      return null;
    }
    try {
      return new Slo(sloTtftMs, sloItlMs, sloTpotMs, sloE2eMs);
    } catch (IllegalArgumentException e) {
      throw usage(
          "--slo-"
              + e.getMessage()
                  .replaceFirst("^(ttft|itl|tpot|e2e)_ms", "$1-ms")
                  .replace("finite number of milliseconds > 0 or unset", "number > 0"));
    }
  }

  private void check(List<Path> paths) {
    for (Path p : paths) {
      String problem =
          !Files.exists(p)
              ? "does not exist"
              : !Files.isDirectory(p)
                  ? "is not a folder"
                  : !Files.isRegularFile(p.resolve("llm-requests.jsonl"))
                      ? "has no llm-requests.jsonl"
                      : null;
      if (problem != null) {
        throw usage(p + " " + problem + ", expected " + RUN_FOLDER);
      }
    }
  }

  /** What a run folder is, for the errors that name a folder that is not one. */
  static final String RUN_FOLDER =
      "a gatling-llm run folder (target/gatling/<simulation>-<time>/, holding llm-requests.jsonl,"
          + " one line a request, and llm-run.json, the run record)";

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
