package io.github.gatlingllm.feeder;

import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptSource;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * A Gatling feeder over one phase's {@link PromptSource}: record {@code n} carries the prompt of
 * request index {@code n}, in feed order across all virtual users, as the reference tool's closed
 * loop hands them out. So the phase digest over N requests equals {@code gatling-llm prompts
 * --requests N}'s.
 *
 * <p>Gatling polls one feeder from one actor: {@code hasNext}/{@code next} are called one at a
 * time, possibly from different threads; the counter is still atomic-safe. The feeder never reports
 * empty (that would stop the whole simulation): once {@code budget} records are handed out, each
 * further record holds only {@link #DONE}{@code = true}, and the scenario ends the virtual user
 * cleanly. Each prompt is taken and forgotten at once: the source keeps its digest, the session
 * holds its text until the request is sent.
 *
 * <p>Session keys, all prefixed {@code llm.}: {@link #INDEX} (long), {@link #PHASE}, {@link #TEXT},
 * {@link #PROMPT_ID}, {@link #DIGEST}, {@link #PREFIX_GROUP} (int, absent outside shared-prefix),
 * {@link #SHARED_PREFIX_TOKENS} (int, likewise), {@link #PLANNED_TOKENS} (int), {@link #DONE}
 * (boolean).
 */
public final class PromptFeeder implements Iterator<Map<String, Object>> {

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

  /** Session key: the planned prompt tokens. */
  public static final String PLANNED_TOKENS = "llm.plannedTokens";

  /** Session key: true once the phase's budget is handed out. */
  public static final String DONE = "llm.done";

  private static final Map<String, Object> DONE_RECORD = Collections.singletonMap(DONE, true);

  private final PromptSource source;
  private final long budget;
  private long next;

  /**
   * A feeder of {@code budget} prompts from a source.
   *
   * @param source the phase's prompts, never null
   * @param budget how many prompts to hand out, at least 0
   */
  public PromptFeeder(PromptSource source, long budget) {
    this.source = Objects.requireNonNull(source, "source");
    if (budget < 0) {
      throw new IllegalArgumentException("feeder budget must be >= 0, got " + budget);
    }
    this.budget = budget;
  }

  /** Always true: an empty feeder would stop the whole simulation. */
  @Override
  public boolean hasNext() {
    return true;
  }

  @Override
  public synchronized Map<String, Object> next() {
    if (next >= budget) {
      return DONE_RECORD;
    }
    long index = next++;
    Prompt prompt = source.take(index);
    source.forget(index);
    Map<String, Object> record = new HashMap<>(16);
    record.put(INDEX, index);
    record.put(PHASE, source.phase());
    record.put(TEXT, prompt.text());
    record.put(PROMPT_ID, prompt.promptId());
    record.put(DIGEST, prompt.digest());
    if (prompt.prefixGroup() != null) {
      record.put(PREFIX_GROUP, prompt.prefixGroup());
      record.put(SHARED_PREFIX_TOKENS, prompt.sharedPrefixTokens());
    }
    record.put(PLANNED_TOKENS, prompt.plannedCount().value());
    record.put(DONE, false);
    return record;
  }

  /**
   * How many prompts were handed out so far.
   *
   * @return at most the budget
   */
  public synchronized long handedOut() {
    return next;
  }

  /**
   * The phase's source.
   *
   * @return never null
   */
  public PromptSource source() {
    return source;
  }
}
