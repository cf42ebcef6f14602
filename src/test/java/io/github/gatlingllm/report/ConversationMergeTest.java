package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.record.RunRecord;
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

  private static List<Conversations> run(long conversations, long turns, String digest) {
    return RunRecord.of(
            Map.of(
                "conversations",
                List.of(
                    Map.of(
                        "workload",
                        "chats",
                        "phases",
                        Map.of(
                            "measured",
                            Map.of(
                                "conversations", conversations,
                                "turns", turns,
                                "digest", digest,
                                "duration_ms", Map.of("count", 0)))))))
        .conversations();
  }

  @Test
  void shardsDigestIsRecomputedFromTheTurns() {
    ConversationMerge.Turns turns = new ConversationMerge.Turns();
    turns.add(turn(0, 2, "0000000000000002"));
    turns.add(turn(1, 1, "0000000000000003"));
    turns.add(turn(0, 1, "0000000000000001"));

    Conversations merged =
        Conversations.mergeRuns(
                List.of(run(1, 2, "aaaaaaaaaaaaaaaa"), run(1, 1, "bbbbbbbbbbbbbbbb")), turns)
            .get(0);

    // sha256 of the conversations' digests, each the sha256 of its turns' digests (hashlib).
    assertEquals("5797ac1d4048e0ab", merged.measured().digest());
    assertEquals(3L, merged.measured().turns());
  }

  @Test
  void shardsWhoseTurnsMissAConversationHaveNoDigest() {
    ConversationMerge.Turns turns = new ConversationMerge.Turns();
    turns.add(turn(0, 1, "0000000000000001"));

    assertNull(turns.of("chats", "measured", 2));
    assertEquals(
        turns.of("chats", "measured", 1),
        io.github.gatlingllm.prompt.PromptSource.phaseDigest(
            Map.of(
                0L,
                io.github.gatlingllm.prompt.ConversationSource.conversationDigest(
                    List.of("0000000000000001")))));
    assertNull(turns.of("chats", "warmup", 0));
  }
}
