package io.github.gatlingllm.protocol;

import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.gatlingllm.report.RunFolders;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import scala.Function1;

/**
 * Not API: build it with {@code LlmDsl.llm()}. Gatling's protocol of the LLM requests: the resolved
 * settings, and the key under which Gatling makes its {@link LlmComponents} once per simulation.
 */
public final class LlmProtocol implements Protocol {

  /** Gatling's key of this protocol's components. */
  public static final ProtocolKey<LlmProtocol, LlmComponents> KEY = new Key();

  /**
   * The figure row of the load that met the SLO ({@code llm.assert.sloLoad}), which {@code
   * LlmDsl.sloLoadMet()} asserts on ({@code LlmDsl.SLO_LOAD_ROW}).
   */
  public static final String SLO_LOAD_ROW = "SLO LOAD";

  /**
   * The figure row of the capacity search's answer against {@code llm.assert.capacityAtLeast},
   * which {@code LlmDsl.capacityMet()} asserts on ({@code LlmDsl.CAPACITY_ROW}).
   */
  public static final String CAPACITY_ROW = "CAPACITY";

  /**
   * The first word of the baseline's figure rows ({@code BASELINE ttft_p50_ms} etc.), which {@code
   * LlmDsl.noRegression(metric)} asserts on ({@code LlmDsl.BASELINE_ROW}).
   */
  public static final String BASELINE_ROW = "BASELINE";

  private final LlmSettings settings;
  private final SimulatorConfig simulator;
  private final Map<String, Object> extraBody;
  private final Map<String, String> headers;
  private final Class<?> simulationClass;
  private final RunFolders folders;
  private final HttpProtocolBuilder http;

  /**
   * A protocol; lists the results folder now, before Gatling makes the run's folder.
   *
   * @param settings the checked settings, never null
   * @param simulator the embedded simulator's configuration, never null
   * @param extraBody further body fields of every request, never null
   * @param headers further headers of every request, never null
   * @param simulationClass the simulation's class, or null when not known (then any new run folder
   *     is the run's)
   * @param http Gatling's HTTP protocol of the LLM requests, never null
   * @throws IllegalArgumentException if the results folder cannot be listed
   */
  public LlmProtocol(
      LlmSettings settings,
      SimulatorConfig simulator,
      Map<String, Object> extraBody,
      Map<String, String> headers,
      Class<?> simulationClass,
      HttpProtocolBuilder http) {
    this.http = Objects.requireNonNull(http, "http");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.simulator = Objects.requireNonNull(simulator, "simulator");
    this.extraBody = Map.copyOf(extraBody);
    this.headers = Map.copyOf(headers);
    this.simulationClass = simulationClass;
    Path results =
        resultsFolder(
            settings.resultsFolder(),
            resultsFolderSet(settings),
            io.github.gatlingllm.internal.GatlingResults.resultsFolder().orElse(null));
    try {
      this.folders = RunFolders.before(results, simulationClass);
    } catch (java.io.UncheckedIOException e) {
      throw new IllegalArgumentException(
          "llm.resultsFolder: cannot list \"" + results + "\" (" + e.getCause() + ")", e);
    }
    FedRuns.protocolMade(this);
    io.github.gatlingllm.settings.SettingUse.RUN.made(
        io.github.gatlingllm.settings.SettingUse.Part.PROTOCOL);
  }

  /**
   * The results folder the run's files go into: Gatling's, wherever its launcher put it, so that
   * the run has one folder; {@code llm.resultsFolder} only where Gatling's cannot be known (its
   * launcher gave it no {@code -rf}, or it is not this JVM's launcher). When {@code
   * llm.resultsFolder} is set and names another folder than Gatling's, says once that it follows
   * Gatling's and how to move both.
   *
   * @param llmFolder {@code llm.resultsFolder} as resolved (its default when unset), never null
   * @param llmSet whether {@code llm.resultsFolder} was set (property or DSL)
   * @param gatlingFolder Gatling's results folder, or null when not known
   * @return the folder
   */
  static Path resultsFolder(String llmFolder, boolean llmSet, Path gatlingFolder) {
    if (gatlingFolder == null) {
      return Path.of(llmFolder);
    }
    if (llmSet
        && !same(Path.of(llmFolder), gatlingFolder)
        && MOVED_SAID.compareAndSet(false, true)) {
      org.slf4j.LoggerFactory.getLogger(LlmProtocol.class)
          .warn(
              "llm.resultsFolder=\"{}\": Gatling writes this run's folder under \"{}\" (its"
                  + " launcher's -rf), so the LLM files go there too, beside Gatling's report; to"
                  + " move both, set Gatling's results folder: -Dllm.resultsFolder with this"
                  + " repository's pom, the plugin's <resultsFolder> (-Dgatling.resultsFolder) in"
                  + " your own Maven project, -rf with io.gatling.app.Gatling",
              llmFolder,
              gatlingFolder);
    }
    return gatlingFolder;
  }

  private static final java.util.concurrent.atomic.AtomicBoolean MOVED_SAID =
      new java.util.concurrent.atomic.AtomicBoolean();

  private static boolean same(Path a, Path b) {
    return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
  }

  /**
   * Whether {@code llm.resultsFolder} was set, as a property or with {@code llm().resultsFolder}.
   */
  private static boolean resultsFolderSet(LlmSettings settings) {
    return !settings.resultsFolder().equals(LlmSettings.DEFAULT_RESULTS_FOLDER);
  }

  /**
   * The settings.
   *
   * @return never null
   */
  public LlmSettings settings() {
    return settings;
  }

  SimulatorConfig simulator() {
    return simulator;
  }

  Map<String, Object> extraBody() {
    return extraBody;
  }

  Map<String, String> headers() {
    return headers;
  }

  Class<?> simulationClass() {
    return simulationClass;
  }

  RunFolders folders() {
    return folders;
  }

  HttpProtocolBuilder http() {
    return http;
  }

  private static final class Key implements ProtocolKey<LlmProtocol, LlmComponents> {

    @SuppressWarnings("unchecked")
    @Override
    public Class<Protocol> protocolClass() {
      return (Class<Protocol>) (Class<?>) LlmProtocol.class;
    }

    /**
     * Refuses to run LLM requests without an LLM protocol: the values set on the simulation's
     * {@code llm()} (base URL, model, max tokens...) would be silently replaced by defaults, and
     * without a base URL the run would measure the embedded simulator instead of the user's server.
     */
    @Override
    public LlmProtocol defaultProtocolValue(GatlingConfiguration configuration) {
      throw new IllegalArgumentException(
          "no LLM protocol: setUp(...) has no .protocols(llm) (e.g. LlmProtocolBuilder llm ="
              + " llm().maxTokens(32); setUp(...).protocols(llm)), expected one, so that the"
              + " requests go where llm() says rather than to defaults");
    }

    @Override
    public Function1<LlmProtocol, LlmComponents> newComponents(CoreComponents core) {
      // Called once per simulation; the function once per scenario: one run per protocol.
      Map<LlmProtocol, LlmComponents> runs = new IdentityHashMap<>();
      return protocol -> {
        synchronized (runs) {
          return runs.computeIfAbsent(protocol, p -> new LlmComponents(RunContext.start(p, core)));
        }
      };
    }
  }
}
