package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.testing.RecordingProxy;
import io.github.gatlingllm.testing.RecordingProxy.Exchange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32: a session ends {@code error} at a failed turn. {@link AgentTurnsSimulation} (1 warmup
 * and 4 measured sessions; the simulator calls a tool in turn 1) runs through a proxy that answers
 * every session's second turn with HTTP 500: each session sends exactly 2 turns, ends as an error,
 * and the records say which turn failed and how.
 */
@Tag("forked")
@Tag("parallel")
class AgentSessionErrorTest {

  @TempDir Path results;

  @Test
  void aTurnTheServerFailsEndsItsSessionAsAnErrorAndNothingMoreIsSent() throws Exception {
    DslRun run;
    Map<String, List<Exchange>> wire;
    try (Simulator simulator =
            Simulator.start(
                SimulatorConfig.defaults()
                    .withBaseTtftMs(2)
                    .withPrefillUsPerToken(20)
                    .withDecodeMsPerToken(1),
                0);
        RecordingProxy proxy =
            RecordingProxy.start("http://127.0.0.1:" + simulator.port(), "X-Session-Affinity", 2)) {
      Path folder = Files.createDirectories(results.resolve("error"));
      run =
          DslRun.run(
              AgentTurnsSimulation.class,
              folder,
              "-Dllm.baseUrl=" + proxy.baseUrl(),
              "-Dllm.seed=7",
              "-Dllm.tokenizer=estimate");
      wire = proxy.bySession();
    }
    assertEquals(0, run.exitCode, run.log);

    // on the wire: 2 turns a session, the first answered with a tool call, the second failed
    assertEquals(5, wire.size(), wire.keySet().toString());
    for (Map.Entry<String, List<Exchange>> e : wire.entrySet()) {
      List<Exchange> turns = e.getValue();
      assertEquals(2, turns.size(), e.getKey());
      assertEquals(200, turns.get(0).status(), e.getKey());
      assertEquals(1, RecordingProxy.chatCalls(turns.get(0).reply()).size(), e.getKey());
      assertEquals(500, turns.get(1).status(), e.getKey());
    }

    JsonNode block = run.record().get("sessions").get(0);
    assertEquals(8, block.get("turns_sent").asLong());
    assertEquals(2, block.get("warmup_turns_sent").asLong());
    JsonNode measured = block.get("measured");
    assertEquals(4, measured.get("count").asLong());
    assertEquals(4, measured.get("ended").get("error").asLong());
    assertEquals(0, measured.get("ended").get("completed").asLong());
    assertEquals(0, measured.get("ended").get("loop_limit").asLong());
    assertEquals(0, measured.get("ended").get("context_limit").asLong());
    assertEquals(4, measured.get("tool_calls").asLong());
    assertEquals(1, block.get("warmup").get("ended").get("error").asLong());

    Map<String, List<JsonNode>> bySession = new TreeMap<>();
    for (JsonNode r : run.requests()) {
      if ("measured".equals(r.get("phase").asText())) {
        bySession.computeIfAbsent(r.get("session_id").asText(), k -> new ArrayList<>()).add(r);
      }
    }
    assertEquals(
        List.of(
            "agenttest-measured-0",
            "agenttest-measured-1",
            "agenttest-measured-2",
            "agenttest-measured-3"),
        List.copyOf(bySession.keySet()));
    for (Map.Entry<String, List<JsonNode>> e : bySession.entrySet()) {
      List<JsonNode> records = e.getValue();
      records.sort((a, b) -> a.get("turn").asInt() - b.get("turn").asInt());
      assertEquals(2, records.size(), e.getKey());
      JsonNode first = records.get(0);
      assertEquals(1, first.get("turn").asInt(), first.toString());
      assertEquals("ok", first.get("status").asText(), first.toString());
      assertEquals(1, first.get("tool_calls").asInt(), first.toString());
      JsonNode failed = records.get(1);
      assertEquals(2, failed.get("turn").asInt(), failed.toString());
      assertEquals("http_error", failed.get("status").asText(), failed.toString());
      assertEquals(500, failed.get("http_status").asInt(), failed.toString());
      assertEquals(0, failed.get("tool_calls").asInt(), failed.toString());
      assertNotNull(wire.get(e.getKey()), e.getKey());
    }
  }
}
