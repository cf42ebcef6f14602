package io.github.gatlingllm.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.record.Machine;
import org.junit.jupiter.api.Test;

class MachineDifferenceTest {

  private static Machine machine(Double other, Double steal) {
    return new Machine(2, 1.0, 1.0, other, other, 0.3, steal, steal, 10, 9.0, "test", null);
  }

  @Test
  void aNeighbourDuringBExplainsBsSlowerLatency() {
    // A: 20% taken, 80% free; B: 50% + 5% stolen, 45% free: 1.78 times less.
    MachineDifference d = MachineDifference.of(machine(0.2, 0.0), machine(0.5, 0.05));

    assertEquals(true, d.differs());
    assertEquals(1.7778, d.factor(), 1e-4);
    assertEquals(
        "the machine was busier during B: 45% of its CPU free against 80% in A (other processes"
            + " and steal), 1.78 times less, enough to explain a latency up to +78% or a throughput"
            + " down to -44%",
        d.line());
    assertEquals(true, d.explains("ttft_p50_ms", new double[] {40, 70}, ChangeVerdict.WORSE, true));
    assertEquals(
        true,
        d.explains("output_tokens_per_s", new double[] {-40, -30}, ChangeVerdict.WORSE, false));
  }

  @Test
  void aChangeBeyondWhatTheMachineCouldMakeKeepsItsVerdict() {
    MachineDifference d = MachineDifference.of(machine(0.2, 0.0), machine(0.5, 0.05));

    assertEquals(
        false, d.explains("ttft_p50_ms", new double[] {90, 140}, ChangeVerdict.WORSE, true));
  }

  @Test
  void theBusierRunFasterIsNotExplained() {
    MachineDifference d = MachineDifference.of(machine(0.2, 0.0), machine(0.5, 0.05));

    assertEquals(
        false, d.explains("ttft_p50_ms", new double[] {-30, -10}, ChangeVerdict.BETTER, true));
    assertEquals(
        false, d.explains("cache_hit_ratio", new double[] {-30, -10}, ChangeVerdict.WORSE, false));
  }

  @Test
  void aBusierAExplainsBsBetterLatency() {
    // A 45% free, B 80%: A/B - 1 at the interval's nearer end -20%: 1/(1 - 0.2) - 1 = +25% < +78%.
    MachineDifference d = MachineDifference.of(machine(0.5, 0.05), machine(0.2, 0.0));

    assertEquals(
        true, d.explains("itl_p50_ms", new double[] {-40, -20}, ChangeVerdict.BETTER, true));
  }

  @Test
  void machinesWithinTenPercentDoNotDiffer() {
    // 70% free against 65%: 1.077 times.
    MachineDifference d = MachineDifference.of(machine(0.3, 0.0), machine(0.35, 0.0));

    assertEquals(false, d.differs());
    assertEquals(false, d.explains("ttft_p50_ms", new double[] {3, 7}, ChangeVerdict.WORSE, true));
  }

  @Test
  void withoutFiguresThereIsNoDifference() {
    assertNull(MachineDifference.of(machine(null, null), machine(0.5, 0.0)));
    assertNull(MachineDifference.of(null, machine(0.5, 0.0)));
  }
}
