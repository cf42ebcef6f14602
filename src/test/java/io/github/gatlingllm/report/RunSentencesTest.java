package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.record.SaturationBlock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSentencesTest {

  /** A scenario's verdict given as the file's JSON form. */
  private static SaturationBlock block(Map<String, Object> json) {
    return new ObjectMapper().convertValue(json, SaturationBlock.class);
  }

  @Test
  void theServerReportingNoCachedTokensIsTheVerdictsReason() {
    Map<String, Object> cache = new LinkedHashMap<>();
    cache.put("requests", 10L);
    cache.put("verdict", "unknown");
    cache.put("planned_hit_ratio", 0.48);
    cache.put("observed_hit_ratio", null);
    cache.put("verdict_reason", "the server reported no cached tokens");
    cache.put("workloads", List.of(Map.of()));
    assertEquals(
        "unknown: the server reported no cached tokens (planned hit ratio 0.48)",
        RunSentences.cacheVerdict(RunRecordJson.read(cache, CacheSummary.class)));
  }

  @Test
  void conversationTotalsAreOneLineSummedOverWorkloads() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "conversations",
        List.of(
            Map.of(
                "workload",
                "chats",
                "phases",
                Map.of(
                    "warmup",
                    Map.of("conversations", 2, "turns", 6),
                    "measured",
                    Map.of(
                        "conversations",
                        20,
                        "completed",
                        16,
                        "ended_by_context_limit",
                        3,
                        "ended_by_error",
                        1,
                        "turns",
                        80))),
            Map.of(
                "workload",
                "agents",
                "phases",
                Map.of(
                    "measured",
                    Map.of(
                        "conversations",
                        4,
                        "completed",
                        4,
                        "ended_by_context_limit",
                        0,
                        "ended_by_error",
                        0,
                        "turns",
                        16)))));
    assertEquals(
        "conversations: 24 measured (20 completed, 3 ended by context limit, 1 ended by error),"
            + " 96 turns",
        RunSentences.conversations(RunRecord.of(run).conversations()));
  }

  @Test
  void noConversationLineWithoutConversations() {
    assertNull(RunSentences.conversations(null));
    assertNull(RunSentences.conversations(List.of()));
  }

  @Test
  void saturationIsOneSentence() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("metric", "rate");
    s.put("saturation_level", 3);
    s.put("saturation_rate", 2.5);
    s.put("max_output_tokens_per_s", 812.25);
    s.put("stopped_early", true);
    s.put("stop_reason", "TTFT grew while throughput stayed flat");
    s.put("slo_ratio", 0.95);
    s.put("slo_load", 1.75);
    assertEquals(
        "saturates at rate 2.5 users/s (level 3); peak 812.3 output tokens/s; the SLO holds up"
            + " to rate 1.75 users/s; stopped early: TTFT grew while throughput stayed flat",
        RunSentences.saturation(block(s)));
    s.put("metric", "concurrency");
    s.put("saturation_concurrency", 8);
    s.put("slo_load", null);
    s.put("stopped_early", false);
    assertEquals(
        "saturates at concurrency 8 (level 3); peak 812.3 output tokens/s; no level met the SLO",
        RunSentences.saturation(block(s)));
  }

  @Test
  void aRecordsVerdictTextIsTheSentenceWithItsSloAndStop() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("metric", "rate");
    s.put("saturation_level", null);
    s.put("still_growing", false);
    s.put("saturated", false);
    s.put("verdict_text", "no saturation seen over 4 levels: every level served what it was");
    s.put("stopped_early", true);
    s.put("stop_reason", "why");
    s.put("slo_ratio", 0.95);
    s.put("slo_load", 3.0);
    assertEquals(
        "no saturation seen over 4 levels: every level served what it was; the SLO holds up to"
            + " rate 3 users/s; stopped early: why",
        RunSentences.saturation(block(s)));
  }

  @Test
  void theSaturationPointAndThePeakAreBothSaid() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("scenario", "chat");
    s.put("metric", "concurrency");
    s.put("saturation_level", 3);
    s.put("saturation_concurrency", 8);
    s.put("saturation_output_tokens_per_s", 690.0);
    s.put("max_output_tokens_per_s", 704.0);
    s.put("max_level", 4);
    s.put("max_concurrency", 16);
    s.put("still_growing", false);
    s.put("stopped_early", false);
    assertEquals(
        "saturates at concurrency 8 (level 3, 690 output tokens/s); peak 704 output tokens/s at"
            + " concurrency 16 (level 4)",
        RunSentences.saturation(block(s)));
    s.put("still_growing", true);
    assertEquals(
        "no saturation seen: throughput still growing at the highest level (concurrency 16, 704"
            + " output tokens/s)",
        RunSentences.saturation(block(s)));
    Map<String, Object> open = new LinkedHashMap<>(s);
    open.put("scenario", "batch");
    open.put("shared_server", "2 stepped scenarios (chat, batch) shared the server");
    assertEquals(
        "scenario chat: no saturation seen: throughput still growing at the highest level"
            + " (concurrency 16, 704 output tokens/s); scenario batch: no saturation"
            + " seen: throughput still growing at the highest level (concurrency 16, 704 output"
            + " tokens/s) (2 stepped scenarios (chat, batch) shared the server)",
        RunSentences.saturations(
            RunRecord.of(Map.of("saturation", s, "saturations", List.of(s, open)))));
  }

  @Test
  void agentSessionsInOneLineAcrossWorkloads() {
    Map<String, Object> run =
        Map.of(
            "sessions",
            List.of(
                Map.of(
                    "workload",
                    "agents",
                    "turns_sent",
                    40,
                    "measured",
                    Map.of(
                        "count",
                        12,
                        "ended",
                        Map.of("completed", 9, "loop_limit", 1, "context_limit", 1, "error", 1),
                        "tool_calls",
                        30,
                        "malformed_tool_calls",
                        2)),
                Map.of(
                    "workload",
                    "agents-2",
                    "turns_sent",
                    8,
                    "measured",
                    Map.of(
                        "count",
                        4,
                        "ended",
                        Map.of("completed", 4, "loop_limit", 0, "context_limit", 0, "error", 0),
                        "tool_calls",
                        4,
                        "malformed_tool_calls",
                        0))));
    assertEquals(
        "agent sessions: 16 measured (13 completed, 1 loop limit, 1 context limit, 1 error), 48"
            + " turns, 34 tool calls (2 malformed)",
        RunSentences.sessions(RunRecord.of(run).sessions()));
  }

  @Test
  void noAgentSessionsNoLine() {
    assertNull(RunSentences.sessions(null));
    assertNull(RunSentences.sessions(List.of()));
  }

  @Test
  void aStopAtTheLevelTheVerdictNamesIsNotSaidTwice() {
    // Issue 40, run-end words: SteppedOpenLoopSimulation printed the over-capacity reason twice.
    String why =
        "served 21.80 of 24.00 offered requests/s (9.2% short) while TTFT p50 grew 8.6x over level"
            + " 2 (18 users/s), 28 -> 245 ms (llm.saturation.ttftGrowth 1.5,"
            + " llm.saturation.throughputGain 0.05)";
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("metric", "rate");
    s.put(
        "verdict_text",
        "saturated at 24 users/s (level 3, 21.80 requests/s, 701.2 output tokens/s): over"
            + " capacity: "
            + why);
    s.put("stopped_early", true);
    s.put("stop_reason", "level 3 (24 users/s): " + why);
    assertEquals(
        "saturated at 24 users/s (level 3, 21.80 requests/s, 701.2 output tokens/s): over"
            + " capacity: "
            + why
            + "; stopped early at level 3 (24 users/s) (llm.stopWhenSaturated)",
        RunSentences.saturation(block(s)));
  }

  @Test
  void theEndingSaysRequestsInFlightApartFromPromptsNeverSent() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("interrupted", false);
    run.put("end_reason", "saturation_stop");
    run.put("requests_cut_by_run_end", 20);
    run.put("requests_cut_before_sent", 1);
    assertEquals(
        "the run ended (saturation_stop): 19 LLM requests were still in flight, recorded with"
            + " status cut_by_run_end and what was measured until then; 1 prompt handed out was"
            + " never sent, recorded with status cut_by_run_end too (left out of the latency"
            + " figures and the goodput)",
        RunSentences.ending(RunRecord.of(run)));
  }

  @Test
  void theEndingOfAProfileEndSaysOnlyThePromptsNeverSent() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("interrupted", false);
    run.put("end_reason", "injection_over");
    run.put("requests_cut_by_run_end", 6);
    run.put("requests_cut_before_sent", 6);
    assertEquals(
        "the run ended (injection_over): 6 prompts handed out were never sent, recorded with"
            + " status cut_by_run_end (left out of the latency figures and the goodput)",
        RunSentences.ending(RunRecord.of(run)));
  }
}
