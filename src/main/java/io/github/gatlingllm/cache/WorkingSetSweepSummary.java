package io.github.gatlingllm.cache;

import io.github.gatlingllm.record.WorkingSetSweep;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a working-set sweep shows: its steps (1, 2, 4, ... prefix groups) side by side, and where
 * the server's prefix cache starts evicting (the cliff). A step keeps its working set when the
 * cache served at least {@value #RETAINED_THRESHOLD} of the prefix tokens an unbounded cache would
 * have ({@code retained}, see {@link SweepStep}); the cliff is the first step that does not, after
 * one that did. The server's cache then holds more than the working set of the last step that kept
 * it and less than that of the cliff's step (prefixes only: each request's own tail takes room too,
 * so the cliff comes a little before capacity / prefix tokens groups).
 */
public final class WorkingSetSweepSummary {

  /** The least {@code retained} share of a first step that keeps its working set. */
  public static final double FIRST_STEP_THRESHOLD = 0.5;

  /**
   * The {@code retained} share above which a step got prefixes this run never sent: its groups'
   * first requests hit (a warm cache).
   */
  public static final double WARM_THRESHOLD = 1.1;

  /** The least share of the best earlier step's {@code retained} that a step keeps its set at. */
  public static final double DROP_THRESHOLD = 0.9;

  private WorkingSetSweepSummary() {}

  /**
   * The sweep's record, as {@code llm-run.json} holds it under {@code working_set_sweep}: {@code
   * name}, {@code steps} (each {@link io.github.gatlingllm.levels.SweepStep#toRecord()}, in the
   * order given), {@code first_step_threshold} and {@code drop_threshold}, {@code cliff} ({@code
   * groups}: the first step that did not keep its working set; {@code after_groups}: the step
   * before it that did, or null when the first step already did not; {@code working_set_tokens}:
   * the two steps' working sets, the bounds of the cache's room for prefixes), null when no step
   * lost its working set or none could be judged; {@code capacity_tokens}, {@code capacity_source}
   * and {@code predicted_cliff_groups} (capacity / mean prefix tokens) when the server's cache
   * capacity is known; {@code summary}, one sentence.
   *
   * @param name the sweep's name
   * @param steps the steps in sweep order, each {@link SweepStep#toRecord()}
   * @param capacityTokens the server's prefix-cache capacity in tokens, or null when unknown
   * @param capacitySource where the capacity comes from, or null
   * @return the sweep's block
   */
  public static WorkingSetSweep toRecord(
      String name, List<WorkingSetSweep.Step> steps, Long capacityTokens, String capacitySource) {
    WorkingSetSweep.Step kept = null;
    WorkingSetSweep.Cliff cliff = null;
    boolean judged = false;
    double best = 0;
    for (WorkingSetSweep.Step step : steps) {
      if (step.retained() == null) {
        continue;
      }
      judged = true;
      double r = step.retained();
      boolean keeps = kept == null ? r >= FIRST_STEP_THRESHOLD : r >= DROP_THRESHOLD * best;
      if (keeps) {
        kept = step;
        best = Math.max(best, r);
        continue;
      }
      List<Long> bounds = new ArrayList<>();
      bounds.add(kept == null ? null : kept.workingSetTokens());
      bounds.add(step.workingSetTokens());
      cliff = new WorkingSetSweep.Cliff(step.groups(), kept == null ? null : kept.groups(), bounds);
      break;
    }
    Double prefix = meanPrefix(steps);
    Double predicted =
        capacityTokens == null || prefix == null
            ? null
            : Math.round(capacityTokens / prefix * 100) / 100.0;
    List<Integer> warm = new ArrayList<>();
    for (WorkingSetSweep.Step step : steps) {
      if (step.retained() != null && step.retained() > WARM_THRESHOLD) {
        warm.add(step.groups());
      }
    }
    String summary = summary(steps, judged, kept, cliff, capacityTokens, prefix);
    if (!warm.isEmpty()) {
      summary +=
          "; the steps of "
              + warm.stream()
                  .map(String::valueOf)
                  .collect(java.util.stream.Collectors.joining(", "))
              + " groups got more from the cache than an unbounded cache filled by this run could"
              + " give: the server held their prefixes before (a run with the same seed?), so"
              + " their figures understate eviction";
    }
    return new WorkingSetSweep(
        name,
        steps,
        FIRST_STEP_THRESHOLD,
        DROP_THRESHOLD,
        cliff,
        capacityTokens,
        capacityTokens == null ? null : capacitySource,
        predicted,
        warm.isEmpty() ? null : warm,
        summary,
        null);
  }

  private static String summary(
      List<WorkingSetSweep.Step> steps,
      boolean judged,
      WorkingSetSweep.Step kept,
      WorkingSetSweep.Cliff cliff,
      Long capacity,
      Double prefix) {
    String predicted =
        capacity != null && prefix != null
            ? String.format(
                Locale.ROOT,
                "; the server's %,d-token cache holds %.1f prefixes of %,.0f tokens",
                capacity,
                capacity / prefix,
                prefix)
            : "";
    if (!judged) {
      return "not judged: no step had cached tokens in its usage and a prefix it could reuse";
    }
    if (cliff == null) {
      WorkingSetSweep.Step last = steps.get(steps.size() - 1);
      return "no eviction up to "
          + last.groups()
          + " groups (working set "
          + tokens(last.workingSetTokens())
          + " prefix tokens)"
          + predicted;
    }
    if (kept == null) {
      return "evicting from the first step ("
          + cliff.groups()
          + (Integer.valueOf(1).equals(cliff.groups()) ? " group" : " groups")
          + "): the cache kept less than "
          + percent(FIRST_STEP_THRESHOLD)
          + " of the reusable prefix tokens (prefix caching off, or a cache smaller than "
          + tokens(cliff.workingSetTokens().get(1))
          + " tokens)"
          + predicted;
    }
    List<Long> bounds = cliff.workingSetTokens();
    return "the cache starts evicting between "
        + kept.groups()
        + " and "
        + cliff.groups()
        + " groups: its room for prefixes is between "
        + tokens(bounds.get(0))
        + " and "
        + tokens(bounds.get(1))
        + " tokens"
        + predicted;
  }

  private static Double meanPrefix(List<WorkingSetSweep.Step> steps) {
    double sum = 0;
    long n = 0;
    for (WorkingSetSweep.Step step : steps) {
      Long ws = step.workingSetTokens();
      Long p = step.prefixTokens();
      if (ws != null && p != null && p > 0) {
        // Weighted by groups: every group's prefix counts once.
        sum += ws.doubleValue();
        n += Math.round(ws.doubleValue() / p.doubleValue());
      }
    }
    return n == 0 ? null : sum / n;
  }

  private static String tokens(Object value) {
    return value instanceof Number n ? String.format(Locale.ROOT, "%,d", n.longValue()) : "?";
  }

  private static String percent(double share) {
    return Math.round(share * 100) + "%";
  }
}
