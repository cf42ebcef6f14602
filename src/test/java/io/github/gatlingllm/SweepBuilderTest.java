package io.github.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SweepBuilderTest {

  private static SweepBuilder.Resolved resolve(SweepBuilder sweep, String... keyValues) {
    Properties properties = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return sweep.resolve(properties);
  }

  private static void assertRejected(String expected, SweepBuilder sweep, String... keyValues) {
    assertEquals(
        expected,
        assertThrows(IllegalArgumentException.class, () -> resolve(sweep, keyValues)).getMessage());
  }

  @Test
  void theDefaultsGoFromOneUserToSixteenGeometrically() {
    SweepBuilder.Resolved r = resolve(LlmDsl.sweep());
    assertEquals(List.of(1, 2, 4, 8, 16), r.concurrencies());
    assertEquals(Duration.ofSeconds(30), r.levelDuration());
    assertEquals(Duration.ZERO, r.ramp());
  }

  @Test
  void concurrenciesAreStrictlyAscending() {
    assertEquals(List.of(1, 2, 3, 4), SweepBuilder.concurrencies(4, 2));
    assertEquals(List.of(1, 2, 3, 4, 5, 6, 8), SweepBuilder.concurrencies(8, 5));
    assertEquals(List.of(1, 2), SweepBuilder.concurrencies(2, 0));
    assertEquals(List.of(1, 3, 8), SweepBuilder.concurrencies(8, 1));
    assertEquals(List.of(1, 4, 16, 64), SweepBuilder.concurrencies(64, 2));
  }

  @Test
  void theBuilderIsImmutable() {
    SweepBuilder base = LlmDsl.sweep();
    SweepBuilder four = base.maxConcurrency(4).levels(1);
    assertEquals(List.of(1, 2, 4, 8, 16), resolve(base).concurrencies());
    assertEquals(List.of(1, 2, 4), resolve(four).concurrencies());
  }

  @Test
  void propertiesWinOverTheDsl() {
    SweepBuilder.Resolved r =
        resolve(
            LlmDsl.sweep().maxConcurrency(4).levelDuration(5),
            "llm.sweep.maxConcurrency",
            "8",
            "llm.sweep.levels",
            "2",
            "llm.sweep.levelDuration",
            "2s",
            "llm.sweep.ramp",
            "500ms");
    assertEquals(List.of(1, 2, 4, 8), r.concurrencies());
    assertEquals(Duration.ofSeconds(2), r.levelDuration());
    assertEquals(Duration.ofMillis(500), r.ramp());
  }

  @Test
  void stepsHoldEachLevelWithARampBeforeEachButTheFirst() {
    SweepBuilder sweep =
        LlmDsl.sweep()
            .maxConcurrency(4)
            .levels(1)
            .levelDuration(Duration.ofSeconds(3))
            .ramp(Duration.ofSeconds(1));
    assertEquals(5, sweep.steps().size());
    assertEquals(Duration.ofSeconds(11), sweep.duration());
    assertEquals(3, sweep.ramp(Duration.ZERO).steps().size());
  }

  @Test
  void badValuesNameTheSettingTheValueAndWhatIsAllowed() {
    assertRejected(
        "llm.sweep.maxConcurrency (sweep().maxConcurrency): got 1, expected a whole number of"
            + " users in [2, 100000]",
        LlmDsl.sweep().maxConcurrency(1));
    assertRejected(
        "llm.sweep.levels (sweep().levels): got 3, expected a whole number in [0, 2]: levels"
            + " between 1 and 4 users, each its own concurrency",
        LlmDsl.sweep().maxConcurrency(4).levels(3));
    assertRejected(
        "llm.sweep.levels (sweep().levels): got -1, expected a whole number in [0, 14]: levels"
            + " between 1 and 16 users, each its own concurrency",
        LlmDsl.sweep().levels(-1));
    assertRejected(
        "llm.sweep.levelDuration (sweep().levelDuration): got 500ms, expected a duration of at"
            + " least 1s, e.g. 30s",
        LlmDsl.sweep().levelDuration(Duration.ofMillis(500)));
    assertRejected(
        "llm.sweep.ramp (sweep().ramp): got -1000ms, expected a duration >= 0, e.g. 2s",
        LlmDsl.sweep().ramp(Duration.ofSeconds(-1)));
    assertRejected(
        "llm.sweep.maxConcurrency (sweep().maxConcurrency): got \"lots\", expected a whole number",
        LlmDsl.sweep(),
        "llm.sweep.maxConcurrency",
        "lots");
    assertRejected(
        "llm.sweep.levelDuration (sweep().levelDuration): got \"soon\", expected a duration such"
            + " as 30s, 500ms or 2m (a bare number is seconds)",
        LlmDsl.sweep(),
        "llm.sweep.levelDuration",
        "soon");
  }

  @Test
  void hugeValuesAreRefusedWithTheirBounds() {
    assertRejected(
        "llm.sweep.maxConcurrency (sweep().maxConcurrency): got 2147483647, expected a whole"
            + " number of users in [2, 100000]",
        LlmDsl.sweep(),
        "llm.sweep.maxConcurrency",
        "2147483647",
        "llm.sweep.levels",
        "2147483645");
    assertRejected(
        "llm.sweep.levels (sweep().levels): got 63, expected a whole number in [0, 62]: levels"
            + " between 1 and 100000 users, each its own concurrency, at most 64 levels in all",
        LlmDsl.sweep().maxConcurrency(100_000).levels(63));
    assertEquals(
        64, resolve(LlmDsl.sweep().maxConcurrency(100_000).levels(62)).concurrencies().size());
    assertRejected(
        "llm.sweep.levelDuration (sweep().levelDuration): got 1000000000000000000ms, expected a"
            + " duration in [1s, 7d], e.g. 30s",
        LlmDsl.sweep(),
        "llm.sweep.levelDuration",
        "1e15");
    assertRejected(
        "llm.sweep.levelDuration (sweep().levelDuration): got 9223372036854775807s, expected a"
            + " duration in [1s, 7d], e.g. 30s",
        LlmDsl.sweep().levelDuration(Duration.ofSeconds(Long.MAX_VALUE)));
    assertRejected(
        "llm.sweep.ramp (sweep().ramp): got 691200000ms, expected a duration in [0s, 7d], e.g. 2s",
        LlmDsl.sweep().ramp(Duration.ofDays(8)));
    assertRejected(
        "llm.sweep.levelDuration (sweep().levelDuration): got 172800000ms, expected a duration"
            + " such that the sweep's 5 levels and 4 ramps of 0ms last at most 7d (they would"
            + " last 240h)",
        LlmDsl.sweep().levelDuration(Duration.ofDays(2)));
  }
}
