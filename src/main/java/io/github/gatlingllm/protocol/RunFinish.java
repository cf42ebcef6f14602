package io.github.gatlingllm.protocol;

import io.github.gatlingllm.cache.CacheAggregator;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.AgentSessions;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.report.ExitLine;
import io.github.gatlingllm.report.IndexLink;
import io.github.gatlingllm.report.ReportPage;
import io.github.gatlingllm.report.RunRecorder;
import io.github.gatlingllm.report.RunSummary;
import io.github.gatlingllm.settings.LlmSettings;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The end of a run ({@link RunContext}), once: gathers the run record ({@code RunInfo},
 * {@code cache}, {@code conversations}, {@code client}, the server's metrics, the load levels),
 * writes {@code llm-run.json}, the CSV and the report page, logs the goodput, cache and summary
 * lines, then closes the workloads and stops the embedded simulator, whatever failed before.
 * Thread-safe.
 */
final class RunFinish {

  /** Logs under the run's name, as the console lines always did. */
  private static final Logger LOG = LoggerFactory.getLogger(RunContext.class);

  private final LlmProtocol protocol;
  private final LlmSettings settings;
  private final GatlingCore gatling;
  private final RunTarget target;
  private final RunTally tally;
  private final RunRecorder recorder;
  private final ServerWatch serverWatch;
  private final LevelWatch levels;
  private final ClientWatch client;
  private final CachePlan.Server chatCache;
  private final Shard shard;
  private final Long startAt;
  private final AtomicBoolean finished = new AtomicBoolean();
  private volatile TargetWatch targetWatch;
  private volatile SilenceWatch silenceWatch;
  private volatile BaselineGate baseline;
  private volatile SearchWatch search;
  private volatile java.util.function.Consumer<Boolean> judgeBaseline;

  /**
   * The end of a run whose parts have all started.
   *
   * @param protocol the run's protocol
   * @param gatling Gatling's core internals
   * @param target the run's target
   * @param tally the run's bookkeeping
   * @param recorder the run record
   * @param serverWatch the server's metrics
   * @param levels the load levels
   * @param client the client watch
   * @param chatCache what the cache plan knows of the chat endpoint
   * @param shard this JVM's shard
   * @param startAt {@code llm.startAt} in epoch ms, or null
   */
  RunFinish(
      LlmProtocol protocol,
      GatlingCore gatling,
      RunTarget target,
      RunTally tally,
      RunRecorder recorder,
      ServerWatch serverWatch,
      LevelWatch levels,
      ClientWatch client,
      CachePlan.Server chatCache,
      Shard shard,
      Long startAt) {
    this.protocol = protocol;
    this.settings = protocol.settings();
    this.gatling = gatling;
    this.target = target;
    this.tally = tally;
    this.recorder = recorder;
    this.serverWatch = serverWatch;
    this.levels = levels;
    this.client = client;
    this.chatCache = chatCache;
    this.shard = shard;
    this.startAt = startAt;
  }

  /** What the run's end does to the requests not ended, and how many it cut. */
  interface Ending {
    /**
     * Stops the run taking requests, cuts every request in flight and records every prompt handed
     * out and never sent, all as {@code cut_by_run_end}; returns once each is recorded.
     *
     * @param reason why the run ended, {@code end_reason}'s words
     */
    void cutAll(String reason);

    /**
     * The requests recorded as {@code cut_by_run_end} in the whole run, whenever they were cut.
     *
     * @return at least 0
     */
    long cut();

    /**
     * Of {@link #cut()}, the prompts handed out and never sent.
     *
     * @return at least 0
     */
    long cutBeforeSent();
  }

  /**
   * The run's target watch, whose {@code target_down} block the record gets.
   *
   * @param watch the watch, never null
   */
  void targetWatch(TargetWatch watch) {
    this.targetWatch = watch;
  }

  /**
   * The run's silence watch, whose {@code target_silent} block the record gets.
   *
   * @param watch the watch, never null
   */
  void silenceWatch(SilenceWatch watch) {
    this.silenceWatch = watch;
  }

  /**
   * The run's baseline, compared with when the record is written ({@code baseline}).
   *
   * @param gate the gate, or null without {@code llm.baseline}
   * @param judge compares the run now; its argument says whether Gatling still takes rows
   */
  /**
   * The run's capacity search, whose {@code capacity} the record gets.
   *
   * @param watch the search, never null
   */
  void search(SearchWatch watch) {
    this.search = watch;
  }

  void baseline(BaselineGate gate, java.util.function.Consumer<Boolean> judge) {
    this.baseline = gate;
    this.judgeBaseline = judge;
  }

  /**
   * Writes the run record into Gatling's run folder and stops the embedded simulator; runs once.
   *
   * @param interrupted whether the run was stopped before its end
   * @param crashed whether the run was stopped as a crash
   * @param refusal the line of the refusal that stopped the run in order ({@link
   *     RunContext#refused}), or null
   * @param lateMs how late this JVM passed the {@code llm.startAt} barrier, or null (no barrier, or
   *     not passed yet)
   * @param runEnd what the run knows of its end, or null when it ends before it started (during the
   *     start barrier)
   * @param ending the requests not ended: each is cut and recorded before the record is written
   * @param failedPercentBelow the simulation's failed-percent assertions by request name, or null
   *     when they could not be read
   * @param assertions the simulation's assertions, checked as Gatling does once the record's other
   *     parts are in, or null when the run stopped before they were read
   */
  void finish(
      boolean interrupted,
      boolean crashed,
      String refusal,
      Long lateMs,
      RunEnd runEnd,
      Ending ending,
      Map<String, Double> failedPercentBelow,
      AssertionCheck assertions) {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    try {
      RunEnd.Reason reason =
          runEnd == null
              ? (crashed ? RunEnd.Reason.CRASHED : RunEnd.Reason.INTERRUPTED)
              : runEnd.reason(crashed, interrupted && !crashed, gatling.nowMillis());
      // Every request sent is in the record: those in flight now with what was measured so far,
      // and every prompt handed out that was never sent.
      ending.cutAll(reason.wireName());
      RunRecord record =
          RunRecord.create()
              .with(runInfo(lateMs, failedPercentBelow))
              .withEnd(reason.wireName(), ending.cut(), ending.cutBeforeSent())
              .withTargetDown(
                  targetWatch == null ? null : targetWatch.toRecord(gatling.nowMillis()))
              .withTargetSilent(
                  silenceWatch == null ? null : silenceWatch.toRecord(System.nanoTime()));
      // The blocks still built as maps, in the file's order after the typed ones; the load levels
      // add the injection read back to the load.
      Map<String, Object> info = new LinkedHashMap<>();
      RunInfo.Load runLoad = record.load();
      if (runLoad != null) {
        info.put("load", runLoad.toMap());
      }
      List<Conversations> conversations = tally.conversationRecords();
      if (conversations != null) {
        info.put(Conversations.KEY, conversations);
      }
      List<AgentSessions> sessions = tally.agentRecords();
      if (sessions != null) {
        info.put(AgentSessions.KEY, sessions);
      }
      info.put(ClientSummary.KEY, client.finish());
      info.put("machine", client.machine());
      if (baseline != null) {
        // A run ended by its injection (or stopped) is compared now, for the record.
        judgeBaseline.accept(false);
        info.put("baseline", baseline.toRecord(record));
      }
      serverWatch.addTo(info);
      try {
        // Each level's schedule lag (open loops) and client CPU share, from the client watch.
        levels.addTo(
            info,
            tally.peakInFlight(),
            LevelWatch.levelsUntil(reason, gatling.nowMillis()),
            client::forWindow,
            reason == RunEnd.Reason.BUDGET_SPENT);
      } catch (RuntimeException e) {
        LOG.error("could not compute the load levels: {}", e.toString(), e);
      }
      if (assertions != null) {
        // Gatling closed simulation.log before its actor system terminated: its verdict is known.
        // A target-down or target-silent stop is the extension's own orderly stop (as a spent
        // budget's): Gatling closed its log and checks its assertions, so they are checked too.
        // So is a refusal's stop (RunContext.refused).
        boolean logCut =
            interrupted
                || (crashed && refusal == null)
                || (reason.interrupted()
                    && reason != RunEnd.Reason.TARGET_DOWN
                    && reason != RunEnd.Reason.TARGET_SILENT
                    && !(reason == RunEnd.Reason.CRASHED && refusal != null));
        info.putAll(
            assertions.toRecord(
                recorder.runFolder().orElse(null),
                !logCut
                    ? null
                    : crashed
                        ? RunEnd.Reason.CRASHED
                        : interrupted ? RunEnd.Reason.INTERRUPTED : reason));
      }
      Object load = info.remove("load");
      if (load != null) {
        record.withLoad(RunInfo.Load.of(load));
      }
      record.withAll(info);
      SearchWatch searchWatch = search;
      if (searchWatch != null) {
        try {
          record.withCapacity(searchWatch.finish(reason.wireName(), client::forWindow));
        } catch (RuntimeException e) {
          LOG.error("could not write the capacity search: {}", e.toString(), e);
        }
      }
      AtomicReference<RunRecord> written = new AtomicReference<>();
      Path folder =
          recorder.finish(
              record,
              RunTarget.cacheParameters(chatCache),
              interrupted || reason.interrupted(),
              (run, requests) -> {
                written.set(run);
                return ReportPage.render(run, requests);
              });
      reportGoodput();
      reportCache();
      RunSummary.log(written.get());
      if (refusal != null && !interrupted) {
        // The line last, after Gatling's report, and exit status 1.
        ExitLine.arm(refusal, folder);
        io.github.gatlingllm.internal.OneLineErrors.runRefused();
      } else if (!interrupted) {
        IndexLink.onExit(folder);
      }
    } catch (RuntimeException e) {
      LOG.error("could not write the LLM run record: {}", e.toString());
    } finally {
      tally.closeWorkloads();
      target.close();
    }
  }

  private void reportGoodput() {
    if (!settings.slo().isSet()) {
      return;
    }
    Goodput overall = recorder.summary().overall().goodput();
    LOG.info("{}", overall.describe());
    if (settings.goodputRatio() == null) {
      return;
    }
    for (String name : tally.requestNames()) {
      GroupSummary group = recorder.summary().group(name, Phase.MEASURED.wireName());
      Goodput g = group == null ? overall : group.goodput();
      String shortfall = g.shortfall(settings.goodputRatio());
      if (shortfall != null) {
        LOG.error("{} (llm.assert.goodputRatio, request {})", shortfall, name);
      }
    }
  }

  private void reportCache() {
    String line = recorder.cache().describe();
    if (line == null) {
      return;
    }
    boolean asPlanned = CacheAggregator.AS_PLANNED.equals(recorder.cache().verdict());
    if (asPlanned && recorder.cache().warmStarts() == 0) {
      LOG.info("{}", line);
    } else {
      LOG.warn("{}", line);
    }
  }

  private RunInfo runInfo(Long lateMs, Map<String, Double> failedPercentBelow) {
    RunTally.Fed fed = tally.fed();
    List<RunInfo.Prompts> prompts = fed.prompts();
    RunInfo.Decoding decoding =
        new RunInfo.Decoding(
            settings.outputTokens(),
            settings.ignoreEos(),
            settings.temperature(),
            settings.stream(),
            settings.stream());
    RunInfo.Load load =
        new RunInfo.Load(
            tally.peakInFlight(),
            fed.warmup(),
            fed.measured(),
            settings.timeout().toMillis(),
            settings.connections(),
            tally.usersEndedByBudget(),
            tally.staleConnectionResends(),
            List.of());
    Class<?> simulation = protocol.simulationClass();
    return new RunInfo(
        "gatling-llm",
        version(),
        GatlingCore.version(),
        simulation == null ? null : simulation.getName(),
        prompts.isEmpty() ? null : prompts.get(0),
        prompts.size() > 1 ? prompts : null,
        target.toRecord(),
        decoding,
        load,
        settings.slo().isSet() ? settings.slo() : null,
        RunInfo.Assertions.inForce(
            settings.slo().isSet(),
            settings.goodputRatio(),
            settings.cacheAsPlanned(),
            settings.saturation().sloLoadAtLeast(),
            failedPercentBelow),
        settings.stream() ? null : "llm.stream=false: no TTFT, ITL or TPOT are measured, only E2E",
        shard.single() && startAt == null
            ? null
            : new io.github.gatlingllm.record.Shard(
                shard.index(),
                shard.count(),
                startAt == null ? null : Instant.ofEpochMilli(startAt).toString(),
                lateMs));
  }

  static String version() {
    Package p = RunContext.class.getPackage();
    String version = p == null ? null : p.getImplementationVersion();
    return version == null ? "development build" : version;
  }
}
