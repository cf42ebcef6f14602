package io.github.gatlingllm.prompt;

/**
 * The phase of a run a request belongs to, as written in the run record ({@link #wireName()}):
 * {@code warmup} (sent first, left out of the run's figures) or {@code measured}. A workload draws
 * each phase's prompts from a source of its own ({@code PromptSource.forPhase}).
 */
public enum Phase {
  /** The warmup: requests sent before the measured ones, left out of the overall figures. */
  WARMUP("warmup"),
  /** The measured requests: the run's figures. */
  MEASURED("measured");

  private final String wireName;

  Phase(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name in records ({@code llm-requests.jsonl}'s {@code phase}, {@code llm-run.json}'s phase
   * keys).
   *
   * @return {@code warmup} or {@code measured}, never null
   */
  public String wireName() {
    return wireName;
  }

  /**
   * Whether a record's phase is the warmup.
   *
   * @param phase a phase's {@link #wireName()}, or null (a request without a phase: measured)
   * @return true only for {@code warmup}
   */
  public static boolean isWarmup(String phase) {
    return WARMUP.wireName.equals(phase);
  }

  /**
   * The phase of a name.
   *
   * @param name a {@link #wireName()}
   * @return the phase
   * @throws IllegalArgumentException if the name is neither; the message names both
   */
  public static Phase fromWireName(String name) {
    for (Phase p : values()) {
      if (p.wireName.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("phase must be measured or warmup, got \"" + name + "\"");
  }
}
