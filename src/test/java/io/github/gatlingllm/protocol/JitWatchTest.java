package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.record.ClientSummary;
import org.junit.jupiter.api.Test;

/** The client's JIT compiling time over a run and its first measured requests (issue 43). */
class JitWatchTest {

  /** Readings every second from 0: the compilers' total grows by the given ms each second. */
  private static JitWatch watch(int processors, long... perSecond) {
    JitWatch w = new JitWatch(null, processors);
    long total = 0;
    w.add(0, 0);
    for (int i = 0; i < perSecond.length; i++) {
      total += perSecond[i];
      w.add((i + 1) * 1_000L, total);
    }
    return w;
  }

  @Test
  void theMeasuredRequestsCompilingTimeIsReadFromTheirFirstStart() {
    // 20 s: 500 ms a second of compiling for the first 10 s, then 20 ms a second
    JitWatch w =
        watch(
            1, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 20, 20, 20, 20, 20, 20, 20, 20, 20,
            20);
    w.measured(9_000);
    w.measured(12_000);
    ClientSummary.Jit jit = w.finish();
    assertEquals(new ClientSummary.Jit(5_200, 700L, 680L, 10_000, 1), jit);
    // 500 + 9 x 20 = 680 ms in the first 10 s on 1 processor: 6.8%, under the 10% noted
    assertNull(JitWatch.note(jit));
  }

  @Test
  void aFirstMeasuredStretchCompilingATenthOfTheCoresIsNoted() {
    JitWatch w = watch(1, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300);
    w.measured(2_000);
    ClientSummary.Jit jit = w.finish();
    assertEquals(3_000L, jit.firstMeasuredCompileMs());
    assertEquals(
        "the client's JIT compiled for 3000 ms in the first 10 s of the measured requests (30% of"
            + " its 1 processor(s)): those requests ran beside it, partly on code not yet"
            + " compiled; a longer warm-up (llm.warmupRequests) moves that out of the measure",
        JitWatch.note(jit));
  }

  @Test
  void theSameCompilingOnMoreProcessorsIsASmallerShare() {
    JitWatch w = watch(4, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300);
    w.measured(2_500);
    assertNull(JitWatch.note(w.finish()));
  }

  @Test
  void noMeasuredRequestLeavesTheMeasuredFiguresNull() {
    ClientSummary.Jit jit = watch(2, 100, 100).finish();
    assertEquals(new ClientSummary.Jit(200, null, null, 10_000, 2), jit);
    assertNull(JitWatch.note(jit));
  }

  @Test
  void fewerThanTwoReadingsGiveNoBlock() {
    JitWatch w = new JitWatch(null, 1);
    w.add(0, 5);
    assertNull(w.finish());
  }

  @Test
  void readingsAfterTheFinishAreIgnored() {
    JitWatch w = watch(1, 100, 100);
    ClientSummary.Jit jit = w.finish();
    w.add(3_000, 900);
    assertEquals(jit, w.finish());
  }

  @Test
  void theRealJvmsCompilersAreRead() {
    JitWatch w = new JitWatch();
    w.sample(1_000);
    w.sample(2_000);
    ClientSummary.Jit jit = w.finish();
    // HotSpot reports its compilers' time: the block is there, over the two readings
    assertTrue(
        java.lang.management.ManagementFactory.getCompilationMXBean()
            .isCompilationTimeMonitoringSupported());
    assertEquals(Runtime.getRuntime().availableProcessors(), jit.processors());
    assertTrue(jit.compileMs() >= 0, jit.toString());
  }
}
