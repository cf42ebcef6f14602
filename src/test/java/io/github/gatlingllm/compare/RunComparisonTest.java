package io.github.gatlingllm.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.report.RequestRecordJson;
import io.github.gatlingllm.report.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunComparisonTest {

  @TempDir Path dir;

  /**
   * A synthetic request: TTFT, per-request decode speed and E2E drawn from one seeded distribution
   * (log-normal TTFT around 80 ms, a per-request decode speed around 20 ms a token that all 8 gaps
   * of the request share, plus per-gap noise), scaled by {@code slower}.
   */
  static RequestRecord request(SplittableRandom random, long i, long startMs, double slower) {
    double ttft = 80 * Math.exp(0.3 * gaussian(random)) * slower;
    double speed = 20 * Math.exp(0.15 * gaussian(random)) * slower;
    List<Double> itl = new ArrayList<>();
    double decode = 0;
    for (int k = 0; k < 8; k++) {
      double gap = Math.round(speed * Math.exp(0.1 * gaussian(random)) * 1000) / 1000.0;
      itl.add(gap);
      decode += gap;
    }
    double e2e = Math.round((ttft + decode) * 1000) / 1000.0;
    ttft = Math.round(ttft * 1000) / 1000.0;
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(i)
        .startMs(startMs)
        .promptTokens(128)
        .promptTokensExact(true)
        .cachedTokens(0)
        .completionTokens(9)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .timeToFirstEventMs(ttft)
        .itlMs(itl)
        .tpotMs(Math.round(decode / 8 * 1000) / 1000.0)
        .e2eMs(e2e)
        .outputTokensPerS(9 / e2e * 1000)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  private static double gaussian(SplittableRandom random) {
    // Box-Muller: SplittableRandom has no nextGaussian in Java 17.
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  static RunSamples run(String name, SplittableRandom random, int requests, double slower) {
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      records.add(request(random, i, 1_000_000L + i * 100L, slower));
    }
    return RunSamples.of(Path.of(name), RunRecord.create(), Slo.NONE, records, 7);
  }

  @Test
  void theSameDistributionTwiceExcludesNoChangeAboutFivePercentOfTheTime() {
    SplittableRandom random = new SplittableRandom(2026);
    List<String> metrics = List.of("ttft_p50_ms", "itl_p50_ms", "e2e_p50_ms", "tpot_p50_ms");
    RunComparison.Settings strict = new RunComparison.Settings(500, 11, 0);
    int trials = 0;
    int excludingZero = 0;
    int betterOrWorseAtDefault = 0;
    for (int pair = 0; pair < 120; pair++) {
      RunSamples a = run("a", random, 300, 1);
      RunSamples b = run("b", random, 300, 1);
      RunComparison c = RunComparison.compare(a, b, strict, metrics);
      for (String m : metrics) {
        trials++;
        // The interval alone (no noise floor): its coverage is what a 95% level promises.
        ChangeVerdict v = ChangeVerdict.of(c.row(m).ci95Pct(), 0, true);
        if (v == ChangeVerdict.BETTER || v == ChangeVerdict.WORSE) {
          excludingZero++;
        }
        // The same interval judged with the default 2% minimum effect.
        ChangeVerdict dv = ChangeVerdict.of(c.row(m).ci95Pct(), 2, true);
        if (dv == ChangeVerdict.BETTER || dv == ChangeVerdict.WORSE) {
          betterOrWorseAtDefault++;
        }
      }
    }
    double rate = (double) excludingZero / trials;
    // 480 trials at a true 5%: 2.4% to 8% holds them with over 99% probability.
    assertTrue(rate >= 0.024 && rate <= 0.08, "false-positive rate " + rate);
    assertTrue(
        betterOrWorseAtDefault <= excludingZero,
        betterOrWorseAtDefault + " better/worse at 2% vs " + excludingZero + " at 0%");
    System.out.printf(
        "false-positive rate: %.3f at a 0%% minimum effect, %.3f at 2%% (%d trials)%n",
        rate, (double) betterOrWorseAtDefault / trials, trials);
  }

  @Test
  void aTwentyPercentSlowerRunIsWorseWithAnIntervalExcludingZero() {
    SplittableRandom random = new SplittableRandom(5);
    RunSamples a = run("a", random, 400, 1);
    RunSamples b = run("b", random, 400, 1.2);

    RunComparison c = RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of());

    for (String m : List.of("ttft_p50_ms", "itl_p50_ms", "itl_p99_ms", "e2e_p50_ms")) {
      RunComparison.Row row = c.row(m);
      assertEquals(ChangeVerdict.WORSE, row.verdict(), m + " " + row.toMap());
      assertTrue(row.ci95Pct()[0] > 0, m + " " + row.toMap());
    }
    RunComparison back = RunComparison.compare(b, a, RunComparison.Settings.DEFAULT, List.of());
    assertEquals(ChangeVerdict.BETTER, back.row("e2e_p50_ms").verdict());
  }

  @Test
  void theSameSeedGivesTheSameOutput() {
    RunSamples a = run("a", new SplittableRandom(1), 200, 1);
    RunSamples b = run("b", new SplittableRandom(2), 200, 1.05);

    Map<String, Object> first =
        RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of()).toMap();
    Map<String, Object> second =
        RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of()).toMap();

    assertEquals(first.toString(), second.toString());
  }

  @Test
  void theJsonHasEachMetricsValuesChangeIntervalAndVerdict() {
    RunSamples a = run("a", new SplittableRandom(1), 200, 1);
    RunSamples b = run("b", new SplittableRandom(2), 200, 1);

    Map<String, Object> json =
        RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of()).toMap();

    assertEquals(true, json.get("same_prompts"));
    Map<?, ?> metrics = (Map<?, ?>) json.get("metrics");
    assertEquals(
        List.of(
            "ttft_p50_ms",
            "ttft_p90_ms",
            "ttft_p99_ms",
            "itl_p50_ms",
            "itl_p99_ms",
            "tpot_p50_ms",
            "tpot_p99_ms",
            "e2e_p50_ms",
            "e2e_p99_ms",
            "output_tokens_per_s",
            "requests_per_s",
            "cache_hit_ratio"),
        List.copyOf(metrics.keySet()));
    Map<?, ?> ttft = (Map<?, ?>) metrics.get("ttft_p50_ms");
    assertEquals(
        List.of("a", "b", "delta_pct", "ci95_pct", "verdict", "noise_floor_pct"),
        List.copyOf(ttft.keySet()));
    assertEquals(2, ((List<?>) ttft.get("ci95_pct")).size());
    assertEquals(1000, json.get("resamples"));
  }

  @Test
  void theRunsValueIsItsNearestRankPercentile() {
    List<RequestRecord> records = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 10; i++) {
      records.add(request(random, i, 1_000_000L + i * 100L, 1));
    }
    RunSamples a = RunSamples.of(Path.of("a"), RunRecord.create(), Slo.NONE, records, 1);
    double[] ttft = records.stream().mapToDouble(RequestRecord::ttftMs).sorted().toArray();

    RunComparison c = RunComparison.compare(a, a, RunComparison.Settings.DEFAULT, List.of());

    assertEquals(ttft[4], c.row("ttft_p50_ms").a());
    assertEquals(ttft[8], c.row("ttft_p90_ms").a());
    assertEquals(ttft[9], c.row("ttft_p99_ms").a());
    assertEquals(0.0, c.row("ttft_p50_ms").deltaPct());
  }

  @Test
  void aP99OfFewerThanFiveHundredRequestsHasNoInterval() {
    RunSamples a = run("a", new SplittableRandom(1), 499, 1);
    RunSamples b = run("b", new SplittableRandom(2), 499, 2);

    RunComparison c = RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of());

    assertEquals(null, c.row("ttft_p99_ms").ci95Pct());
    assertEquals(ChangeVerdict.UNCLEAR, c.row("ttft_p99_ms").verdict());
    assertEquals(ChangeVerdict.WORSE, c.row("ttft_p90_ms").verdict());
  }

  /** Two closed-loop levels of 100 requests each: 1 user, then 4 users twice as slow. */
  private static RunSamples levels(String name, long seed, double slower) {
    SplittableRandom random = new SplittableRandom(seed);
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      records.add(request(random, i, 1_000_000L + i * 100L, (i < 100 ? 1 : 2) * slower));
    }
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "levels",
        List.of(
            Map.of(
                "index",
                0,
                "scenario",
                "chat",
                "concurrency",
                1,
                "start_ms",
                1_000_000,
                "end_ms",
                1_010_000),
            Map.of(
                "index",
                1,
                "scenario",
                "chat",
                "concurrency",
                4,
                "start_ms",
                1_010_000,
                "end_ms",
                1_020_000)));
    return RunSamples.of(Path.of(name), RunRecord.of(run), Slo.NONE, records, 1);
  }

  @Test
  void runsOfTheSameLevelsAreComparedLevelByLevel() {
    RunComparison c =
        RunComparison.compare(
            levels("a", 1, 1), levels("b", 2, 1.3), RunComparison.Settings.DEFAULT, List.of());

    assertEquals(2, c.levels().size());
    // Numbered as the run record's levels and the report page's levels table: from 0.
    assertEquals(0, c.levels().get(0).index());
    assertEquals(1, c.levels().get(1).index());
    assertEquals("chat 1 users", c.levels().get(0).describe());
    assertEquals("chat 4 users", c.levels().get(1).describe());
    RunComparison.Row second =
        c.levels().get(1).rows().stream()
            .filter(r -> r.name().equals("e2e_p50_ms"))
            .findFirst()
            .orElseThrow();
    assertEquals(ChangeVerdict.WORSE, second.verdict());
    assertEquals(2, ((List<?>) c.toMap().get("levels")).size());
  }

  @Test
  void runsOfOtherLevelsAreComparedOverall() {
    RunSamples a = levels("a", 1, 1);
    RunSamples b = run("b", new SplittableRandom(2), 200, 1);

    RunComparison c = RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of());

    assertEquals(List.of(), c.levels());
    assertEquals(false, c.toMap().containsKey("levels"));
  }

  @Test
  void anUnknownMetricIsNamed() {
    RunSamples a = run("a", new SplittableRandom(1), 20, 1);

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RunComparison.compare(
                    a, a, RunComparison.Settings.DEFAULT, List.of("ttft_p95_ms")));

    assertTrue(
        e.getMessage().startsWith("metric: unknown metric \"ttft_p95_ms\"; known metrics are"),
        e.getMessage());
  }

  @Test
  void anotherModelIsSaidAndComparedAnyway() {
    List<RequestRecord> records = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 30; i++) {
      records.add(request(random, i, 1_000_000L + i * 100L, 1));
    }
    Map<String, Object> ra = new LinkedHashMap<>(Map.of("target", Map.of("model", "llama-8b")));
    Map<String, Object> rb = new LinkedHashMap<>(Map.of("target", Map.of("model", "qwen-7b")));
    RunSamples a = RunSamples.of(Path.of("a"), RunRecord.of(ra), Slo.NONE, records, 1);
    RunSamples b = RunSamples.of(Path.of("b"), RunRecord.of(rb), Slo.NONE, records, 1);

    RunComparison c = RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of());

    assertEquals(
        List.of(
            "A and B differ in model: A \"llama-8b\", B \"qwen-7b\" (compared anyway: the change"
                + " may be the model's)"),
        c.warnings());
    assertNotNull(c.row("ttft_p50_ms"));
  }

  @Test
  void aMergedFolderComparesLikeOneRun() throws IOException {
    SplittableRandom random = new SplittableRandom(4);
    Path one = dir.resolve("one");
    Path two = dir.resolve("two");
    Files.createDirectories(one);
    Files.createDirectories(two);
    StringBuilder first = new StringBuilder();
    StringBuilder second = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      String line = RequestRecordJson.toJson(request(random, i, 1_000_000L + i * 50L, 1), true);
      (i % 2 == 0 ? first : second).append(line).append('\n');
    }
    Files.writeString(one.resolve("llm-requests.jsonl"), first.toString());
    Files.writeString(two.resolve("llm-requests.jsonl"), second.toString());
    Path merged = dir.resolve("merged");
    RunReport.read(List.of(one, two), null).write(merged, false);

    RunSamples m = RunSamples.read(merged, null, 1);
    RunSamples a = RunSamples.read(one, null, 1);
    RunComparison c = RunComparison.compare(a, m, RunComparison.Settings.DEFAULT, List.of());

    assertEquals(60, m.requests());
    assertEquals(30, a.requests());
    assertNotNull(c.row("e2e_p50_ms").ci95Pct());
  }

  @Test
  void aRunComparedWithItselfIsTheSameOnEveryMetric() {
    RunSamples a = run("a", new SplittableRandom(1), 300, 1);

    RunComparison c = RunComparison.compare(a, a, RunComparison.Settings.DEFAULT, List.of());

    for (RunComparison.Row row : c.rows()) {
      assertEquals(ChangeVerdict.SAME, row.verdict(), row.name() + " " + row.toMap());
    }
    assertEquals("same", c.overall().verdict());
    assertEquals("verdict: same (every metric within +/-2%)", c.overall().line());
  }

  @Test
  void aSlowerRunReadsWorseInOneLine() {
    SplittableRandom random = new SplittableRandom(5);
    RunSamples a = run("a", random, 400, 1);
    RunSamples b = run("b", random, 400, 1.2);

    RunComparison.Overall overall =
        RunComparison.compare(a, b, RunComparison.Settings.DEFAULT, List.of("itl_p50_ms"))
            .overall();

    assertEquals("worse", overall.verdict());
    assertEquals(List.of("itl_p50_ms"), overall.worse());
    assertTrue(overall.line().startsWith("verdict: B worse (ITL p50 +"), overall.line());
  }

  /**
   * A run whose latency drifts: its first half as {@link #run}, its second half {@code drift} times
   * slower (a client or machine warming up, a neighbour starting a build).
   */
  private static RunSamples drifting(String name, long seed, double drift) {
    SplittableRandom random = new SplittableRandom(seed);
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      records.add(request(random, i, 1_000_000L + i * 100L, i < 200 ? 1 : drift));
    }
    return RunSamples.of(Path.of(name), RunRecord.create(), Slo.NONE, records, 1);
  }

  @Test
  void aChangeNoLargerThanARunsOwnDriftIsNotCalledWorse() {
    // B drifts by 30% between its halves, which puts its median about 15% above A's: two runs
    // whose own latency wanders that much cannot tell a 15% change from the wandering.
    RunComparison c =
        RunComparison.compare(
            drifting("a", 1, 1), drifting("b", 2, 1.3), RunComparison.Settings.DEFAULT, List.of());

    RunComparison.Row e2e = c.row("e2e_p50_ms");
    assertTrue(e2e.noiseFloorPct() > 25, e2e.toMap().toString());
    assertEquals(ChangeVerdict.UNCLEAR, e2e.verdict(), e2e.toMap().toString());
    assertEquals("unclear", c.overall().verdict());
  }

  @Test
  void aSteadyRunHasALowNoiseFloor() {
    RunComparison c =
        RunComparison.compare(
            drifting("a", 1, 1), drifting("b", 2, 1.3), RunComparison.Settings.DEFAULT, List.of());

    // A is steady: its own spread is sampling noise; the floor is B's drift.
    RunComparison steady =
        RunComparison.compare(
            drifting("a", 1, 1), drifting("c", 3, 1), RunComparison.Settings.DEFAULT, List.of());
    assertTrue(steady.row("e2e_p50_ms").noiseFloorPct() < 8, steady.row("e2e_p50_ms").toMap() + "");
    assertTrue(c.row("e2e_p50_ms").noiseFloorPct() > steady.row("e2e_p50_ms").noiseFloorPct());
  }
}
