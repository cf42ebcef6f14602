package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConversationMergeTest {

  private static RequestRecord turn(long conversation, int turn, String digest) {
    return RequestRecordJson.fromJson(
            "{\"request\":\"chat\",\"phase\":\"measured\",\"start_ms\":1,\"status\":\"ok\","
                + "\"workload\":\"chats\",\"digest\":\""
                + digest
                + "\"}")
        .withConversationTurn(new ConversationTurn(conversation, turn, 0, null));
  }

  private static Map<String, Object> run(
      long conversations, long turns, String digest, long durationCount, double mean, long max) {
    return Map.of(
        "conversations",
        List.of(
            Map.of(
                "workload",
                "chats",
                "seed",
                7,
                "unfinished",
                0,
                "phases",
                Map.of(
                    "measured",
                    Map.of(
                        "conversations",
                        conversations,
                        "turns",
                        turns,
                        "digest",
                        digest,
                        "completed",
                        conversations,
                        "ended_by_context_limit",
                        0,
                        "ended_by_error",
                        0,
                        "duration_ms",
                        Map.of("count", durationCount, "mean", mean, "p50", max, "max", max))))));
  }

  @Test
  void shardsAddUpAndTheirDigestIsRecomputedFromTheTurns() {
    List<Map<String, Object>> merged =
        ConversationMerge.merge(
            List.of(
                run(1, 2, "aaaaaaaaaaaaaaaa", 1, 100, 100),
                run(1, 1, "bbbbbbbbbbbbbbbb", 1, 40, 40)),
            List.of(
                turn(0, 2, "0000000000000002"),
                turn(1, 1, "0000000000000003"),
                turn(0, 1, "0000000000000001")),
            true);
    Map<?, ?> measured = (Map<?, ?>) ((Map<?, ?>) merged.get(0).get("phases")).get("measured");
    assertEquals(2L, measured.get("conversations"));
    assertEquals(3L, measured.get("turns"));
    assertEquals(1.5, measured.get("turns_per_conversation"));
    assertEquals(2L, measured.get("completed"));
    // sha256 of the conversations' digests, each the sha256 of its turns' digests (hashlib).
    assertEquals("5797ac1d4048e0ab", measured.get("digest"));
    assertEquals(Map.of("count", 2L, "mean", 70.0, "max", 100L), measured.get("duration_ms"));
    assertEquals(7, merged.get(0).get("seed"));
  }

  @Test
  void repeatsKeepTheirCommonDigestOrNone() {
    Map<String, Object> a = run(1, 2, "aaaaaaaaaaaaaaaa", 1, 100, 100);
    Map<?, ?> same =
        (Map<?, ?>)
            ((Map<?, ?>)
                    ConversationMerge.merge(List.of(a, a), List.of(), false).get(0).get("phases"))
                .get("measured");
    assertEquals("aaaaaaaaaaaaaaaa", same.get("digest"));
    Map<?, ?> other =
        (Map<?, ?>)
            ((Map<?, ?>)
                    ConversationMerge.merge(
                            List.of(a, run(1, 2, "bbbbbbbbbbbbbbbb", 1, 100, 100)),
                            List.of(),
                            false)
                        .get(0)
                        .get("phases"))
                .get("measured");
    assertNull(other.get("digest"));
    assertNull(ConversationMerge.merge(List.of(Map.of()), List.of(), false));
  }
}
