package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.RequestTimings;
import org.junit.jupiter.api.Test;

/** The client's warm-up runs the whole path on its synthetic answer, and sends nothing. */
class ClientWarmUpTest {

  @Test
  void theSyntheticAnswerIsParsedAndTimedAsAServersWouldBe() {
    RequestTimings t = ClientWarmUp.answer();
    assertEquals(32, t.completionTokens());
    assertTrue(t.completionTokensExact());
    assertEquals(12, t.promptTokens());
    assertEquals(31, t.itlMs().size());
    assertEquals("length", t.finishReason());
  }

  @Test
  void everyRoundRunsWithoutAGatlingRequest() {
    assertEquals(
        ClientWarmUp.ROUNDS,
        ClientWarmUp.run("chat", RequestSettings.streaming(WireApi.CHAT, "m", 32), null));
  }

  @Test
  void aGatlingRequestThatFailsLeavesTheOtherRoundsRunning() {
    int[] calls = {0};
    assertEquals(
        ClientWarmUp.ROUNDS,
        ClientWarmUp.run(
            "chat",
            RequestSettings.streaming(WireApi.CHAT, "m", 32),
            session -> {
              calls[0]++;
              throw new IllegalArgumentException("DnsNameResolver missing from Session");
            }));
    assertEquals(1, calls[0]);
  }

  @Test
  void gatlingsRequestIsBuiltInTheFirstTenthOfTheRounds() {
    int[] calls = {0};
    assertEquals(
        ClientWarmUp.ROUNDS,
        ClientWarmUp.run(
            "chat", RequestSettings.streaming(WireApi.CHAT, "m", 32), session -> calls[0]++));
    assertEquals(ClientWarmUp.ROUNDS / 10, calls[0]);
  }
}
