package io.github.gatlingllm;

import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.token.TokenCounter;
import java.util.Iterator;
import java.util.Map;

/**
 * A Gatling feeder of deterministic prompts: {@code feed(prompts().unique().inputTokens(1024))}.
 * Immutable, so all methods return a new instance. Works wherever Gatling takes a feeder.
 *
 * <p>One builder instance is one workload, whatever the number of {@code feed(...)} steps it is
 * given to: its prompts are handed out in index order across all virtual users, first {@link
 * #warmup(int)} warmup prompts (phase {@code warmup}, their own nonces), then {@link
 * #requests(long)} measured ones. Several builders in one simulation are several workloads, each
 * with its own case id, digests and report section. Measured requests wait until every warmup
 * request has ended, in closed and open loops alike.
 *
 * <p>When the budget is spent, a virtual user fed again ends cleanly before its next LLM request:
 * no request without a prompt reaches the wire or the record, and the run says once that the
 * injection outlasts the budget. Once every workload of the run is spent and every scenario of the
 * simulation was fed one, the run stops its injection (as Gatling's {@code stopLoadGenerator}
 * does), so a closed loop of {@code constantConcurrentUsers(8).during(600)} over 200 prompts ends
 * after the 200th. A spent budget stops only what it governs: when a scenario has no budget of its
 * own ({@code .prompt(session -> ...)} requests, Gatling {@code http()} requests), the run says so
 * once and goes on until that scenario's injection ends, the budgeted scenarios' users ending
 * without a request meanwhile (Gatling stops injection for the whole run only).
 *
 * <p>Every value can be set by a {@code -Dllm.*} system property of the same name, which wins
 * ({@code llm.promptMode}, {@code llm.sharedPrefixRatio}, {@code llm.prefixGroups}, {@code
 * llm.inputTokens}, {@code llm.seed}, {@code llm.caseId}, {@code llm.requests}, {@code
 * llm.warmupRequests}, {@code llm.warmGroups}, {@code llm.tokenizer}); each value is checked when
 * it is set, with the properties over it, so a bad one fails the simulation's construction with a
 * message naming the setting, the value and what is allowed.
 *
 * <p>In a test run on several machines ({@code -Dllm.shard=I/N}, or a Kubernetes Indexed Job's
 * {@code JOB_COMPLETION_INDEX} with {@code -Dllm.shards=N}), the feeder of shard {@code I} hands
 * out only the request indices {@code I, I + N, I + 2N, ...} of each phase; {@link #requests} and
 * {@link #warmup} are the whole test's budgets. See {@link LlmDsl#shardUsers(int)}.
 */
public final class PromptFeederBuilder extends WorkloadBuilder<PromptFeederBuilder, Workload> {

  PromptFeederBuilder(Map<String, String> values, String name) {
    super(values, name);
  }

  @Override
  void check(Map<String, String> values) {
    LlmSettings.fromSystemProperties(values);
  }

  @Override
  PromptFeederBuilder copy(Map<String, String> values, String name) {
    return new PromptFeederBuilder(values, name);
  }

  @Override
  String dslCall() {
    return "prompts()";
  }

  /**
   * {@code repeat} mode: one prompt for every request, warmup included (the default).
   *
   * @return a new builder
   */
  public PromptFeederBuilder repeat() {
    return without("sharedPrefixRatio", "prefixGroups", "warmGroups").with("promptMode", "repeat");
  }

  /**
   * {@code unique} mode: each request starts with its own 12-hex nonce, so a prefix cache can reuse
   * nothing beyond the chat template.
   *
   * @return a new builder
   */
  public PromptFeederBuilder unique() {
    return without("sharedPrefixRatio", "prefixGroups", "warmGroups").with("promptMode", "unique");
  }

  /**
   * {@code shared-prefix} mode: one of {@code groups} seeded group prefixes covering {@code ratio}
   * of each prompt's tokens, then the request's nonce and filler.
   *
   * @param ratio the share of each prompt in its group prefix, in (0, 1)
   * @param groups the number of group prefixes, at least 1
   * @return a new builder
   * @throws IllegalArgumentException naming a bad value and what is allowed
   */
  public PromptFeederBuilder sharedPrefix(double ratio, int groups) {
    return with("promptMode", "shared-prefix", "sharedPrefixRatio", ratio, "prefixGroups", groups);
  }

  /**
   * The prompt size to aim for, in tokens of the tokenizer (default 512).
   *
   * @param tokens at least 1
   * @return a new builder
   */
  public PromptFeederBuilder inputTokens(int tokens) {
    return with("inputTokens", tokens);
  }

  /**
   * A fresh seed from the clock ({@code -Dllm.seed=auto}): the clock's epoch milliseconds when the
   * first feeder of the JVM is built, the same for every feeder of the run. The seed is recorded
   * with the run's prompts ({@code llm-run.json} {@code prompts.seed}, with {@code seed_auto:
   * true}), so the run can be repeated with {@code -Dllm.seed=<that seed>}, while a new run sends
   * prompts no server's cache has seen.
   *
   * @return a new builder
   */
  public PromptFeederBuilder autoSeed() {
    return with("seed", LlmSettings.AUTO_SEED);
  }

  /**
   * The measured requests' budget (default 100).
   *
   * @param requests at least 1
   * @return a new builder
   */
  public PromptFeederBuilder requests(long requests) {
    return with("requests", requests);
  }

  /**
   * Warmup requests sent before the measured ones, with prompts of their own (phase {@code warmup};
   * in repeat mode the measured prompt); their rows are in Gatling's group {@code warmup} and they
   * are left out of the run's figures. Default 0.
   *
   * @param requests at least 0
   * @return a new builder
   */
  public PromptFeederBuilder warmup(int requests) {
    return with("warmupRequests", requests);
  }

  /**
   * Warms the measured phase's prefix groups in the warmup phase ({@code llm.warmGroups}):
   * shared-prefix mode only, with warmup requests (otherwise ignored, with a warning). Warmup
   * request {@code i} sends the group prefix of the measured phase's group {@code i mod groups},
   * followed by its own warmup nonce and filler (never a measured prompt), so with at least as many
   * warmup requests as groups every measured group is in the server's cache when the measured phase
   * starts, and each measured request is planned as a hit. Deterministic: the warmup digest covers
   * these prompts, and the spec records {@code warm_groups: true}.
   *
   * @return a new builder
   */
  public PromptFeederBuilder warmGroups() {
    return with("warmGroups", true);
  }

  /**
   * The feeder: made once per builder instance (the tokenizer loaded, the first prompts warmed);
   * later calls return feeders over the same workload.
   *
   * @return the feeder
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  @Override
  public Iterator<Map<String, Object>> get() {
    return new PromptFeeder(workload());
  }

  /**
   * The settings of this builder as resolved now: system properties over its values.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  LlmSettings settings() {
    return LlmSettings.fromSystemProperties(values);
  }

  @Override
  Workload build() {
    LlmSettings s = settings();
    TokenCounter counter = counter(s.tokenizer());
    PromptSource source =
        new PromptSource(
            s.promptSpec(), counter, s.seed(), s.caseId(), "measured", s.inputTokens());
    String workloadName = name != null ? name : s.promptMode().wireName();
    return new Workload(
        workloadName,
        source,
        s.requests(),
        s.warmupRequests(),
        Shard.current(),
        s.warmGroups(),
        s.seedAuto());
  }
}
