package io.github.gatlingllm.protocol;

import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.PromptsHandedOut;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.report.IndexLink;
import io.github.gatlingllm.report.ReportPage;
import io.github.gatlingllm.report.RunRecorder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The run record of a simulation that feeds {@code prompts()} to Gatling's own {@code
 * http()} requests: {@code llm-run.json} (the workloads, their specs, the prompts handed out and
 * their phase digests), {@code llm-report.html} with what is known (no TTFT, ITL, TPOT or E2E: no
 * LLM request ran) and the link from Gatling's {@code index.html}.
 *
 * <p>Why it is needed: Gatling builds a protocol's components only for an action that asks for them
 * ({@code ProtocolComponentsRegistry.components(key)}), so a simulation without any {@code
 * llm(...)} request never builds the LLM protocol's components and never starts a {@link
 * RunContext}, even with {@code .protocols(httpProtocol, llm)}; and a feeder is handed nothing of
 * the run (no core components, no termination hook). So the feeders report here when Gatling builds
 * them, the LLM protocol when it is made (in the simulation's {@code setUp}, before Gatling makes
 * its run folder), and a run context when it starts. At the JVM's exit (Gatling's launcher exits
 * once its report is written), when no run context of this JVM wrote the record, the record of the
 * workloads that handed out prompts is written into the run folder the protocol's listing finds,
 * and {@code index.html} is linked. Without an LLM protocol there is no listing taken before the
 * run: the run says so once, when the first such feeder is built, and writes nothing.
 *
 * <p>Process-wide, as {@link Workload}'s list of open workloads: Gatling gives a feeder no handle
 * on its run. Thread-safe.
 */
public final class FedRuns {

  private static final Logger LOG = LoggerFactory.getLogger(RunContext.class);

  private static final List<LlmProtocol> PROTOCOLS = new CopyOnWriteArrayList<>();
  private static final List<LlmProtocol> STARTED = new CopyOnWriteArrayList<>();
  private static final List<Workload> FED = new CopyOnWriteArrayList<>();
  private static final Object LOCK = new Object();
  private static boolean armed;
  private static boolean warned;
  private static long startedMs;
  private static LlmProtocol protocol;

  private FedRuns() {}

  /**
   * An LLM protocol was made (the simulation's {@code setUp(...).protocols(..., llm)}).
   *
   * @param made the protocol, never null
   */
  static void protocolMade(LlmProtocol made) {
    PROTOCOLS.add(made);
  }

  /**
   * A run context started for a protocol: it writes the run record itself.
   *
   * @param started the protocol, never null
   */
  static void runStarted(LlmProtocol started) {
    STARTED.add(started);
  }

  /**
   * Gatling built a feeder over a workload ({@code feed(prompts()...)} while it builds the
   * scenarios, before any load): the workload's prompts are recorded at the JVM's exit unless a run
   * context records them. Says once, when there is no LLM protocol, that nothing will be recorded.
   *
   * @param workload the workload, never null
   */
  public static void feederBuilt(Workload workload) {
    synchronized (LOCK) {
      if (!FED.contains(workload)) {
        FED.add(workload);
      }
      if (armed) {
        return;
      }
      if (PROTOCOLS.isEmpty()) {
        if (!warned) {
          warned = true;
          LOG.warn(
              "prompts() feeder {}: the simulation registers no LLM protocol, so if its prompts"
                  + " are posted with Gatling's own http() no llm-run.json is written and their"
                  + " digests are not recorded: register it beside the HTTP protocol,"
                  + " setUp(...).protocols(httpProtocol, llm())",
              workload.name());
        }
        return;
      }
      if (!STARTED.isEmpty()) {
        // An llm(...) request's run context records the run.
        return;
      }
      protocol = PROTOCOLS.get(PROTOCOLS.size() - 1);
      startedMs = System.currentTimeMillis();
      armed = true;
      Runtime.getRuntime().addShutdownHook(new Thread(FedRuns::atExit, "gatling-llm-fed-record"));
    }
  }

  /**
   * At the JVM's exit. Gatling's launcher stops its logging (logback) before it exits, so what this
   * hook has to say goes to standard output (errors to standard error) directly, as Gatling prints
   * its own statistics.
   */
  private static void atExit() {
    String unused =
        io.github.gatlingllm.settings.SettingUse.RUN.unusedLineOnce(System.getProperties());
    if (unused != null) {
      System.err.println("gatling-llm: " + unused);
    }
    try {
      Path folder = write();
      if (folder != null) {
        if (!IndexLink.inject(folder)) {
          System.err.println(
              "gatling-llm: no Gatling index.html in " + folder + " to link the LLM report from");
        }
        System.out.println("LLM report: " + folder.resolve(RunRecorder.REPORT_FILE).toUri());
      }
    } catch (java.io.IOException | RuntimeException e) {
      System.err.println(
          "gatling-llm: could not write the LLM run record of the fed prompts: " + e);
    }
    System.out.flush();
    System.err.flush();
  }

  /**
   * Writes the record of the fed workloads when no run context wrote one.
   *
   * @return the run folder, or null when nothing was written
   */
  static Path write() {
    if (!STARTED.isEmpty()) {
      // An llm(...) request ran: its run context wrote the record, with these workloads if they
      // fed it.
      return null;
    }
    List<RunInfo.Prompts> prompts = new ArrayList<>();
    long warmup = 0;
    long measured = 0;
    for (Workload w : FED) {
      long handed = w.warmup().handedOut() + w.measured().handedOut();
      if (handed == 0) {
        continue;
      }
      prompts.add(RunTally.prompts(w, java.util.Set.of()));
      warmup += w.warmup().handedOut();
      measured += w.measured().handedOut();
    }
    if (prompts.isEmpty()) {
      return null;
    }
    Class<?> simulation = protocol.simulationClass();
    RunInfo info =
        new RunInfo(
            "gatling-llm",
            RunFinish.version(),
            GatlingCore.version(),
            simulation == null ? null : simulation.getName(),
            prompts.get(0),
            prompts.size() > 1 ? prompts : null,
            null,
            null,
            null,
            null,
            null,
            NOTE,
            null);
    // The LLM action's load figures (peak concurrency, timeout, connections) are unknown here.
    RunRecord record =
        RunRecord.create().with(info).withGatlingHttp(new PromptsHandedOut(warmup, measured));
    RunRecorder recorder =
        new RunRecorder(
            protocol.folders(), Slo.NONE, protocol.settings().cacheTolerance(), startedMs);
    Path folder =
        recorder.finish(record, null, false, (run, requests) -> ReportPage.render(run, requests));
    System.out.println(
        "LLM record of the prompts handed to Gatling's http(): "
            + measured
            + " measured and "
            + warmup
            + " warmup prompts of "
            + prompts.size()
            + " workload(s), digests in "
            + folder.resolve(RunRecorder.RUN_FILE));
    return folder;
  }

  /** What the record of a fed run says it lacks. */
  static final String NOTE =
      "the prompts were posted with Gatling's own http(), not llm(...): gatling-llm saw no"
          + " response, so there are no TTFT, ITL, TPOT, E2E or token figures here (Gatling's"
          + " report has the response times); the prompts handed out, their specs and phase"
          + " digests are recorded";
}
