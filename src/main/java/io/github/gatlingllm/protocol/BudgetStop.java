package io.github.gatlingllm.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Not API. What a spent budget stops. A workload's budget governs the scenarios whose virtual users
 * are fed it: once every workload is spent, each of their users ends without a request. The run's
 * injection is stopped (Gatling 3.16 stops injection for the whole run only, never for one
 * scenario) only when every scenario of the simulation has been fed a budget, so no scenario
 * without one ({@code .prompt(session -> ...)} requests, Gatling {@code http()} requests) is cut
 * short; otherwise those scenarios run to the end of their injection profiles and the budgeted
 * scenarios' users keep ending without a request until theirs end. When the simulation's scenarios
 * cannot be read, the first moment every budget is spent stops the whole run, as the run said at
 * its start. Thread-safe.
 */
final class BudgetStop {

  /** What the caller does for a virtual user fed past its budget. */
  enum Decision {
    /** Stop the run's injection now (returned once). */
    STOP,
    /** Budgets are spent but scenarios without one run on: say so (returned once). */
    RUN_ON,
    /** Nothing more than ending this user. */
    NONE
  }

  private final List<String> scenarios;
  private final Set<String> governed = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean runOnSaid = new AtomicBoolean();

  /**
   * @param scenarios every scenario of the simulation (children included), or null when Gatling's
   *     injection could not be read
   */
  BudgetStop(List<String> scenarios) {
    this.scenarios = scenarios == null ? null : List.copyOf(scenarios);
  }

  /**
   * A virtual user of {@code scenario} was fed past its workload's budget and ends.
   *
   * @param scenario the user's scenario, never null
   * @param allSpent whether every workload of this JVM is spent (handed out and ended)
   * @return {@link Decision#STOP} once, when every workload is spent and every scenario was fed a
   *     budget (or the scenarios are unknown); {@link Decision#RUN_ON} once, the first time every
   *     workload is spent while some scenario was never fed one; else {@link Decision#NONE}
   */
  Decision userEnded(String scenario, boolean allSpent) {
    governed.add(Objects.requireNonNull(scenario, "scenario"));
    if (!allSpent) {
      return Decision.NONE;
    }
    if (unbudgeted().isEmpty()) {
      return stopping.compareAndSet(false, true) ? Decision.STOP : Decision.NONE;
    }
    return runOnSaid.compareAndSet(false, true) ? Decision.RUN_ON : Decision.NONE;
  }

  /**
   * The scenarios never fed a budget so far.
   *
   * @return in the simulation's order; empty when the scenarios are unknown
   */
  List<String> unbudgeted() {
    List<String> out = new ArrayList<>();
    if (scenarios != null) {
      for (String s : scenarios) {
        if (!governed.contains(s) && !out.contains(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /**
   * The line said once when every budget is spent but some scenarios have none of their own.
   *
   * @return e.g. {@code every prompt budget is spent: the budgeted scenarios (chat) send no more
   *     requests, their virtual users end without one until their injection ends; the run goes on
   *     for the scenarios with no budget of their own (own prompt) until their injection ends}
   */
  String runOnText() {
    List<String> budgeted = new ArrayList<>();
    for (String s : scenarios) {
      if (governed.contains(s) && !budgeted.contains(s)) {
        budgeted.add(s);
      }
    }
    return "every prompt budget is spent: the budgeted scenarios ("
        + String.join(", ", budgeted)
        + ") send no more requests, their virtual users end without one until their injection"
        + " ends; the run goes on for the scenarios with no budget of their own ("
        + String.join(", ", unbudgeted())
        + ") until their injection ends";
  }

  /**
   * Whether the scenarios are unknown, so a spent budget stops the whole run.
   *
   * @return true when Gatling's injection could not be read
   */
  boolean stopsWholeRun() {
    return scenarios == null;
  }
}
