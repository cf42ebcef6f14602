package io.github.gatlingllm;

import io.gatling.javaapi.core.PopulationBuilder;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.settings.LlmSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A working-set sweep: the same shared-prefix workload run with 1, 2, 4, ... N prefix groups, one
 * step after another, to find where the server's prefix cache starts evicting. Each step is a
 * workload of its own, with its own case id ({@code {caseId}_g{groups}}) and name ({@code {name}
 * g{groups}}), so its prompts and prefixes are its own; the run reports the steps' hit ratios and
 * TTFT p50/p99 against the number of groups, and the cliff, in {@code llm-run.json} ({@code
 * working_set_sweep}) and on the report. Immutable. Made by {@link
 * LlmDsl#workingSetSweep(PromptFeederBuilder, int...)}.
 *
 * <p>Each step's scenario is ordinary Gatling; {@link #populations(Function)} chains them with
 * {@code andThen}, so a step starts when the one before it has ended:
 *
 * <pre>{@code
 * WorkingSetSweep sweep =
 *     workingSetSweep(prompts().sharedPrefix(0.9, 1).inputTokens(1024).requests(64), 1, 2, 4, 8, 16);
 * setUp(
 *         sweep.populations(
 *             step ->
 *                 scenario(step.name())
 *                     .forever()
 *                     .on(feed(step.prompts()).exec(llm("chat").chatCompletion()))
 *                     .injectOpen(atOnceUsers(4))))
 *     .protocols(llm);
 * }</pre>
 *
 * <p>A step ends when its prompts are spent: users fed past the budget end, so give each step a
 * fixed set of users ({@code atOnceUsers}) looping {@code forever()}; an injection that keeps
 * adding users ({@code constantConcurrentUsers(..).during(..)}) would hold the next step back until
 * its duration is over.
 */
public final class WorkingSetSweep {

  private final PromptFeederBuilder base;
  private final String name;
  private final List<Step> steps;

  /** One step of the sweep. */
  public static final class Step {
    private final int index;
    private final int groups;
    private final String name;
    private final String caseId;
    private final PromptFeederBuilder prompts;

    private Step(int index, int groups, String name, String caseId, PromptFeederBuilder prompts) {
      this.index = index;
      this.groups = groups;
      this.name = name;
      this.caseId = caseId;
      this.prompts = prompts;
    }

    /**
     * The step's prefix groups.
     *
     * @return at least 1
     */
    public int groups() {
      return groups;
    }

    /**
     * The step's name, also its workload's: a scenario name of its own, e.g. {@code working-set
     * g4}.
     *
     * @return never null
     */
    public String name() {
      return name;
    }

    /**
     * The step's case id, e.g. {@code c1_in1024_out128_g4}.
     *
     * @return never null
     */
    public String caseId() {
      return caseId;
    }

    /**
     * The step's prompts: feed this very builder ({@code feed(step.prompts())}); a builder derived
     * from it is another workload, outside the sweep.
     *
     * @return the feeder builder
     */
    public PromptFeederBuilder prompts() {
      return prompts;
    }

    @Override
    public String toString() {
      return "step " + index + ": " + name + " (case " + caseId + ")";
    }
  }

  private WorkingSetSweep(PromptFeederBuilder base, String name, int[] groups) {
    this.base = base;
    this.name = name;
    LlmSettings s = base.settings();
    if (s.promptMode() != PromptMode.SHARED_PREFIX) {
      throw new IllegalArgumentException(
          "workingSetSweep: the prompts must be shared-prefix (prompts().sharedPrefix(ratio, 1)),"
              + " not "
              + s.promptMode().wireName());
    }
    for (String fixed : List.of("prefixGroups", "caseId")) {
      if (System.getProperty(LlmSettings.PREFIX + fixed) != null) {
        throw new IllegalArgumentException(
            "workingSetSweep: -D"
                + LlmSettings.PREFIX
                + fixed
                + " would give every step the same "
                + fixed
                + "; the sweep sets it per step: unset it");
      }
    }
    if (groups.length == 0) {
      throw new IllegalArgumentException(
          "workingSetSweep: no steps given, expected group counts such as 1, 2, 4, 8, 16");
    }
    List<Step> list = new ArrayList<>();
    for (int i = 0; i < groups.length; i++) {
      if (groups[i] < 1 || i > 0 && groups[i] <= groups[i - 1]) {
        throw new IllegalArgumentException(
            "workingSetSweep: group counts "
                + Arrays.toString(groups)
                + ", expected whole numbers >= 1 in ascending order, e.g. 1, 2, 4, 8, 16");
      }
      String stepName = name + " g" + groups[i];
      String caseId = s.caseId() + "_g" + groups[i];
      PromptFeederBuilder prompts =
          base.sharedPrefix(s.sharedPrefixRatio(), groups[i]).caseId(caseId).name(stepName);
      list.add(new Step(i, groups[i], stepName, caseId, prompts));
    }
    this.steps = List.copyOf(list);
  }

  /**
   * A sweep of a shared-prefix prompt feeder over group counts.
   *
   * @param base the prompts of every step; its prompt mode must be shared-prefix (its groups are
   *     replaced by each step's); never null
   * @param groups the steps' group counts, ascending, each at least 1
   * @return the sweep, named {@code working-set}
   * @throws IllegalArgumentException if the prompts are not shared-prefix, the group counts are not
   *     ascending, or {@code -Dllm.prefixGroups} or {@code -Dllm.caseId} is set (each step sets its
   *     own)
   */
  static WorkingSetSweep of(PromptFeederBuilder base, int... groups) {
    return new WorkingSetSweep(
        Objects.requireNonNull(base, "prompts"),
        "working-set",
        Objects.requireNonNull(groups, "groups").clone());
  }

  /**
   * The same sweep under another name: its steps are named {@code {name} g{groups}}.
   *
   * @param name not blank
   * @return a new sweep
   * @throws IllegalArgumentException if blank
   */
  public WorkingSetSweep name(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "workingSetSweep().name: got "
              + (name == null ? "null" : "\"" + name + "\"")
              + ", expected a name");
    }
    return new WorkingSetSweep(base, name, groups());
  }

  private int[] groups() {
    return steps.stream().mapToInt(Step::groups).toArray();
  }

  /**
   * The steps, in order.
   *
   * @return an unmodifiable list
   */
  public List<Step> steps() {
    return steps;
  }

  /**
   * The steps' populations chained with Gatling's {@code andThen}: each step starts when the one
   * before it has ended. The steps' workloads are made here (tokenizer loaded, prompts checked) and
   * marked as this sweep's.
   *
   * @param population a step's population, e.g. {@code step -> scenario(step.name())...
   *     .injectOpen(atOnceUsers(4))}; each must feed {@code step.prompts()} and have a scenario
   *     name of its own
   * @return the first step's population, to pass to {@code setUp}
   * @throws IllegalArgumentException naming a bad setting
   */
  public PopulationBuilder populations(Function<Step, PopulationBuilder> population) {
    Objects.requireNonNull(population, "population");
    PopulationBuilder next = null;
    for (int i = steps.size() - 1; i >= 0; i--) {
      Step step = steps.get(i);
      Workload workload = step.prompts().workload();
      workload.joinSweep(new Workload.SweepStep(name, i, step.groups()));
      PopulationBuilder p =
          Objects.requireNonNull(population.apply(step), "the population of " + step);
      next = next == null ? p : p.andThen(next);
    }
    return next;
  }

  @Override
  public String toString() {
    return "workingSetSweep " + name + " over " + Arrays.toString(groups()) + " groups";
  }
}
