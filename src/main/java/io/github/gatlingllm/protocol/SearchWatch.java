package io.github.gatlingllm.protocol;

import io.github.gatlingllm.capacity.CapacitySearch;
import io.github.gatlingllm.capacity.SearchSettings;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.levels.LoadLevel;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.Capacity;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.report.Console;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The run's capacity search (issue 44): its controller ({@link CapacitySearch}), the timer
 * that moves it on every {@value #TICK_MS} ms, its console lines, the {@value
 * LlmProtocol#CAPACITY_ROW} figure row of {@code llm.assert.capacityAtLeast}, and the stop of the
 * run once the search is over ({@code end_reason} {@code search_over}). Thread-safe.
 */
public final class SearchWatch implements CapacitySearch.Listener {

  private static final Logger LOG = LoggerFactory.getLogger(SearchWatch.class);

  /** How often the search is moved on, ms. */
  static final long TICK_MS = 100;

  private final CapacitySearch search;
  private final GatlingCore gatling;
  private final Runnable stopRun;
  private final java.util.function.Consumer<String> searching;
  private final Set<String> requests = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private volatile boolean scenarioSaid;

  /**
   * Starts a search.
   *
   * @param settings the search's settings
   * @param run the run's settings (its SLO, {@code llm.slo.levelAttainment}, {@code llm.timeout})
   * @param gatling Gatling's core (its clock, the figure row)
   * @param searching called once with the scenario searched, when its first user asks
   * @param stopRun stops the run once the search is over
   * @throws IllegalArgumentException if no SLO is set
   */
  SearchWatch(
      SearchSettings settings,
      io.github.gatlingllm.settings.LlmSettings run,
      GatlingCore gatling,
      java.util.function.Consumer<String> searching,
      Runnable stopRun) {
    this.gatling = gatling;
    this.stopRun = stopRun;
    this.searching = searching;
    this.search =
        new CapacitySearch(
            settings,
            run.slo(),
            run.saturation().levelAttainment(),
            run.timeout().toMillis(),
            this);
    LOG.info(
        "capacity search ({} search): {}; SLO {} for {} of requests",
        settings.closed() ? "concurrency" : "arrival-rate",
        settings.describe(),
        run.slo(),
        LoadLevel.describeNumber(run.saturation().levelAttainment()));
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gatling-llm-search");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    try {
      search.tick(gatling.nowMillis());
    } catch (RuntimeException e) {
      LOG.error("capacity search: {}", e.toString(), e);
    }
  }

  /**
   * The controller.
   *
   * @return never null
   */
  public CapacitySearch search() {
    return search;
  }

  /**
   * A user of a scenario asks the search: the first one names the scenario searched.
   *
   * @param scenario the user's scenario
   */
  public void asked(String scenario) {
    if (!scenarioSaid && search.controls(scenario)) {
      synchronized (this) {
        if (!scenarioSaid) {
          scenarioSaid = true;
          searching.accept(scenario);
        }
      }
    }
  }

  /**
   * A request is about to be sent.
   *
   * @param scenario its scenario
   * @param request its name
   * @param nowMs now, epoch ms
   */
  void sending(String scenario, String request, long nowMs) {
    if (search.controls(scenario)) {
      requests.add(request);
      search.started(nowMs);
    }
  }

  /**
   * A request ended and was recorded.
   *
   * @param record the request
   */
  void record(RequestRecord record) {
    if (requests.contains(record.request())) {
      search.record(record);
    }
  }

  @Override
  public void levelJudged(String line) {
    LOG.info("{}", line);
  }

  @Override
  public void over(String answer, boolean ok) {
    Console.line(LOG, answer);
    Double bound = search.settings().capacityAtLeast();
    if (bound != null) {
      long now = gatling.nowMillis();
      if (!ok) {
        LOG.error(
            "the capacity found is below llm.assert.capacityAtLeast {} {}",
            LoadLevel.describeNumber(bound),
            search.settings().unit());
      }
      gatling.logFigure(
          search.scenario() == null ? "llm" : search.scenario(),
          List.of(),
          LlmProtocol.CAPACITY_ROW,
          now,
          now,
          ok);
    }
    timer.shutdown();
    stopRun.run();
  }

  /**
   * The run record's {@code capacity}, once the run ended; stops the timer.
   *
   * @param endReason the run's {@code end_reason}
   * @param client the client's figures of a window, or null
   * @return the block, or null when the search never started
   */
  Capacity finish(String endReason, BiFunction<Long, Long, LevelEntry.Client> client) {
    timer.shutdownNow();
    Capacity block = search.toRecord(endReason, gatling.nowMillis(), client);
    if (block != null && !search.over()) {
      Console.line(LOG, block.answer());
    }
    return block;
  }
}
