package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.action.builder.ActionBuilder;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import io.github.gatlingllm.capacity.CapacitySearch;
import io.github.gatlingllm.capacity.SearchSettings;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.internal.JavaAction;
import io.github.gatlingllm.protocol.LlmProtocol;
import io.github.gatlingllm.protocol.RunContext;
import io.github.gatlingllm.protocol.SearchWatch;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The capacity search's gate ({@code capacitySearch().gate()}, issue 44): the first step
 * of the searched scenario, before its feeder and its LLM request. An open-loop user arriving at it
 * is admitted at the current level's rate or ends at once, sending nothing ({@link
 * CapacitySearch#admitArrival}); a closed-loop user at the start of each loop takes one of the
 * current level's places or waits {@value #WAIT_MS} ms and asks again ({@link
 * CapacitySearch#enter}). Once the search is over, or the run has ended, every user that asks ends.
 */
public final class SearchGate extends JavaAction {

  private static final Logger LOG = LoggerFactory.getLogger(SearchGate.class);

  /** How long a closed-loop user waits before it asks again for a place, ms. */
  static final long WAIT_MS = 20;

  /** Session key: the level (its step) whose place the user holds (closed loops). */
  static final String PLACE = "llm.search.place";

  private final SearchWatch watch;
  private final CapacitySearch search;
  private final RunContext run;
  private final GatlingCore gatling;
  private final Action next;

  private SearchGate(SearchWatch watch, RunContext run, Action next) {
    super(LOG);
    this.watch = watch;
    this.search = watch.search();
    this.run = run;
    this.gatling = run.gatling();
    this.next = next;
  }

  @Override
  public String name() {
    return "capacity search gate";
  }

  @Override
  public void execute(Session session) {
    try {
      ask(session);
    } catch (RuntimeException e) {
      LOG.error("capacity search gate: {}", e.toString(), e);
      gatling.exit().$bang(session);
    }
  }

  private void ask(Session session) {
    boolean closed = search.settings().closed();
    if (closed && session.attributes().contains(PLACE)) {
      search.leave(((Number) session.attributes().apply(PLACE)).intValue());
      session = session.remove(PLACE);
    }
    if (search.over() || run.ended() != null) {
      gatling.exit().$bang(session);
      return;
    }
    long now = gatling.nowMillis();
    String scenario = session.scenario();
    if (closed) {
      int place = search.enter(scenario, now);
      watch.asked(scenario);
      if (place >= 0) {
        next.$bang(session.set(PLACE, place));
      } else {
        Session waiting = session;
        session.eventLoop().schedule(() -> execute(waiting), WAIT_MS, TimeUnit.MILLISECONDS);
      }
      return;
    }
    boolean admitted = search.admitArrival(scenario, now);
    watch.asked(scenario);
    if (admitted) {
      next.$bang(session);
    } else {
      gatling.exit().$bang(session);
    }
  }

  /** Gatling's builder of the gate: finds the run and its search when the scenario is built. */
  public static final class Builder implements ActionBuilder {

    private final SearchSettings settings;

    /**
     * A builder of the gate of a search.
     *
     * @param settings the search's settings, checked, never null
     */
    public Builder(SearchSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public Action build(ScenarioContext ctx, Action next) {
      RunContext run = ctx.protocolComponentsRegistry().components(LlmProtocol.KEY).run();
      return new SearchGate(run.capacitySearch(settings), run, next);
    }
  }
}
