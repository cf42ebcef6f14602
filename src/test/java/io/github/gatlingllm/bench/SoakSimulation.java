package io.github.gatlingllm.bench;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.FaultInjectingStrategy;
import io.github.gatlingllm.simulator.ResponseStrategy;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.simulator.SimulatorStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak run of {@code scripts/soak.sh}: an open loop of {@code -Dsoak.rate} streamed requests/s
 * for {@code -Dsoak.seconds} against a simulator in this JVM (keep-alive, 20 ms TTFT, 5 ms a token,
 * 32 tokens, {@code -Dsoak.maxConcurrent} sequences at once, default 4096) whose {@link
 * FaultInjectingStrategy} aborts or stalls a seeded {@code -Dsoak.faultRate} share of them (client
 * timeout 5 s, stall 20 s; a normal request takes about 200 ms). Every {@code -Dsoak.sampleSeconds}
 * it runs a full GC and samples the used heap. In {@code after()} it writes {@code -Dsoak.out}
 * (JSON): the heap samples in bytes, the injected faults per kind, the most requests in flight at
 * once, and the simulator's counts (connections accepted, requests answered by status). Runs
 * without the pre-flight request, so that every POST the simulator answers is a recorded request.
 * Not a test.
 */
public class SoakSimulation extends Simulation {

  private static final double RATE = Double.parseDouble(System.getProperty("soak.rate", "50"));
  private static final int SECONDS = Integer.getInteger("soak.seconds", 600);
  private static final double FAULT_RATE =
      Double.parseDouble(System.getProperty("soak.faultRate", "0.05"));
  private static final int MAX_CONCURRENT = Integer.getInteger("soak.maxConcurrent", 4096);
  private static final int SAMPLE_SECONDS = Integer.getInteger("soak.sampleSeconds", 15);
  private static final Path OUT = Path.of(System.getProperty("soak.out", "target/soak.json"));

  private final FaultInjectingStrategy faults =
      new FaultInjectingStrategy(ResponseStrategy.standard(), FAULT_RATE, 42, 20_000);
  private final Simulator simulator =
      Simulator.start(
          SimulatorConfig.defaults()
              .withBaseTtftMs(20)
              .withPrefillUsPerToken(0)
              .withDecodeMsPerToken(5)
              .withMaxConcurrent(MAX_CONCURRENT),
          0,
          faults);
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong peakInFlight = new AtomicLong();
  private final List<Map<String, Object>> heap = new ArrayList<>();
  private final long startedMs = System.currentTimeMillis();
  private final ScheduledExecutorService sampler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "soak-heap-sampler");
            t.setDaemon(true);
            return t;
          });

  LlmProtocolBuilder llm =
      llm()
          .baseUrl(simulator.baseUrl())
          .model(simulator.config().model())
          .maxTokens(32)
          .timeout(Duration.ofSeconds(5))
          // No pre-flight request: it would be one more POST than requests recorded and would take
          // the fault draw of simulator request 1.
          .preflight(false);

  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(64).requests((long) Math.ceil(RATE * SECONDS));

  {
    sampler.scheduleAtFixedRate(this::sample, 0, SAMPLE_SECONDS, TimeUnit.SECONDS);
    setUp(
            scenario("soak")
                .feed(prompts)
                .exec(
                    exec(session -> {
                          peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                          return session;
                        })
                        .exec(llm("chat").chatCompletion())
                        .exec(
                            session -> {
                              inFlight.decrementAndGet();
                              return session;
                            }))
                .injectOpen(constantUsersPerSec(RATE).during(Duration.ofSeconds(SECONDS))))
        .protocols(llm)
        .maxDuration(Duration.ofSeconds(SECONDS + 120));
  }

  private void sample() {
    System.gc();
    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("t_s", (System.currentTimeMillis() - startedMs) / 1000);
    s.put("heap_used_bytes", used);
    synchronized (heap) {
      heap.add(s);
    }
  }

  @Override
  public void after() {
    sampler.shutdownNow();
    sample();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("rate_per_s", RATE);
    out.put("seconds", SECONDS);
    out.put("fault_rate", FAULT_RATE);
    Map<String, Long> injected = new LinkedHashMap<>();
    faults.injected().forEach((k, v) -> injected.put(k.name().toLowerCase(), v));
    out.put("injected", injected);
    out.put("peak_in_flight", peakInFlight.get());
    SimulatorStats stats = simulator.stats();
    out.put("connections_accepted", stats.connectionsAccepted());
    out.put("requests_by_status", stats.requestsByStatus());
    synchronized (heap) {
      out.put("heap", heap);
    }
    // Every request has ended by now; the run record is written after this, without the server.
    simulator.close();
    try {
      Files.writeString(
          OUT,
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
