package io.github.gatlingllm.simulator;

import static io.github.gatlingllm.simulator.SimulatorClient.completion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Clients that leave early, and connections that carry several requests. */
class SimulatorCancelTest {

  private static final String COMPLETIONS = "/v1/completions";

  /** A slow single-slot server: 100 tokens of 20 ms each, 2 s per request. */
  private static final SimulatorConfig ONE_SLOW_SLOT =
      SimulatorConfig.defaults()
          .withBaseTtftMs(0)
          .withPrefillUsPerToken(0)
          .withDecodeMsPerToken(20)
          .withMaxConcurrent(1);

  private Simulator simulator;

  @AfterEach
  void stop() {
    if (simulator != null) {
      simulator.close();
    }
  }

  private SimulatorClient start(SimulatorConfig config) {
    simulator = Simulator.start(config, 0);
    return new SimulatorClient(simulator);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "not within 5 s: " + what);
      Thread.sleep(5);
    }
  }

  @Test
  void clientLeavingMidStreamFreesItsSlot() throws Exception {
    SimulatorClient client = start(ONE_SLOW_SLOT);
    try (Socket socket =
        client.rawPost(COMPLETIONS, completion("a", "max_tokens", 100, "stream", true))) {
      SimulatorClient.readUntil(socket, "\"the\"");
    }
    await("slot freed", () -> simulator.stats().runningSequences() == 0);
    ServedRequest record = simulator.requests().get(0);
    assertFalse(record.completed());
    assertTrue(record.completionTokens() < 100, record.toString());
    assertEquals(1, simulator.stats().requests(200));
    // The slot is free again: the next request is admitted at once.
    client.post(COMPLETIONS, completion("b", "max_tokens", 1));
    assertEquals(0, simulator.requests().get(1).queueWaitNanos());
  }

  @Test
  void metricsCountTheRequestsWhoseClientLeft() throws Exception {
    SimulatorClient client = start(ONE_SLOW_SLOT);
    try (Socket socket =
        client.rawPost(COMPLETIONS, completion("a", "max_tokens", 100, "stream", true))) {
      SimulatorClient.readUntil(socket, "\"the\"");
    }
    await("slot freed", () -> simulator.stats().runningSequences() == 0);
    assertEquals(1, simulator.stats().cancelledRequests());
    String metrics = client.get("/metrics").body();
    assertTrue(metrics.contains("\ngatling_llm_simulator_cancelled_requests_total 1\n"), metrics);
    client.post(COMPLETIONS, completion("b", "max_tokens", 1));
    assertEquals(1, simulator.stats().cancelledRequests());
  }

  @Test
  void clientLeavingWhileQueuedLeavesTheQueue() throws Exception {
    SimulatorClient client = start(ONE_SLOW_SLOT);
    try (Socket running =
        client.rawPost(COMPLETIONS, completion("a", "max_tokens", 100, "stream", true))) {
      SimulatorClient.readUntil(running, "\"the\"");
      Socket queued = client.rawPost(COMPLETIONS, completion("b", "max_tokens", 1));
      try {
        await("queued", () -> simulator.stats().waitingSequences() == 1);
      } finally {
        queued.close();
      }
      await("left the queue", () -> simulator.stats().waitingSequences() == 0);
      assertEquals(1, simulator.stats().requests(GenerationJob.CLIENT_CLOSED));
    }
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrder() throws IOException {
    SimulatorClient client = start(SimulatorConfig.zeroDelay());
    try (Socket socket = client.rawPost(COMPLETIONS, completion("a", "max_tokens", 2))) {
      OutputStream out = socket.getOutputStream();
      out.write(
          "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String text = SimulatorClient.readUntil(socket, "{\"status\":\"ok\"}");
      int completion = text.indexOf("\"text\":\"the model\"");
      int health = text.indexOf("{\"status\":\"ok\"}");
      assertTrue(completion > 0 && completion < health, text);
    }
  }
}
