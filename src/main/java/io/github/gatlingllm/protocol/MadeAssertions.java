package io.github.gatlingllm.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Not API. The Gatling assertions {@code llm.assertions(...)} made while a simulation was built, by
 * simulation class, so that the run can tell, before any load, when a later {@code
 * setUp(...).assertions(...)} call replaced them (Gatling keeps only the last call's).
 */
public final class MadeAssertions {

  private static final Map<Class<?>, List<io.gatling.commons.stats.assertion.Assertion>> MADE =
      new ConcurrentHashMap<>();

  private MadeAssertions() {}

  /**
   * Notes assertions made for a simulation.
   *
   * @param simulation the simulation class whose construction made them, or null (then nothing is
   *     noted: outside a simulation there is no run to check)
   * @param assertions Gatling's assertions, never null
   */
  public static void made(
      Class<?> simulation, List<io.gatling.commons.stats.assertion.Assertion> assertions) {
    if (simulation == null) {
      return;
    }
    MADE.compute(
        simulation,
        (k, old) -> {
          List<io.gatling.commons.stats.assertion.Assertion> all =
              old == null ? new ArrayList<>() : new ArrayList<>(old);
          all.addAll(assertions);
          return List.copyOf(all);
        });
  }

  /**
   * The assertions made for a simulation that are not among its assertions.
   *
   * @param simulation the simulation class, or null
   * @param kept the simulation's assertions, as Gatling holds them, never null
   * @return the missing ones, in the order made; empty when none is missing or none was made
   */
  static List<io.gatling.commons.stats.assertion.Assertion> dropped(
      Class<?> simulation, List<io.gatling.commons.stats.assertion.Assertion> kept) {
    if (simulation == null) {
      return List.of();
    }
    List<io.gatling.commons.stats.assertion.Assertion> out = new ArrayList<>();
    for (io.gatling.commons.stats.assertion.Assertion a :
        MADE.getOrDefault(simulation, List.of())) {
      if (!kept.contains(a) && !out.contains(a)) {
        out.add(a);
      }
    }
    return out;
  }

  /**
   * The error for assertions dropped by a later {@code .assertions(...)} call.
   *
   * @param dropped Gatling's texts of the dropped assertions, not empty
   * @return one line naming them and the way to keep them
   */
  static String describe(List<String> dropped) {
    return "llm.assertions(...): "
        + dropped.size()
        + (dropped.size() == 1 ? " of its assertions is" : " of its assertions are")
        + " not in setUp(...)'s ("
        + String.join("; ", dropped)
        + "): a later .assertions(...) call replaced them (Gatling keeps only the last call);"
        + " put all in one call: .assertions(llm.assertions(1.0, \"chat\").and(yourAssertions...))";
  }
}
