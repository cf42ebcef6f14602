package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PhaseTest {

  @Test
  void theWireNamesAreTheRecordsPhases() {
    assertEquals("warmup", Phase.WARMUP.wireName());
    assertEquals("measured", Phase.MEASURED.wireName());
  }

  @Test
  void theWarmupIsFirstAsInTheRunRecord() {
    assertEquals(Phase.WARMUP, Phase.values()[0]);
  }

  @Test
  void onlyWarmupIsTheWarmup() {
    assertEquals(true, Phase.isWarmup("warmup"));
    assertEquals(false, Phase.isWarmup("measured"));
    assertEquals(false, Phase.isWarmup("Warmup"));
  }

  @Test
  void aRecordWithoutAPhaseIsNotTheWarmup() {
    assertEquals(false, Phase.isWarmup(null));
  }

  @Test
  void aNameReadsToItsPhase() {
    assertEquals(Phase.WARMUP, Phase.fromWireName("warmup"));
    assertEquals(Phase.MEASURED, Phase.fromWireName("measured"));
  }

  @Test
  void anUnknownNameIsRefusedNamingBoth() {
    assertEquals(
        "phase must be measured or warmup, got \"cooldown\"",
        assertThrows(IllegalArgumentException.class, () -> Phase.fromWireName("cooldown"))
            .getMessage());
  }
}
