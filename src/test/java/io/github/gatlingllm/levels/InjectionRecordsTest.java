package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InjectionRecordsTest {

  private static final Injection CLOSED =
      new Injection(
          "chat",
          true,
          List.of(
              new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 5_000),
              new Step(Type.RAMP_CONCURRENT_USERS, 1, 2, 1_500)),
          List.of());

  @Test
  void aProfileReadsAsGatlingsDsl() {
    assertEquals(
        "chat (closed): constantConcurrentUsers(1).during(5s),"
            + " rampConcurrentUsers(1).to(2).during(1500ms)",
        InjectionRecords.describe(CLOSED));
    Injection open =
        new Injection(
            "later",
            false,
            List.of(
                new Step(Type.NOTHING_FOR, 0, 0, 1_000),
                new Step(Type.POISSON_USERS_PER_SEC, 2.5, 2.5, 10_000, 7L)),
            List.of("chat"));
    assertEquals(
        "later (open, after chat): nothingFor(1s),"
            + " constantUsersPerSec(2.5).during(10s).randomized()",
        InjectionRecords.describe(open));
  }

  @Test
  void theRecordHasEveryStep() {
    assertEquals(
        Map.of(
            "scenario",
            "chat",
            "kind",
            "closed",
            "after",
            List.of(),
            "steps",
            List.of(
                Map.of(
                    "type",
                    "constant_concurrent_users",
                    "from",
                    1L,
                    "to",
                    1L,
                    "duration_ms",
                    5_000L,
                    "level",
                    true),
                Map.of(
                    "type", "ramp_concurrent_users", "from", 1L, "to", 2L, "duration_ms", 1_500L))),
        InjectionRecords.toRecord(CLOSED));
  }
}
