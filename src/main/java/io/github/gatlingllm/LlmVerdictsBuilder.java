package io.github.gatlingllm;

/**
 * Package-private, so not part of the API: the half of {@link LlmProtocolBuilder} that sets what
 * the run judges rather than what the requests are: the SLO bounds and the goodput and level
 * attainment verdicts, the cache verdict's block size, tolerance and assertion, the client's own
 * lag and CPU bounds, the saturation thresholds and the least load meeting the SLO, and the
 * baseline to compare with. Each setter records one {@code -Dllm.*} value (a system property of the
 * same name wins) and returns a new {@link LlmProtocolBuilder}; {@link
 * LlmProtocolBuilder#assertions(double, String...)} turns the verdicts set into Gatling assertions.
 */
abstract class LlmVerdictsBuilder {

  LlmVerdictsBuilder() {}

  /**
   * A builder with one more value.
   *
   * @param key the setting's name without {@code llm.}
   * @param value its value, never null
   * @return a new builder
   */
  abstract LlmProtocolBuilder with(String key, Object value);

  /**
   * SLO bound on each request's TTFT, in milliseconds; with any SLO set each request logs a {@code
   * NAME SLO} row and the run reports goodput.
   *
   * @param ms more than 0
   * @return a new builder
   */
  public LlmProtocolBuilder sloTtftMs(double ms) {
    return with("slo.ttftMs", ms);
  }

  /**
   * SLO bound on every inter-token gap of a request (its longest stall), in milliseconds.
   *
   * @param ms more than 0
   * @return a new builder
   */
  public LlmProtocolBuilder sloItlMs(double ms) {
    return with("slo.itlMs", ms);
  }

  /**
   * SLO bound on each request's TPOT, in milliseconds.
   *
   * @param ms more than 0
   * @return a new builder
   */
  public LlmProtocolBuilder sloTpotMs(double ms) {
    return with("slo.tpotMs", ms);
  }

  /**
   * SLO bound on each request's E2E, in milliseconds.
   *
   * @param ms more than 0
   * @return a new builder
   */
  public LlmProtocolBuilder sloE2eMs(double ms) {
    return with("slo.e2eMs", ms);
  }

  /**
   * The SLO bound on time to first output token ({@code llm.slo.ttfoMs}): the first answer token
   * after any reasoning, what a reasoning model's user waits for; goodput uses it when set. A reply
   * that never answers misses it. See docs/reasoning.md.
   *
   * @param ms milliseconds, a finite number above 0
   * @return a new builder
   */
  public LlmProtocolBuilder sloTtfoMs(double ms) {
    return with("slo.ttfoMs", ms);
  }

  /**
   * The least share of the whole run's measured requests (of each request name) that must meet the
   * SLO ({@code llm.assert.goodputRatio}): an assertion, which fails the build through {@link
   * #assertions(double, String...)}. It does nothing else: when a load level of a stepped run meets
   * the SLO is {@link #sloLevelAttainment(double)}.
   *
   * @param ratio in (0, 1]
   * @return a new builder
   */
  public LlmProtocolBuilder goodputRatio(double ratio) {
    return with("assert.goodputRatio", ratio);
  }

  /**
   * The least SLO attainment (share of a level's requests that met the SLO) for a load level to
   * meet the SLO ({@code llm.slo.levelAttainment}, 0.95 by default): the share {@code
   * saturation.slo_load}, the highest load meeting the SLO, is read at, and so what {@link
   * #sloLoadAtLeast(double)} compares. It asserts nothing by itself: a stepped run meant to cross
   * the knee has levels that miss the SLO, and only {@link #sloLoadAtLeast(double)} judges it.
   * Needs an SLO.
   *
   * @param share in (0, 1]
   * @return a new builder; a share outside (0, 1] is refused, naming {@code
   *     llm.slo.levelAttainment}, when the protocol is built, before any load
   */
  public LlmProtocolBuilder sloLevelAttainment(double share) {
    return with("slo.levelAttainment", share);
  }

  /**
   * The server's prefix-cache granularity, in tokens ({@code llm.cacheBlockTokens}): each request's
   * planned cached tokens are rounded down to it. Default: what the server says where it says it
   * (the embedded simulator's block size; llama.cpp reuses at one token's granularity), else 16
   * (vLLM's default block size).
   *
   * @param tokens at least 1
   * @return a new builder
   */
  public LlmProtocolBuilder cacheBlockTokens(int tokens) {
    return with("cacheBlockTokens", tokens);
  }

  /**
   * How far the observed cache-hit ratio may be from the planned one for the run's cache verdict to
   * be {@code as planned} ({@code llm.cacheTolerance}, default 0.05): a share of the prompt tokens.
   *
   * @param tolerance in [0, 1]
   * @return a new builder
   */
  public LlmProtocolBuilder cacheTolerance(double tolerance) {
    return with("cacheTolerance", tolerance);
  }

  /**
   * The least share of measured requests whose prefix-cache outcome must be what the plan says
   * ({@code llm.assert.cacheAsPlanned}): each request then logs a {@code NAME CACHE} row, and
   * {@link LlmProtocolBuilder#assertions(double, String...)} adds {@link
   * LlmDsl#cacheAsPlanned(String, double)}, so the build fails when the server's cache does not do
   * what the workload was designed for.
   *
   * @param ratio in (0, 1]
   * @return a new builder
   */
  public LlmProtocolBuilder cacheAsPlanned(double ratio) {
    return with("assert.cacheAsPlanned", ratio);
  }

  /**
   * The open-loop schedule lag p99 above which the client is said to have fallen behind ({@code
   * llm.client.maxLagP99Ms}, default 10 ms): the run then warns on the console, as soon as it is
   * seen, and in {@code llm-run.json}'s {@code client.warnings}, that coordinated omission may hide
   * in the server's figures. The lag of a request is its send time minus the time its virtual user
   * was due by the injection profile. Judged only on at least 100 open-loop users (during the run
   * and at its end): with fewer, the p99 is one or two users' lag, such as the first user's JVM
   * warm-up, and {@code client.notes} says it was not judged.
   *
   * @param ms milliseconds, finite and > 0
   * @return a new builder
   */
  public LlmProtocolBuilder clientMaxLagP99Ms(double ms) {
    return with("client.maxLagP99Ms", ms);
  }

  /**
   * The client JVM's CPU share above which the client is said to have fallen behind ({@code
   * llm.client.maxCpuShare}, default 0.9): CPU time over wall time times the available processors,
   * over the run and over any 10 seconds of it. Judged only on at least 10 s of samples: a shorter
   * run's share is its JVM start-up, not its load ({@code client.notes} says it was not judged).
   *
   * @param share in (0, 1]
   * @return a new builder
   */
  public LlmProtocolBuilder clientMaxCpuShare(double share) {
    return with("client.maxCpuShare", share);
  }

  /**
   * When a load level is over-saturated: its latency at least {@code ttftGrowth} times the level
   * before's (TTFT p50, E2E p50 without streaming; in a closed loop the TTFT or the E2E p50) while,
   * in a closed loop, its added users gave less than {@link #saturationMinScaling} of the output
   * tokens/s they would give unsaturated, or less than {@code throughputGain}, or, in an open loop,
   * it served fewer requests than offered, by more than {@code throughputGain} ({@code
   * llm.saturation.ttftGrowth}, default 1.5; {@code llm.saturation.throughputGain}, default 0.05,
   * also the tolerance of the saturation point), or more than {@code errorRatio} of its requests
   * failed ({@code llm.saturation.errorRatio}, default 0.05). See {@link
   * io.github.gatlingllm.levels.SaturationSettings}.
   *
   * @param ttftGrowth a finite factor > 1
   * @param throughputGain a share in [0, 1)
   * @param errorRatio a share in [0, 1]
   * @return a new builder
   */
  public LlmProtocolBuilder saturationThresholds(
      double ttftGrowth, double throughputGain, double errorRatio) {
    return with("saturation.ttftGrowth", ttftGrowth)
        .with("saturation.throughputGain", throughputGain)
        .with("saturation.errorRatio", errorRatio);
  }

  /**
   * In a closed loop, the share of the output tokens/s that added users would add to an unsaturated
   * server (in proportion to the users) under which a load level's throughput fell short ({@code
   * llm.saturation.minScaling}, default 0.25): with its TTFT or E2E p50 grown by {@link
   * #saturationThresholds}'s {@code ttftGrowth}, the level is over capacity (closed-loop scaling,
   * by Little's law: the added users only queued). 2x users for +11% output tokens/s is a scaling
   * of 0.11. See {@link io.github.gatlingllm.levels.Scaling}.
   *
   * @param share in [0, 1]
   * @return a new builder
   */
  public LlmProtocolBuilder saturationMinScaling(double share) {
    return with("saturation.minScaling", share);
  }

  /**
   * The least load that must meet the SLO ({@code llm.assert.sloLoadAtLeast}): concurrent users for
   * a closed profile, users/s for an open one, compared with {@code llm-run.json}'s {@code
   * saturation.slo_load} (the highest load whose level's SLO attainment reaches {@link
   * #sloLevelAttainment(double)}, interpolated between levels). The run then logs one {@code SLO
   * LOAD} row, OK when the load is reached, and {@link LlmProtocolBuilder#assertions(double,
   * String...)} adds {@link LlmDsl#sloLoadMet()}, so the build fails below the bound. Needs an SLO
   * and a profile with 2 levels or more.
   *
   * @param load more than 0
   * @return a new builder
   */
  public LlmProtocolBuilder sloLoadAtLeast(double load) {
    return with("assert.sloLoadAtLeast", load);
  }

  /**
   * An earlier run to compare this one with at its end ({@code llm.baseline}): a Gatling run folder
   * holding {@code llm-requests.jsonl}, or a merged one ({@code bin/gatling-llm report A B --output
   * DIR}). The verdict table (each headline metric's change and its 95% interval) goes into {@code
   * llm-run.json}'s {@code baseline}, the report page and the console; with {@link
   * #noRegressionPct} it gates the build. See {@code docs/comparing.md}.
   *
   * @param runFolder a run folder; checked when the protocol is built
   * @return a new builder
   */
  public LlmProtocolBuilder baseline(String runFolder) {
    return with("baseline", runFolder);
  }

  /**
   * Fails the build when a metric is worse than the {@link #baseline}'s beyond this change with 95%
   * confidence ({@code llm.assert.noRegressionPct}): {@link LlmProtocolBuilder#assertions(double,
   * String...)} adds {@link LlmDsl#noRegression(String)} for each gated metric (TTFT p50/p99, ITL
   * p50/p99, TPOT p50, E2E p50/p99, output tokens/s, requests/s, and goodput and SLO attainment
   * with an SLO).
   *
   * @param pct percent, finite and at least 0, e.g. 5
   * @return a new builder
   */
  public LlmProtocolBuilder noRegressionPct(double pct) {
    return with("assert.noRegressionPct", pct);
  }
}
