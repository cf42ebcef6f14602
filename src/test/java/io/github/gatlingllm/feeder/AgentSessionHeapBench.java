package io.github.gatlingllm.feeder;

import io.github.gatlingllm.api.ToolCallAssembly;
import io.github.gatlingllm.api.ToolCallDelta;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.AgentSource;
import io.github.gatlingllm.prompt.AgentSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Not a test: a benchmark that prints figures (scripts/bench-agent-sessions.sh). Opens {@code
 * sessions} agent sessions of {@code loops} tool loops each (4 tools, a 128-token task, 384-token
 * tool results, one call a loop with a 60-char arguments string and a 40-token reply), as a run
 * holds them between turns, and prints the heap they retain against the history text their next
 * turn must send (the {@code messages} JSON as UTF-8).
 */
final class AgentSessionHeapBench {

  private AgentSessionHeapBench() {}

  private static long used(MemoryMXBean memory) throws InterruptedException {
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  public static void main(String[] args) throws Exception {
    int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int loops = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    AgentSpec spec = new AgentSpec(4, 48, 128, 0, 1, 384, loops, 0, 0, "auto", null);
    AgentSource source =
        new AgentSource(spec, EstimatedTokenCounter.INSTANCE, 42, "heap-bench", "measured");
    String arguments = "{\"query\":\"inference latency throughput\",\"limit\":17,\"verbose\":true}";
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long before = used(memory);
    List<AgentSession> open = new ArrayList<>(sessions);
    for (int s = 0; s < sessions; s++) {
      AgentSession session = new AgentSession(source, source.script(s));
      int prompt = 400;
      for (int l = 0; l < loops; l++) {
        session.sending(l * 1000L);
        ToolCallAssembly calls = new ToolCallAssembly();
        calls.add(new ToolCallDelta(0, "call_" + s + "_" + l, "search_documents_0", arguments));
        RequestRecord record =
            RequestRecord.builder()
                .request("agent")
                .phase("measured")
                .status(RequestStatus.OK)
                .startMs(l * 1000L)
                .e2eMs(100.0)
                .promptTokens(prompt)
                .promptTokensExact(true)
                .completionTokens(40)
                .completionTokensExact(true)
                .cachedTokens(prompt - 400)
                .plannedCachedTokens(prompt - 400)
                .build();
        session.answered(record, "", calls);
        prompt += 40 + 384 + 8;
      }
      open.add(session);
    }
    long after = used(memory);
    long text = 0;
    long planned = 0;
    for (AgentSession session : open) {
      // the history as chat's messages array
      String body =
          io.github.gatlingllm.api.WireApi.CHAT
              .dialect()
              .agentBody(
                  io.github.gatlingllm.api.RequestSettings.streaming(
                      io.github.gatlingllm.api.WireApi.CHAT, "m", 8),
                  session.turns(),
                  null,
                  null);
      text +=
          io.github.gatlingllm.api.Json.MAPPER
              .readTree(body)
              .get("messages")
              .toString()
              .getBytes(StandardCharsets.UTF_8)
              .length;
      planned += session.plannedTokens();
    }
    long retained = after - before;
    System.out.printf(
        "sessions %d, loops %d: next turn's prompt about %d tokens (planned), history text %d"
            + " bytes a session%n",
        sessions, loops, planned / sessions, text / sessions);
    System.out.printf(
        "heap retained by the open sessions: %d bytes a session (%d MB in all); beyond the history"
            + " text: %d bytes a session%n",
        retained / sessions, retained >> 20, (retained - text) / sessions);
    if (open.size() != sessions) {
      throw new IllegalStateException("sessions lost");
    }
  }
}
