package io.github.gatlingllm;

import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Package-private, so not part of the API: what {@link PromptFeederBuilder} and {@link
 * ConversationFeederBuilder} share. A builder holds its values as {@code -Dllm.*} setting names
 * (without {@code llm.}) and an optional name; each new value is checked at once with the system
 * properties over it, so a bad one fails the simulation's construction with a message naming the
 * setting, the value and what is allowed. The workload behind a builder instance is made once, on
 * first use.
 *
 * @param <B> the builder type, returned by every setter
 * @param <W> the workload type it makes
 */
abstract class WorkloadBuilder<B extends WorkloadBuilder<B, W>, W>
    implements Supplier<Iterator<Map<String, Object>>> {

  /** The values set, by setting name without {@code llm.}; unmodifiable. */
  final Map<String, String> values;

  /** The name set with {@link #name(String)}, or null for the default. */
  final String name;

  private final AtomicReference<W> workload = new AtomicReference<>();

  WorkloadBuilder(Map<String, String> values, String name) {
    this.values = Map.copyOf(values);
    this.name = name;
  }

  /**
   * Checks values as the builder's settings reader does, with the system properties over them.
   *
   * @param values the values
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  abstract void check(Map<String, String> values);

  /**
   * A builder of the same type with these values and name, unchecked.
   *
   * @param values the values
   * @param name the name, or null
   * @return the new builder
   */
  abstract B copy(Map<String, String> values, String name);

  /**
   * Makes the workload from the settings as resolved now.
   *
   * @return the workload
   * @throws IllegalArgumentException naming a bad setting
   */
  abstract W build();

  /**
   * How the DSL call reads in messages, e.g. {@code prompts()}.
   *
   * @return the call
   */
  abstract String dslCall();

  /** A builder with more values ({@code key, value} pairs), checked now. */
  final B with(String key, Object value, Object... more) {
    Map<String, String> next = new LinkedHashMap<>(values);
    next.put(key, String.valueOf(value));
    for (int i = 0; i < more.length; i += 2) {
      next.put((String) more[i], String.valueOf(more[i + 1]));
    }
    check(next);
    return copy(next, name);
  }

  /** A builder without these values. */
  final B without(String... keys) {
    Map<String, String> next = new LinkedHashMap<>(values);
    for (String key : keys) {
      next.remove(key);
    }
    return copy(next, name);
  }

  /**
   * The seed (default 0; {@code llm.seed}, shared by {@code prompts()} and {@code
   * conversations()}).
   *
   * @param seed any whole number
   * @return a new builder
   */
  public B seed(long seed) {
    return with("seed", seed);
  }

  /**
   * The case id the workload's prompts or user messages are made for ({@code llm.caseId}; default
   * for {@code prompts()} {@code c{llm.concurrency}_in{inputTokens}_out{llm.outputTokens}}, as the
   * reference generator names cases, and for {@code conversations()} {@code
   * conv_t{turns}_u{userTokens}}). Two workloads with the same settings, seed and case id send the
   * same prompts or user messages.
   *
   * @param caseId any text
   * @return a new builder
   */
  public B caseId(String caseId) {
    return with("caseId", Objects.requireNonNull(caseId, "caseId"));
  }

  /**
   * The tokenizer that sizes the prompts or messages ({@code llm.tokenizer}): {@code estimate}
   * (whitespace words, the default) or the path of a local Hugging Face {@code tokenizer.json} or
   * of its folder. Loaded once per JVM.
   *
   * @param tokenizer {@code estimate} or a path
   * @return a new builder
   */
  public B tokenizer(String tokenizer) {
    return with("tokenizer", Objects.requireNonNull(tokenizer, "tokenizer"));
  }

  /**
   * The workload's name in the record, the report and the logs (default for {@code prompts()} the
   * prompt mode, e.g. {@code shared-prefix}; for {@code conversations()} {@code conversations}, or
   * {@code conversations-2}, {@code -3}... when another unnamed workload of the run has it, and a
   * name another conversation workload of the run has is refused when the feeder is made).
   *
   * @param name not blank
   * @return a new builder
   * @throws IllegalArgumentException if blank
   */
  public B name(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          dslCall()
              + ".name: got "
              + (name == null ? "null" : "\"" + name + "\"")
              + ", expected a name");
    }
    return copy(values, name);
  }

  /**
   * The workload behind this builder, made on first use.
   *
   * @return the workload
   * @throws IllegalArgumentException naming a bad setting
   */
  W workload() {
    W w = workload.get();
    if (w != null) {
      return w;
    }
    synchronized (workload) {
      if (workload.get() == null) {
        // A refusal's message is the run's one line (internal.OneLineErrors prints it alone).
        workload.set(build());
      }
      return workload.get();
    }
  }

  /**
   * The shared token counter of a tokenizer setting.
   *
   * @param tokenizer {@code estimate} or a path
   * @return the counter
   * @throws IllegalArgumentException naming {@code llm.tokenizer} when it cannot be loaded
   */
  static TokenCounter counter(String tokenizer) {
    try {
      return TokenCounters.shared(tokenizer);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("llm.tokenizer: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return dslCall() + values + (name == null ? "" : " named " + name);
  }
}
