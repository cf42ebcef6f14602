package io.github.gatlingllm.feeder;

/**
 * Not API. A Gatling feeder over one {@link Workload}: its warmup records, then its measured ones
 * (record {@code n} of a phase carries the prompt of request index {@code n} of that phase, in feed
 * order across all virtual users), then records that hold only {@link #DONE}{@code = true}. It
 * never reports empty: that would stop the whole simulation; the LLM action ends a virtual user fed
 * a {@code DONE} record cleanly instead.
 *
 * <p>Session keys, all prefixed {@code llm.}: {@link #WORKLOAD} (the {@link Workload}), {@link
 * #INDEX} (long), {@link #PHASE}, {@link #TEXT}, {@link #PROMPT_ID}, {@link #DIGEST}, {@link
 * #PREFIX_GROUP} (int, absent outside shared-prefix), {@link #SHARED_PREFIX_TOKENS} (int,
 * likewise), {@link #PREFIX_KEY} (absent for unique prompts), {@link #PLANNED_TOKENS} (int), {@link
 * #MESSAGES} and {@link #MAX_TOKENS} (a prompts file's, when its row has them), {@link #CLAIM},
 * {@link #DONE} (boolean). {@code docs/gatling-http.md} documents them for simulations that post
 * with Gatling's own {@code http()}.
 */
public final class PromptFeeder extends PhasedFeeder<Workload> {

  /** Session key: the {@link Workload} the record came from. */
  public static final String WORKLOAD = "llm.workload";

  /** Session key: the request index, a long from 0. */
  public static final String INDEX = "llm.index";

  /** Session key: the phase, e.g. {@code measured} or {@code warmup}. */
  public static final String PHASE = "llm.phase";

  /** Session key: the prompt text. */
  public static final String TEXT = "llm.text";

  /** Session key: the prompt id. */
  public static final String PROMPT_ID = "llm.promptId";

  /** Session key: the prompt digest, 16 hex digits. */
  public static final String DIGEST = "llm.digest";

  /** Session key: the shared-prefix group. */
  public static final String PREFIX_GROUP = "llm.prefixGroup";

  /** Session key: the group prefix's tokens. */
  public static final String SHARED_PREFIX_TOKENS = "llm.sharedPrefixTokens";

  /**
   * Session key: what a prefix cache can hold of the prompt from earlier requests of the workload
   * (absent for unique prompts); see {@link Workload#sentBefore(String)}.
   */
  public static final String PREFIX_KEY = "llm.prefixKey";

  /** Session key: the planned prompt tokens. */
  public static final String PLANNED_TOKENS = "llm.plannedTokens";

  /**
   * Session key: the record's claim, an {@link java.util.concurrent.atomic.AtomicBoolean} set by
   * the first request sent with the record (see {@link Workload#begin}).
   */
  public static final String CLAIM = "llm.claim";

  /**
   * Session key: a prompts file's {@code messages} row as a {@code java.util.List} of {@code
   * java.util.Map}s with {@code role} and {@code content}, empty for a text prompt (always set, so
   * a record never inherits the previous one's); {@link #TEXT} then holds the same messages as
   * compact JSON.
   */
  public static final String MESSAGES = "llm.messages";

  /**
   * Session key: a prompts file row's own {@code max_tokens} ({@code output_tokens} or {@code
   * max_tokens} in the file), an int; 0 when the row has none and for generated prompts (always
   * set, so a record never inherits the previous one's).
   */
  public static final String MAX_TOKENS = "llm.maxTokens";

  /** Session key: true once the workload's budgets are handed out. */
  public static final String DONE = "llm.done";

  /**
   * A feeder over a workload.
   *
   * @param workload the workload, never null
   */
  public PromptFeeder(Workload workload) {
    super(workload);
  }
}
