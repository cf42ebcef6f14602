package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.api.Json;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.ToolCallAssembly;
import io.github.gatlingllm.api.ToolCallDelta;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.AgentSource;
import io.github.gatlingllm.prompt.AgentSpec;
import io.github.gatlingllm.session.SessionEnd;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentSessionTest {

  private static AgentSource source(int toolCalls, Integer window) {
    return new AgentSource(
        new AgentSpec(2, 4, 6, 0, 1, 5, toolCalls, 100, 100, "auto", window),
        EstimatedTokenCounter.INSTANCE,
        7,
        "agent-test",
        "measured");
  }

  private static AgentSession session(int toolCalls) {
    AgentSource s = source(toolCalls, null);
    return new AgentSession(s, s.script(0));
  }

  private static RequestRecord ok(long startMs, int prompt, int completion) {
    return RequestRecord.builder()
        .request("agent")
        .phase("measured")
        .status(RequestStatus.OK)
        .startMs(startMs)
        .e2eMs(100.0)
        .promptTokens(prompt)
        .promptTokensExact(true)
        .completionTokens(completion)
        .completionTokensExact(true)
        .cachedTokens(0)
        .plannedCachedTokens(0)
        .build();
  }

  /** The {@code messages} of the session's next turn in a chat body. */
  private static JsonNode chatMessages(AgentSession s) {
    try {
      return Json.MAPPER
          .readTree(
              WireApi.CHAT
                  .dialect()
                  .agentBody(
                      RequestSettings.streaming(WireApi.CHAT, "m", 8), s.turns(), null, null))
          .get("messages");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static ToolCallAssembly calls(ToolCallDelta... deltas) {
    ToolCallAssembly a = new ToolCallAssembly();
    for (ToolCallDelta d : deltas) {
      a.add(d);
    }
    return a;
  }

  @Test
  void theFirstTurnSendsTheTask() {
    assertEquals(
        "[{\"role\":\"user\",\"content\":\"[2a755a10016d] profile inference latency throughput"
            + " memory\"}]",
        chatMessages(session(4)).toString());
  }

  @Test
  void toolCallsAreThreadedBackAsReceivedWithOneSeededResultACall() {
    AgentSession s = session(4);
    s.sending(0);
    assertTrue(
        s.answered(
            ok(0, 300, 20),
            "",
            calls(
                new ToolCallDelta(0, "call_x", "search", "{\"q\":"),
                new ToolCallDelta(0, null, null, " 1}"),
                new ToolCallDelta(1, "call_y", "get", "{\"broken\""))));
    AgentSource src = source(4, null);
    assertEquals(
        "[{\"role\":\"user\",\"content\":\"[2a755a10016d] profile inference latency throughput"
            + " memory\"},{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_x\","
            + "\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":"
            + " 1}\"}},{\"id\":\"call_y\",\"type\":\"function\",\"function\":{\"name\":\"get\","
            + "\"arguments\":\"{\\\"broken\\\"\"}}]},{\"role\":\"tool\",\"tool_call_id\":\"call_x\","
            + "\"content\":\""
            + src.toolResult(0, 1, 0).text()
            + "\"},{\"role\":\"tool\",\"tool_call_id\":\"call_y\",\"content\":\""
            + src.toolResult(0, 1, 1).text()
            + "\"}]",
        chatMessages(s).toString());
  }

  @Test
  void aReplyWithContentAndCallsKeepsItsContent() {
    AgentSession s = session(4);
    s.sending(0);
    s.answered(ok(0, 300, 20), "Let me look.", calls(new ToolCallDelta(0, "c", "f", "{}")));
    assertEquals("Let me look.", chatMessages(s).get(1).get("content").asText());
  }

  @Test
  void aCallWithoutIdIsNamedByTurnAndPosition() {
    AgentSession s = session(4);
    s.sending(0);
    s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, null, "f", "{}")));
    assertEquals("call_1_0", chatMessages(s).get(1).at("/tool_calls/0/id").asText());
    assertEquals("call_1_0", chatMessages(s).get(2).get("tool_call_id").asText());
  }

  @Test
  void theFirstTurnsHistoryIsTheTask() {
    assertEquals(
        List.of(
            new Turn.Message("user", "[2a755a10016d] profile inference latency throughput memory")),
        session(4).turns());
  }

  @Test
  void turnsThreadWholeCallsBackAsReceivedWithOneSeededResultACall() {
    AgentSession s = session(4);
    s.sending(0);
    ToolCallAssembly whole = new ToolCallAssembly();
    whole.addWhole("fc_1", "search", "{\"q\": 1}");
    whole.addWhole(null, "get", "{\"broken\"");
    assertTrue(s.answered(ok(0, 300, 20), "Let me look.", whole));
    AgentSource src = source(4, null);
    assertEquals(
        List.of(
            new Turn.Message("user", "[2a755a10016d] profile inference latency throughput memory"),
            new Turn.Message("assistant", "Let me look."),
            new Turn.ToolCall("fc_1", "search", "{\"q\": 1}"),
            new Turn.ToolCall("call_1_1", "get", "{\"broken\""),
            new Turn.ToolResult("fc_1", src.toolResult(0, 1, 0).text()),
            new Turn.ToolResult("call_1_1", src.toolResult(0, 1, 1).text())),
        s.turns());
  }

  @Test
  void theFirstTurnsNewTurnsAreTheWholeHistory() {
    AgentSession s = session(4);
    assertEquals(s.turns(), s.newTurns());
    assertNull(s.previousResponseId());
  }

  @Test
  void laterNewTurnsAreThePreviousRepliesResultsAndItsIdIsKept() {
    AgentSession s = session(4);
    s.sending(0);
    ToolCallAssembly whole = new ToolCallAssembly();
    whole.addWhole("fc_1", "search", "{\"q\": 1}");
    whole.addWhole(null, "get", "{}");
    assertTrue(s.answered(ok(0, 300, 20), "Let me look.", whole, "resp_1"));
    AgentSource src = source(4, null);
    assertEquals(
        List.of(
            new Turn.ToolResult("fc_1", src.toolResult(0, 1, 0).text()),
            new Turn.ToolResult("call_1_1", src.toolResult(0, 1, 1).text())),
        s.newTurns());
    assertEquals("resp_1", s.previousResponseId());
  }

  @Test
  void turnsLeaveOutAnEmptyReplyTextBeforeItsCalls() {
    AgentSession s = session(4);
    s.sending(0);
    ToolCallAssembly whole = new ToolCallAssembly();
    whole.addWhole("toolu_1", "f", "{}");
    s.answered(ok(0, 300, 20), "", whole);
    assertEquals(new Turn.ToolCall("toolu_1", "f", "{}"), s.turns().get(1));
  }

  @Test
  void laterTurnsPlanThePreviousPromptAndReplyLessOne() {
    AgentSession s = session(4);
    s.sending(0);
    s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, "c", "f", "{}")));
    assertEquals(319, s.contextTokens());
    assertTrue(s.exactContext());
    // 300 + 20 + one result of 5 tokens and 8 of template
    assertEquals(333, s.plannedTokens());
  }

  @Test
  void aReplyWithoutCallsCompletes() {
    AgentSession s = session(4);
    s.sending(0);
    assertFalse(s.answered(ok(0, 300, 20), "done", calls()));
    assertEquals(SessionEnd.COMPLETED, s.end());
    assertEquals(1, s.result().requests());
    assertEquals(100, s.result().durationMs());
  }

  @Test
  void callsAfterTheLastLoopEndByTheLoopLimit() {
    AgentSession s = session(1);
    s.sending(0);
    assertTrue(s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, "a", "f", "{}"))));
    s.sending(200);
    assertFalse(s.answered(ok(200, 340, 20), "", calls(new ToolCallDelta(0, "b", "f", "{}"))));
    assertEquals(SessionEnd.LOOP_LIMIT, s.end());
    assertEquals(2, s.result().toolCalls());
    assertEquals(300, s.result().durationMs());
  }

  @Test
  void zeroLoopsEndsAtTheFirstCall() {
    AgentSession s = session(0);
    s.sending(0);
    assertFalse(s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, "a", "f", "{}"))));
    assertEquals(SessionEnd.LOOP_LIMIT, s.end());
  }

  @Test
  void aFailedTurnEndsInError() {
    AgentSession s = session(4);
    s.sending(0);
    RequestRecord failed =
        RequestRecord.builder()
            .request("agent")
            .phase("measured")
            .status(RequestStatus.HTTP_ERROR)
            .startMs(0)
            .e2eMs(5.0)
            .build();
    assertFalse(s.answered(failed, null, calls()));
    assertEquals(SessionEnd.ERROR, s.end());
  }

  @Test
  void malformedArgumentsAreCounted() {
    AgentSession s = session(4);
    s.sending(0);
    s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, "a", "f", "{\"x\"")));
    s.sending(200);
    s.answered(ok(200, 340, 5), "fine", calls());
    assertEquals(1, s.result().malformedToolCalls());
  }

  @Test
  void aTurnOverTheWindowIsNotSent() {
    AgentSource src = source(4, 400);
    AgentSession s = new AgentSession(src, src.script(0));
    s.sending(0);
    s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, "a", "f", "{}")));
    // 333 planned + 16 of template + 64 max_tokens = 413 > 400
    assertTrue(s.exceeds(64));
    assertFalse(s.exceeds(51));
    s.endByContextLimit(500);
    assertEquals(SessionEnd.CONTEXT_LIMIT, s.end());
    assertEquals(500, s.result().durationMs());
  }

  @Test
  void theToolLatencyIsTheLoopsDraw() {
    AgentSession s = session(4);
    assertEquals(0, s.toolLatencyMs());
    s.sending(0);
    s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, "a", "f", "{}")));
    assertEquals(100, s.toolLatencyMs());
  }

  @Test
  void theSessionIdNamesCasePhaseAndIndex() {
    assertEquals("agent-test-measured-0", session(4).sessionId());
  }

  @Test
  void theDigestCoversTheTaskAndTheResultsSent() {
    AgentSource src = source(4, null);
    AgentSession s = new AgentSession(src, src.script(0));
    s.sending(0);
    s.answered(ok(0, 300, 20), "", calls(new ToolCallDelta(0, "a", "f", "{}")));
    s.sending(200);
    s.answered(ok(200, 340, 5), "fine", calls());
    assertEquals(
        List.of(src.script(0).task().digest(), src.toolResult(0, 1, 0).digest()), s.sentDigests());
    assertEquals(1, src.ended());
  }

  @Test
  void noResultWhileItGoesOn() {
    assertNull(session(4).result());
  }
}
