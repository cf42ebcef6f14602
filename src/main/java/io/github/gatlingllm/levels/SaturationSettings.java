package io.github.gatlingllm.levels;

/**
 * When a load level counts as over-saturated, whether the run then stops, when a level meets the
 * SLO, and the bound on the load meeting the SLO that fails the build. Checked when made: an error
 * names the {@code llm.*} setting, the value and what is allowed.
 *
 * <p>A level is over-saturated, over capacity ({@link Saturation#overSaturated}), against the level
 * below it of the same scenario: in a closed loop, by closed-loop scaling ({@link Scaling}): its
 * added users gave less than {@code minScaling} of the output tokens/s they would give an
 * unsaturated server, or less than {@code throughputGain}, while its TTFT p50 or E2E p50 grew by at
 * least {@code ttftGrowth} times; in an open loop, its TTFT p50 (E2E p50 when answers are not
 * streamed) grew by at least {@code ttftGrowth} times while it served fewer requests than it was
 * offered (by more than {@code throughputGain} of them and more than {@value
 * Saturation#MIN_SHORTFALL_REQUESTS}): the server queues the added load instead of serving it, as
 * GuideLLM's over-saturation stop and vLLM's {@code bench sweep} read a throughput-latency curve;
 * or when more than {@code errorRatio} of its requests failed. The same rule gives the run's
 * saturation verdict ({@link Saturation#saturated()}).
 *
 * @param stopWhenSaturated {@code llm.stopWhenSaturated}: stop the load generator, gracefully, at
 *     the end of the first over-saturated level (its requests included); default false
 * @param ttftGrowth {@code llm.saturation.ttftGrowth}: the latency growth factor (TTFT p50; in a
 *     closed loop the TTFT p50 or the E2E p50), finite and more than 1; default 1.5
 * @param throughputGain {@code llm.saturation.throughputGain}: the output-throughput gain under
 *     which throughput is flat, a share in [0, 1); also the tolerance of the saturation point
 *     ({@link Saturation}) and the least bound of closed-loop scaling; default 0.05
 * @param errorRatio {@code llm.saturation.errorRatio}: the share of failed requests above which a
 *     level is over-saturated, in [0, 1]; default 0.05
 * @param sloLoadAtLeast {@code llm.assert.sloLoadAtLeast}: the least load (concurrent users, or
 *     users/s for an open profile) that must meet the SLO ({@link Saturation#sloLoad()}), more than
 *     0, or null for no such assertion
 * @param sloLevelAttainment {@code llm.slo.levelAttainment}: the least SLO attainment (share of a
 *     level's requests that met the SLO) for a level to meet the SLO, the share {@link
 *     Saturation#sloLoad()} is read at, in (0, 1], or null for {@link
 *     Saturation#DEFAULT_SLO_RATIO}. It judges levels only: the whole run's attainment is asserted
 *     by {@code llm.assert.goodputRatio}, a separate setting.
 * @param minScaling {@code llm.saturation.minScaling}: in a closed loop, the share of the output
 *     tokens/s that added users would add to an unsaturated server (in proportion to the users)
 *     under which a level's throughput fell short ({@link Scaling}), in [0, 1]; default 0.25
 */
public record SaturationSettings(
    boolean stopWhenSaturated,
    double ttftGrowth,
    double throughputGain,
    double errorRatio,
    Double sloLoadAtLeast,
    Double sloLevelAttainment,
    double minScaling) {

  /** The closed-loop scaling under which added users only queued, without the setting. */
  public static final double DEFAULT_MIN_SCALING = 0.25;

  /**
   * The defaults: no early stop, growth 1.5, gain 0.05, errors 0.05, no assertion, scaling 0.25.
   */
  public static final SaturationSettings DEFAULT =
      new SaturationSettings(false, 1.5, 0.05, 0.05, null, null, DEFAULT_MIN_SCALING);

  /**
   * Settings with the default closed-loop scaling ({@link #DEFAULT_MIN_SCALING}).
   *
   * @param stopWhenSaturated see the record
   * @param ttftGrowth see the record
   * @param throughputGain see the record
   * @param errorRatio see the record
   * @param sloLoadAtLeast see the record
   * @param sloLevelAttainment see the record
   * @throws IllegalArgumentException naming the setting, its value and what is allowed
   */
  public SaturationSettings(
      boolean stopWhenSaturated,
      double ttftGrowth,
      double throughputGain,
      double errorRatio,
      Double sloLoadAtLeast,
      Double sloLevelAttainment) {
    this(
        stopWhenSaturated,
        ttftGrowth,
        throughputGain,
        errorRatio,
        sloLoadAtLeast,
        sloLevelAttainment,
        DEFAULT_MIN_SCALING);
  }

  /**
   * Settings with the default level attainment ({@link Saturation#DEFAULT_SLO_RATIO}).
   *
   * @param stopWhenSaturated see the record
   * @param ttftGrowth see the record
   * @param throughputGain see the record
   * @param errorRatio see the record
   * @param sloLoadAtLeast see the record
   * @throws IllegalArgumentException naming the setting, its value and what is allowed
   */
  public SaturationSettings(
      boolean stopWhenSaturated,
      double ttftGrowth,
      double throughputGain,
      double errorRatio,
      Double sloLoadAtLeast) {
    this(stopWhenSaturated, ttftGrowth, throughputGain, errorRatio, sloLoadAtLeast, null);
  }

  /**
   * The SLO attainment a level needs to meet the SLO.
   *
   * @return {@link #sloLevelAttainment()}, or {@link Saturation#DEFAULT_SLO_RATIO} when unset
   */
  public double levelAttainment() {
    return sloLevelAttainment == null ? Saturation.DEFAULT_SLO_RATIO : sloLevelAttainment;
  }

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming the setting, its value and what is allowed
   */
  public SaturationSettings {
    if (!(ttftGrowth > 1) || Double.isInfinite(ttftGrowth)) {
      throw bad("saturation.ttftGrowth", ttftGrowth, "a finite factor > 1, e.g. 1.5");
    }
    if (!(throughputGain >= 0 && throughputGain < 1)) {
      throw bad("saturation.throughputGain", throughputGain, "a share in [0, 1), e.g. 0.05");
    }
    if (!(errorRatio >= 0 && errorRatio <= 1)) {
      throw bad("saturation.errorRatio", errorRatio, "a share in [0, 1], e.g. 0.05");
    }
    if (sloLoadAtLeast != null && !(sloLoadAtLeast > 0 && Double.isFinite(sloLoadAtLeast))) {
      throw bad(
          "assert.sloLoadAtLeast",
          sloLoadAtLeast,
          "a finite load > 0 (concurrent users, or users/s for an open profile)");
    }
    if (sloLevelAttainment != null && !(sloLevelAttainment > 0 && sloLevelAttainment <= 1)) {
      throw bad("slo.levelAttainment", sloLevelAttainment, "a share in (0, 1], e.g. 0.95");
    }
    if (!(minScaling >= 0 && minScaling <= 1)) {
      throw bad("saturation.minScaling", minScaling, "a share in [0, 1], e.g. 0.25");
    }
  }

  private static IllegalArgumentException bad(String name, double value, String allowed) {
    return new IllegalArgumentException("llm." + name + ": got " + value + ", expected " + allowed);
  }
}
