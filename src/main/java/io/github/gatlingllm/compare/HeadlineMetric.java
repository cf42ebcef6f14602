package io.github.gatlingllm.compare;

import java.util.List;

/**
 * A headline metric of a comparison: its name in the output, its label, how it is resampled and
 * which way is better. {@link #ALL} lists them in output order.
 *
 * @param name the name in the output, e.g. {@code ttft_p50_ms}
 * @param label the label in the text output, e.g. {@code TTFT p50}
 * @param kind how it is resampled
 * @param lowerIsBetter whether a lower value is better (latencies)
 * @param unit its unit in the text output, e.g. {@code ms}; empty for none
 */
record HeadlineMetric(String name, String label, Kind kind, boolean lowerIsBetter, String unit) {

  /** How a metric is resampled. */
  enum Kind {
    /** Over requests. */
    REQUEST,
    /** Over whole requests' inter-token gaps. */
    ITL,
    /** Over time blocks of the run's window. */
    BLOCK
  }

  /** Every metric, in output order. */
  static final List<HeadlineMetric> ALL =
      List.of(
          new HeadlineMetric("ttft_p50_ms", "TTFT p50", Kind.REQUEST, true, "ms"),
          new HeadlineMetric("ttft_p90_ms", "TTFT p90", Kind.REQUEST, true, "ms"),
          new HeadlineMetric("ttft_p99_ms", "TTFT p99", Kind.REQUEST, true, "ms"),
          new HeadlineMetric("itl_p50_ms", "ITL p50", Kind.ITL, true, "ms"),
          new HeadlineMetric("itl_p99_ms", "ITL p99", Kind.ITL, true, "ms"),
          new HeadlineMetric("tpot_p50_ms", "TPOT p50", Kind.REQUEST, true, "ms"),
          new HeadlineMetric("tpot_p99_ms", "TPOT p99", Kind.REQUEST, true, "ms"),
          new HeadlineMetric("e2e_p50_ms", "E2E p50", Kind.REQUEST, true, "ms"),
          new HeadlineMetric("e2e_p99_ms", "E2E p99", Kind.REQUEST, true, "ms"),
          new HeadlineMetric("output_tokens_per_s", "output tokens/s", Kind.BLOCK, false, ""),
          new HeadlineMetric("requests_per_s", "requests/s", Kind.BLOCK, false, ""),
          new HeadlineMetric("goodput_requests_per_s", "goodput requests/s", Kind.BLOCK, false, ""),
          new HeadlineMetric("slo_attainment", "SLO attainment", Kind.REQUEST, false, ""),
          new HeadlineMetric("cache_hit_ratio", "cache-hit ratio", Kind.REQUEST, false, ""));

  /**
   * The position of a metric in {@link #ALL}.
   *
   * @param name the metric's name
   * @return its index
   * @throws IllegalArgumentException naming an unknown metric
   */
  static int index(String name) {
    for (int i = 0; i < ALL.size(); i++) {
      if (ALL.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name);
  }

  /**
   * A metric by name.
   *
   * @param name the metric's name
   * @return the metric
   * @throws IllegalArgumentException naming an unknown metric
   */
  static HeadlineMetric named(String name) {
    for (HeadlineMetric m : ALL) {
      if (m.name().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown metric " + name);
  }
}
