package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.simulator.FaultInjectingStrategy.Fault;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultInjectingStrategyTest {

  private static GenerationRequest request(long id) {
    return new GenerationRequest(id, ServedEndpoint.CHAT, true, 10, 0, 4);
  }

  @Test
  void theSameSeedDrawsTheSameFaults() {
    FaultInjectingStrategy a = new FaultInjectingStrategy(ResponseStrategy.standard(), 0.3, 7, 100);
    FaultInjectingStrategy b = new FaultInjectingStrategy(ResponseStrategy.standard(), 0.3, 7, 100);
    for (long id = 1; id <= 200; id++) {
      assertEquals(a.draw(id), b.draw(id));
    }
  }

  @Test
  void aZeroRateNeverInjects() {
    FaultInjectingStrategy s = new FaultInjectingStrategy(ResponseStrategy.standard(), 0, 7, 100);
    for (long id = 1; id <= 200; id++) {
      assertEquals(4, s.plan(request(id), SimulatorConfig.defaults()).size());
    }
    assertEquals(Map.of(Fault.ABORT, 0L, Fault.STALL, 0L), s.injected());
  }

  @Test
  void aFullRateInjectsEveryTimeAndCountsEachKind() {
    FaultInjectingStrategy s = new FaultInjectingStrategy(ResponseStrategy.standard(), 1, 7, 250);
    long aborts = 0;
    long stalls = 0;
    for (long id = 1; id <= 1000; id++) {
      Fault f = s.draw(id);
      if (f == Fault.ABORT) {
        aborts++;
        long i = id;
        assertThrows(
            IllegalStateException.class, () -> s.plan(request(i), SimulatorConfig.defaults()));
      } else {
        stalls++;
        assertEquals(
            List.of(new PlannedChunk(250_000_000L, 1, WordCycle.token(0))),
            s.plan(request(id), SimulatorConfig.defaults()));
      }
    }
    assertEquals(1000, aborts + stalls);
    assertEquals(Map.of(Fault.ABORT, aborts, Fault.STALL, stalls), s.injected());
    // Equal odds: each kind near 500 of 1000.
    assertEquals(500, aborts, 60);
  }

  @Test
  void aRateAboveOneIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new FaultInjectingStrategy(ResponseStrategy.standard(), 1.5, 7, 100));
    assertEquals("faultRate must be in [0, 1], got 1.5", e.getMessage());
  }
}
