package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The typed merge of the run record's {@code conversations} ({@link Conversations#mergeRuns}). The
 * merges of the saved conversation run with itself are the text the map merge it replaces
 * (report/ConversationMerge at ff85119) wrote for the same files: a pure refactor, so these pass on
 * the old code's output by construction; the byte-identical rebuild of the saved runs
 * (scripts/record-compare.sh) is the proof over whole files.
 */
class ConversationsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What report/ConversationMerge wrote for the saved conversation run twice, as repeats. */
  private static final String REPEATS =
      "[{\"workload\":\"conversations\",\"generator_version\":2,\"seed\":0,"
          + "\"case_id\":\"chat_t3-5_u96_s512\",\"tokenizer\":{\"source\":\"estima"
          + "ted\",\"exact\":false,\"name\":\"whitespace words\"},\"spec\":{\"turns"
          + "_min\":3,\"turns_max\":5,\"user_tokens\":96,\"system_tokens\":512,\""
          + "system_groups\":2,\"think_time_ms_min\":200,\"think_time_ms_max\""
          + ":800,\"max_context_tokens\":8192},\"budget\":{\"conversations\":8,"
          + "\"warmup_conversations\":2},\"phases\":{\"warmup\":{\"conversations"
          + "\":4,\"turns\":16,\"digest\":\"440cb75608d81122\",\"completed\":4,\"en"
          + "ded_by_context_limit\":0,\"ended_by_error\":0,\"turns_per_conver"
          + "sation\":4.0,\"duration_ms\":{\"count\":4,\"mean\":4637.0,\"max\":552"
          + "4}},\"measured\":{\"conversations\":16,\"turns\":66,\"digest\":\"cad0"
          + "e837a0d79668\",\"completed\":16,\"ended_by_context_limit\":0,\"end"
          + "ed_by_error\":0,\"turns_per_conversation\":4.125,\"duration_ms\":"
          + "{\"count\":16,\"mean\":4682.625,\"max\":6137}}},\"unfinished\":0}]";

  /** The same as shards, without their request lines (every digest unknown). */
  private static final String SHARDS =
      "[{\"workload\":\"conversations\",\"generator_version\":2,\"seed\":0,"
          + "\"case_id\":\"chat_t3-5_u96_s512\",\"tokenizer\":{\"source\":\"estima"
          + "ted\",\"exact\":false,\"name\":\"whitespace words\"},\"spec\":{\"turns"
          + "_min\":3,\"turns_max\":5,\"user_tokens\":96,\"system_tokens\":512,\""
          + "system_groups\":2,\"think_time_ms_min\":200,\"think_time_ms_max\""
          + ":800,\"max_context_tokens\":8192},\"budget\":{\"conversations\":8,"
          + "\"warmup_conversations\":2},\"phases\":{\"warmup\":{\"conversations"
          + "\":4,\"turns\":16,\"digest\":null,\"completed\":4,\"ended_by_context"
          + "_limit\":0,\"ended_by_error\":0,\"turns_per_conversation\":4.0,\"d"
          + "uration_ms\":{\"count\":4,\"mean\":4637.0,\"max\":5524}},\"measured\""
          + ":{\"conversations\":16,\"turns\":66,\"digest\":null,\"completed\":16"
          + ",\"ended_by_context_limit\":0,\"ended_by_error\":0,\"turns_per_co"
          + "nversation\":4.125,\"duration_ms\":{\"count\":16,\"mean\":4682.625,"
          + "\"max\":6137}}},\"unfinished\":0}]";

  private static List<Conversations> saved() throws Exception {
    return RunRecord.load(Path.of("src/test/resources/saved-runs/conversation/llm-run.json"))
        .conversations();
  }

  /** One workload {@code chats}: its measured phase only. */
  private static List<Conversations> run(
      long conversations, long turns, String digest, long durations, double mean, long max)
      throws Exception {
    String json =
        "{\"conversations\":[{\"workload\":\"chats\",\"seed\":7,\"phases\":{\"measured\":"
            + "{\"conversations\":"
            + conversations
            + ",\"turns\":"
            + turns
            + ",\"digest\":\""
            + digest
            + "\",\"completed\":"
            + conversations
            + ",\"ended_by_context_limit\":0,\"ended_by_error\":0,\"duration_ms\":{\"count\":"
            + durations
            + ",\"mean\":"
            + mean
            + ",\"p50\":"
            + max
            + ",\"max\":"
            + max
            + "}}},\"unfinished\":1}]}";
    return RunRecord.of((ObjectNode) JSON.readTree(json)).conversations();
  }

  @Test
  void repeatsOfTheSavedRunMergeToTheTextTheMapMergeWrote() throws Exception {
    assertEquals(
        REPEATS, JSON.writeValueAsString(Conversations.mergeRuns(List.of(saved(), saved()), null)));
  }

  @Test
  void shardsWithoutTheirTurnsMergeToTheTextTheMapMergeWrote() throws Exception {
    assertEquals(
        SHARDS,
        JSON.writeValueAsString(
            Conversations.mergeRuns(List.of(saved(), saved()), (w, phase, n) -> null)));
  }

  @Test
  void countsAddAndTheMeanAndMaxOfDurationsAreWorkedOutAgain() throws Exception {
    Conversations merged =
        Conversations.mergeRuns(
                List.of(
                    run(1, 2, "aaaaaaaaaaaaaaaa", 1, 100, 100),
                    run(3, 3, "aaaaaaaaaaaaaaaa", 2, 40, 50)),
                null)
            .get(0);
    Conversations.Phase m = merged.measured();

    assertEquals(4L, m.conversations());
    assertEquals(5L, m.turns());
    assertEquals(1.25, m.turnsPerConversation());
    assertEquals(4L, m.completed());
    assertEquals(0L, m.endedByError());
    // (100 * 1 + 40 * 2) / 3; percentiles cannot be merged
    assertEquals(new Conversations.Durations(3L, 60.0, null, null, 100L), m.durationMs());
    assertEquals(2L, merged.unfinished());
    assertEquals(7L, merged.seed());
  }

  @Test
  void aPhaseNoFolderHasIsWrittenEmpty() throws Exception {
    Conversations.Phase warmup =
        Conversations.mergeRuns(List.of(run(1, 2, "aaaaaaaaaaaaaaaa", 1, 100, 100)), null)
            .get(0)
            .phases()
            .warmup();

    assertEquals(
        "{\"conversations\":0,\"turns\":0,\"digest\":null,\"completed\":0,"
            + "\"ended_by_context_limit\":0,\"ended_by_error\":0,\"turns_per_conversation\":null,"
            + "\"duration_ms\":{\"count\":0}}",
        JSON.writeValueAsString(warmup));
  }

  @Test
  void repeatsKeepTheirCommonDigestOrNone() throws Exception {
    List<Conversations> a = run(1, 2, "aaaaaaaaaaaaaaaa", 1, 100, 100);

    assertEquals(
        "aaaaaaaaaaaaaaaa",
        Conversations.mergeRuns(List.of(a, a), null).get(0).measured().digest());
    assertNull(
        Conversations.mergeRuns(List.of(a, run(1, 2, "bbbbbbbbbbbbbbbb", 1, 100, 100)), null)
            .get(0)
            .measured()
            .digest());
  }

  @Test
  void shardsTakeTheirDigestFromTheRequestLines() throws Exception {
    List<String> asked = new ArrayList<>();
    Conversations merged =
        Conversations.mergeRuns(
                List.of(
                    run(1, 2, "aaaaaaaaaaaaaaaa", 1, 100, 100),
                    run(1, 1, "bbbbbbbbbbbbbbbb", 1, 40, 40)),
                (w, phase, n) -> {
                  asked.add(w + " " + phase + " " + n);
                  return "measured".equals(phase) ? "5797ac1d4048e0ab" : null;
                })
            .get(0);

    assertEquals("5797ac1d4048e0ab", merged.measured().digest());
    assertEquals(List.of("chats warmup 0", "chats measured 2"), asked);
  }

  @Test
  void runsWithoutConversationsMergeToNull() {
    assertNull(Conversations.mergeRuns(Arrays.asList(null, null), null));
  }
}
