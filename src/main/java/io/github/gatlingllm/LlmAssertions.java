package io.github.gatlingllm;

import io.gatling.javaapi.core.Assertion;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The assertions {@link LlmProtocolBuilder#assertions(double, String...)} makes, as an immutable
 * list for Gatling's {@code setUp(...).assertions(List)}, with the simulation's own assertions
 * joined by {@link #and(Assertion...)}. Gatling keeps only the last {@code .assertions(...)} call
 * of a {@code setUp}, so put every assertion in one call:
 *
 * <pre>{@code
 * setUp(chat.injectOpen(atOnceUsers(8)))
 *     .protocols(llm)
 *     .assertions(
 *         llm.assertions(1.0, "chat")
 *             .and(global().responseTime().percentile(99.0).lt(5000),
 *                 details("turn", "chat").successfulRequests().percent().gt(99.0)));
 * }</pre>
 *
 * A later {@code .assertions(...)} call that drops the LLM ones stops the run before any load,
 * naming them. Immutable, so {@link #and} returns a new instance.
 */
public final class LlmAssertions extends AbstractList<Assertion> implements RandomAccess {

  private final List<Assertion> assertions;

  LlmAssertions(List<Assertion> assertions) {
    this.assertions = List.copyOf(assertions);
  }

  /**
   * These assertions followed by {@code more}.
   *
   * @param more the simulation's own Gatling assertions, none null
   * @return a new list: these, then {@code more}, in order
   * @throws NullPointerException if an assertion is null
   */
  public LlmAssertions and(Assertion... more) {
    return and(Arrays.asList(more));
  }

  /**
   * These assertions followed by {@code more}.
   *
   * @param more the simulation's own Gatling assertions, none null
   * @return a new list: these, then {@code more}, in order
   * @throws NullPointerException if the list or an assertion is null
   */
  public LlmAssertions and(List<Assertion> more) {
    Objects.requireNonNull(more, "more");
    List<Assertion> all = new ArrayList<>(assertions);
    for (Assertion a : more) {
      all.add(Objects.requireNonNull(a, "assertion"));
    }
    return new LlmAssertions(all);
  }

  @Override
  public Assertion get(int index) {
    return assertions.get(index);
  }

  @Override
  public int size() {
    return assertions.size();
  }
}
