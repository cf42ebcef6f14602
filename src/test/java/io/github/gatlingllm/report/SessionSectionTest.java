package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.RunRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionSectionTest {

  private static RequestRecord turn(
      String session, long index, int turn, int prompt, int cached, double ttft) {
    RequestRecord r =
        RequestRecordJson.fromJson(
                "{\"request\":\"agent\",\"phase\":\"measured\",\"start_ms\":1000,\"status\":\"ok\","
                    + "\"prompt_tokens\":"
                    + prompt
                    + ",\"cached_tokens\":"
                    + cached
                    + ",\"ttft_ms\":"
                    + ttft
                    + ",\"e2e_ms\":100,\"workload\":\"agents\",\"planned_cached_tokens\":"
                    + cached
                    + ",\"cache_planned\":\"hit\",\"cache\":\"hit\"}")
            .withConversationTurn(new ConversationTurn(index, turn, cached, null));
    return session == null ? r : r.withSession(session, 1);
  }

  private static final Map<String, Object> RUN =
      Map.of(
          "sessions",
          List.of(
              Map.of(
                  "workload",
                  "agents",
                  "turns_sent",
                  3,
                  "measured",
                  Map.of(
                      "count",
                      2,
                      "ended",
                      Map.of("completed", 1, "loop_limit", 1, "context_limit", 0, "error", 0),
                      "requests_per_session",
                      Map.of("mean", 1.5),
                      "tool_calls",
                      2,
                      "malformed_tool_calls",
                      0,
                      "duration_ms",
                      Map.of("p50", 40, "p90", 90, "max", 90),
                      "sessions_per_hour",
                      7200,
                      "cache_hit_ratio",
                      Map.of("planned", Map.of("mean", 0.5), "observed", Map.of("mean", 0.25))))));

  @Test
  void nothingWithoutSessions() {
    assertEquals("", SessionSection.render(null, new ConversationSection.Turns(true)));
  }

  @Test
  void totalsAndTheAgentTurnsByTurnIndexOnly() {
    ConversationSection.Turns turns = new ConversationSection.Turns(true);
    turns.add(turn("agents-measured-0", 0, 1, 600, 0, 90.0));
    turns.add(turn("agents-measured-1", 1, 1, 600, 0, 70.0));
    turns.add(turn("agents-measured-0", 0, 2, 800, 672, 20.0));
    // a conversation's turn (no session id) is not an agent turn
    turns.add(turn(null, 5, 3, 900, 800, 10.0));
    String html = SessionSection.render(RunRecord.of(RUN).sessions(), turns);
    assertTrue(
        html.contains(
            "<tr><td class=\"l\">agents</td><td>2</td><td>1</td><td>1</td><td>0</td><td>0</td>"
                + "<td>3</td><td>1.5</td><td>2</td><td>0</td><td>40</td><td>90</td><td>90</td>"
                + "<td>7200</td><td>0.5</td><td>0.25</td></tr>"),
        html);
    assertTrue(
        html.contains(
            "<tr><td>1</td><td>2</td><td>2</td><td>70</td><td>90</td><td>80</td><td>600</td>"
                + "<td>0</td><td>0</td><td>0</td><td class=\"l\">2 hit</td></tr>"),
        html);
    assertFalse(html.contains("<tr><td>3</td>"), html);
  }

  @Test
  void conversationTurnsLeaveOutAgentTurns() {
    ConversationSection.Turns turns = new ConversationSection.Turns();
    turns.add(turn("agents-measured-0", 0, 1, 600, 0, 90.0));
    assertEquals(new ConversationSection.Turns().render(), turns.render());
  }
}
