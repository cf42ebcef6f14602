package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CpuSamplesTest {

  /** Two processors; 1 s at one processor busy, 1 s at both, 2 s idle. */
  private static CpuSamples samples() {
    CpuSamples cpu = new CpuSamples(2);
    cpu.add(10_000, 5_000_000_000L);
    cpu.add(11_000, 6_000_000_000L);
    cpu.add(12_000, 8_000_000_000L);
    cpu.add(14_000, 8_000_000_000L);
    return cpu;
  }

  @Test
  void theShareIsCpuTimeOverWallTimeTimesProcessors() {
    // 3 s of CPU over 4 s on 2 processors
    assertEquals(0.375, samples().mean());
    assertEquals(1.0, samples().max());
  }

  @Test
  void aWindowIsInterpolatedBetweenSamples() {
    // 10.5 s to 11.5 s: 0.5 s of CPU then 1 s of CPU, over 1 s on 2 processors
    assertEquals(0.75, samples().share(10_500, 11_500));
    // cut to the sampled span: 13 s to 14 s, idle
    assertEquals(0.0, samples().share(13_000, 20_000));
    assertNull(samples().share(20_000, 30_000));
  }

  @Test
  void theLastSecondsAreTheLiveWindow() {
    // 12 s to 14 s: idle; 11 s to 14 s: 2 s of CPU over 3 s on 2 processors
    assertEquals(0.0, samples().last(2_000));
    assertEquals(2.0 / 6, samples().last(3_000));
    assertNull(samples().last(5_000));
  }

  @Test
  void oneSampleHasNoShare() {
    CpuSamples cpu = new CpuSamples(4);
    cpu.add(1_000, 10);
    assertNull(cpu.mean());
    assertNull(cpu.max());
    assertNull(cpu.share(0, 2_000));
  }

  @Test
  void theRecordRoundsToFourDecimals() {
    CpuSamples cpu = new CpuSamples(3);
    cpu.add(0, 0);
    cpu.add(1_000, 1_000_000_000L);
    assertEquals(0.3333, CpuSamples.round4(cpu.mean()));
    assertEquals(0.3333, CpuSamples.round4(cpu.max()));
    assertEquals(3, cpu.processors());
    assertEquals(2, cpu.size());
    assertEquals(1, cpu.windows());
  }

  @Test
  void twoSamplesAFewMsApartGiveNoShare() {
    // issue 40: 16 ms of CPU read over 5 ms of wall time on 2 processors was a share of 1.6
    CpuSamples cpu = new CpuSamples(2);
    cpu.add(10_000, 3_000_000_000L);
    cpu.add(10_005, 3_016_000_000L);
    assertNull(cpu.max());
    assertNull(cpu.mean());
    assertNull(cpu.share(10_000, 10_005));
    assertEquals(0, cpu.windows());
  }

  @Test
  void aShortLastWindowIsMergedIntoTheOneBeforeIt() {
    // 1 s at a quarter, 1 s at a half less 6 ms of CPU, then a last sample 4 ms later read with
    // 10 ms of CPU (1.25 alone): the last window is 1,000 to 2,004 ms, a half
    CpuSamples cpu = new CpuSamples(2);
    cpu.add(0, 0);
    cpu.add(1_000, 500_000_000L);
    cpu.add(2_000, 1_494_000_000L);
    cpu.add(2_004, 1_504_000_000L);
    assertEquals(0.5, cpu.max());
    assertEquals(0.5, cpu.rawMax());
    assertEquals(2, cpu.windows());
  }

  @Test
  void samplesCloserThanASecondMakeWindowsOfASecondOrMore() {
    // 600 ms apart: windows 0 to 1,200 ms (0.9 s of CPU) and 1,200 to 2,400 ms (0.3 s of CPU)
    CpuSamples cpu = new CpuSamples(1);
    cpu.add(0, 0);
    cpu.add(600, 600_000_000L);
    cpu.add(1_200, 900_000_000L);
    cpu.add(1_800, 1_000_000_000L);
    cpu.add(2_400, 1_200_000_000L);
    assertEquals(0.75, cpu.max());
    assertEquals(2, cpu.windows());
    assertEquals(0.5, cpu.mean());
  }

  @Test
  void aSpanUnderASecondHasNoShare() {
    CpuSamples cpu = new CpuSamples(2);
    cpu.add(0, 0);
    cpu.add(500, 400_000_000L);
    cpu.add(999, 800_000_000L);
    assertNull(cpu.mean());
    assertNull(cpu.max());
    assertNull(cpu.last(500));
    assertEquals(0, cpu.windows());
  }

  @Test
  void aWindowUnderASecondHasNoShare() {
    // inside a 1 s sample pair, but 500 ms long
    assertNull(samples().share(10_200, 10_700));
    assertEquals(0.5, samples().share(10_000, 11_000));
  }

  @Test
  void aShareAboveOneIsCappedAndItsRawFigureKept() {
    // 2.2 s of CPU in 1 s on a JVM told it has 2 processors
    CpuSamples cpu = new CpuSamples(2);
    cpu.add(0, 0);
    cpu.add(1_000, 2_200_000_000L);
    assertEquals(1.0, cpu.max());
    assertEquals(1.1, cpu.rawMax());
    assertEquals(1.0, cpu.mean());
    assertEquals(1.0, cpu.share(0, 1_000));
  }

  @Test
  void aSampleBackInTimeIsRefused() {
    CpuSamples cpu = new CpuSamples(1);
    cpu.add(2_000, 50);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> cpu.add(1_000, 60));
    assertEquals(
        "CPU sample (1000 ms, 60 ns) is before the previous one (2000 ms, 50 ns)", e.getMessage());
  }
}
