package io.github.gatlingllm.feeder;

import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Not API. The Gatling feeder over one {@link PhasedWorkload}: its records in the workload's order,
 * then its {@code DONE} records. It never reports empty: an iterator whose {@code hasNext()} is
 * false stops the whole simulation; the LLM action ends a virtual user fed a {@code DONE} record
 * cleanly instead. Gatling calls {@code hasNext}/{@code next} serially.
 *
 * @param <W> the workload's type
 */
public abstract class PhasedFeeder<W extends PhasedWorkload>
    implements Iterator<Map<String, Object>> {

  private final W workload;

  /**
   * A feeder over a workload.
   *
   * @param workload the workload, never null
   * @throws NullPointerException if {@code workload} is null
   */
  PhasedFeeder(W workload) {
    this.workload = Objects.requireNonNull(workload, "workload");
  }

  /** Always true: an empty feeder would stop the whole simulation. */
  @Override
  public final boolean hasNext() {
    return true;
  }

  @Override
  public final Map<String, Object> next() {
    return workload.next();
  }

  /**
   * The workload.
   *
   * @return never null
   */
  public W workload() {
    return workload;
  }
}
