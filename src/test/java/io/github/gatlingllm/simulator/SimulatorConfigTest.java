package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import org.junit.jupiter.api.Test;

class SimulatorConfigTest {

  private static String error(Runnable build) {
    return assertThrows(IllegalArgumentException.class, build::run).getMessage();
  }

  @Test
  void defaultsAreTheDocumentedOnes() {
    assertEquals(
        new SimulatorConfig(
            "gatling-llm-simulator",
            EstimatedTokenCounter.INSTANCE,
            16,
            65_536,
            20,
            50,
            10,
            64,
            1,
            32_768,
            16,
            10_000,
            false,
            0),
        SimulatorConfig.defaults());
  }

  @Test
  void zeroDelaySetsEveryTimeToZeroAndKeepsTheRest() {
    SimulatorConfig zero = SimulatorConfig.zeroDelay();
    assertEquals(0.0, zero.baseTtftMs());
    assertEquals(0.0, zero.prefillUsPerToken());
    assertEquals(0.0, zero.decodeMsPerToken());
    assertTrue(zero.isZeroDelay());
    assertFalse(SimulatorConfig.defaults().isZeroDelay());
    assertEquals(
        SimulatorConfig.defaults()
            .withBaseTtftMs(0)
            .withPrefillUsPerToken(0)
            .withDecodeMsPerToken(0),
        zero);
  }

  @Test
  void withersChangeOneField() {
    SimulatorConfig config =
        SimulatorConfig.defaults()
            .withModel("m")
            .withBlockSize(32)
            .withCacheBlocks(0)
            .withMaxConcurrent(2)
            .withTokensPerChunk(4)
            .withContextLength(100)
            .withDefaultMaxTokens(7)
            .withRecordCapacity(3)
            .withRecordSendTimes(true);
    assertEquals(
        new SimulatorConfig(
            "m", EstimatedTokenCounter.INSTANCE, 32, 0, 20, 50, 10, 2, 4, 100, 7, 3, true, 0),
        config);
  }

  @Test
  void timesConvertToNanoseconds() {
    SimulatorConfig config =
        SimulatorConfig.defaults()
            .withBaseTtftMs(1.5)
            .withPrefillUsPerToken(0.25)
            .withDecodeMsPerToken(12.5);
    assertEquals(1_500_000L, config.baseTtftNanos());
    assertEquals(250_000L, config.prefillNanos(1_000));
    assertEquals(12_500_000L, config.decodeNanos());
  }

  @Test
  void blankModelIsRejected() {
    assertEquals(
        "model must be a non-blank model id, got \" \"",
        error(() -> SimulatorConfig.defaults().withModel(" ")));
  }

  @Test
  void nullTokenCounterIsRejected() {
    assertEquals(
        "tokenCounter must be a token counter (e.g. EstimatedTokenCounter.INSTANCE), got null",
        error(() -> SimulatorConfig.defaults().withTokenCounter(null)));
  }

  @Test
  void zeroBlockSizeIsRejected() {
    assertEquals(
        "blockSize must be >= 1 (tokens), got 0",
        error(() -> SimulatorConfig.defaults().withBlockSize(0)));
  }

  @Test
  void negativeCacheBlocksAreRejected() {
    assertEquals(
        "cacheBlocks must be >= 0 (blocks; 0 turns the prefix cache off), got -1",
        error(() -> SimulatorConfig.defaults().withCacheBlocks(-1)));
  }

  @Test
  void negativeBaseTtftIsRejected() {
    assertEquals(
        "baseTtftMs must be a finite number >= 0 (milliseconds), got -1.0",
        error(() -> SimulatorConfig.defaults().withBaseTtftMs(-1)));
  }

  @Test
  void notANumberPrefillIsRejected() {
    assertEquals(
        "prefillUsPerToken must be a finite number >= 0 (microseconds per token), got NaN",
        error(() -> SimulatorConfig.defaults().withPrefillUsPerToken(Double.NaN)));
  }

  @Test
  void infiniteDecodeIsRejected() {
    assertEquals(
        "decodeMsPerToken must be a finite number >= 0 (milliseconds per token), got Infinity",
        error(() -> SimulatorConfig.defaults().withDecodeMsPerToken(Double.POSITIVE_INFINITY)));
  }

  @Test
  void zeroMaxConcurrentIsRejected() {
    assertEquals(
        "maxConcurrent must be >= 1 (sequences), got 0",
        error(() -> SimulatorConfig.defaults().withMaxConcurrent(0)));
  }

  @Test
  void zeroTokensPerChunkIsRejected() {
    assertEquals(
        "tokensPerChunk must be >= 1 (tokens), got 0",
        error(() -> SimulatorConfig.defaults().withTokensPerChunk(0)));
  }

  @Test
  void contextShorterThanDefaultMaxTokensIsRejected() {
    assertEquals(
        "defaultMaxTokens must be between 1 and contextLength (8) tokens, got 16",
        error(() -> SimulatorConfig.defaults().withContextLength(8)));
  }

  @Test
  void zeroContextLengthIsRejected() {
    assertEquals(
        "contextLength must be >= 1 (tokens), got 0",
        error(() -> SimulatorConfig.defaults().withContextLength(0)));
  }

  @Test
  void zeroDefaultMaxTokensIsRejected() {
    assertEquals(
        "defaultMaxTokens must be between 1 and contextLength (32768) tokens, got 0",
        error(() -> SimulatorConfig.defaults().withDefaultMaxTokens(0)));
  }

  @Test
  void negativeRecordCapacityIsRejected() {
    assertEquals(
        "recordCapacity must be >= 0 (records), got -1",
        error(() -> SimulatorConfig.defaults().withRecordCapacity(-1)));
  }
}
