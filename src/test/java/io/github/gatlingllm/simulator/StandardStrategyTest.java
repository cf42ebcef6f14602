package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class StandardStrategyTest {

  private static final SimulatorConfig CONFIG =
      SimulatorConfig.defaults()
          .withBaseTtftMs(20)
          .withPrefillUsPerToken(50)
          .withDecodeMsPerToken(10);

  private static List<PlannedChunk> plan(
      SimulatorConfig config, int promptTokens, int cachedTokens, int maxTokens) {
    return ResponseStrategy.standard()
        .plan(
            new GenerationRequest(
                1, ServedEndpoint.CHAT, true, promptTokens, cachedTokens, maxTokens),
            config);
  }

  @Test
  void oneTokenPerChunkEveryDecodeTime() {
    assertEquals(
        List.of(
            new PlannedChunk(70_000_000, 1, "the"),
            new PlannedChunk(80_000_000, 1, " model"),
            new PlannedChunk(90_000_000, 1, " is")),
        plan(CONFIG, 1_000, 0, 3));
  }

  @Test
  void cachedTokensAreNotPrefilled() {
    // 1,000 prompt tokens, 992 cached: 20 ms + 8 * 50 µs.
    assertEquals(List.of(new PlannedChunk(20_400_000, 1, "the")), plan(CONFIG, 1_000, 992, 1));
  }

  @Test
  void firstTokenGoesAloneThenChunksLeaveWithTheirLastToken() {
    assertEquals(
        List.of(
            new PlannedChunk(70_000_000, 1, "the"),
            new PlannedChunk(100_000_000, 3, " model is running"),
            new PlannedChunk(130_000_000, 3, " in a load")),
        plan(CONFIG.withTokensPerChunk(3), 1_000, 0, 7));
  }

  @Test
  void lastChunkMayHoldFewerTokens() {
    assertEquals(
        List.of(
            new PlannedChunk(70_000_000, 1, "the"),
            new PlannedChunk(100_000_000, 3, " model is running"),
            new PlannedChunk(120_000_000, 2, " in a")),
        plan(CONFIG.withTokensPerChunk(3), 1_000, 0, 6));
  }

  @Test
  void endToEndIsFirstTokenPlusDecodeTimesTokensMinusOne() {
    List<PlannedChunk> chunks = plan(CONFIG, 1_000, 0, 100);
    assertEquals(100, chunks.size());
    assertEquals(70_000_000L + 99 * 10_000_000L, chunks.get(99).atNanos());
  }

  @Test
  void zeroDelayPlansEverythingAtAdmission() {
    assertEquals(
        List.of(new PlannedChunk(0, 1, "the"), new PlannedChunk(0, 1, " model")),
        plan(SimulatorConfig.zeroDelay(), 1_000, 0, 2));
  }

  @Test
  void wordCycleRestartsAfterSixteenTokens() {
    List<PlannedChunk> chunks = plan(SimulatorConfig.zeroDelay(), 1, 0, 18);
    assertEquals(" token", chunks.get(15).text());
    assertEquals(" the", chunks.get(16).text());
    assertEquals(" model", chunks.get(17).text());
  }
}
