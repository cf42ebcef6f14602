package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.record.Conversations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The phase digests of {@code llm-run.json}'s {@code conversations} for a report over the shards of
 * one test ({@link Conversations#mergeRuns}, which adds the rest up): recomputed from the request
 * lines (each conversation's user message digests in turn order) when they hold every ended
 * conversation, else null.
 */
final class ConversationMerge {

  private ConversationMerge() {}

  /**
   * Every folder's conversation turns' digests by workload, phase, conversation and turn, a request
   * at a time (kept for the digests of a sharded merge: a turn's digest, about 100 bytes a turn;
   * other requests are not kept).
   */
  static final class Turns implements Conversations.ShardDigest {
    private final Map<List<String>, Map<Long, TreeMap<Integer, String>>> byPhase =
        new LinkedHashMap<>();

    /** Adds a request. */
    void add(RequestRecord r) {
      if (r.conversationTurn() != null
          && r.workload() != null
          && r.phase() != null
          && r.digest() != null) {
        byPhase
            .computeIfAbsent(List.of(r.workload(), r.phase()), k -> new TreeMap<>())
            .computeIfAbsent(r.conversationTurn().conversation(), c -> new TreeMap<>())
            .put(r.conversationTurn().turn(), r.digest());
      }
    }

    /**
     * The phase's digest over its conversations' digests, each over its turns' user messages in
     * turn order; null when the turns recorded are not those of every ended conversation.
     */
    @Override
    public String of(String workload, String phase, long conversations) {
      Map<Long, TreeMap<Integer, String>> turns =
          byPhase.getOrDefault(List.of(workload, phase), Map.of());
      if (turns.isEmpty() || turns.size() != conversations) {
        return null;
      }
      Map<Long, String> byConversation = new TreeMap<>();
      for (Map.Entry<Long, TreeMap<Integer, String>> e : turns.entrySet()) {
        byConversation.put(
            e.getKey(),
            ConversationSource.conversationDigest(new ArrayList<>(e.getValue().values())));
      }
      return PromptSource.phaseDigest(byConversation);
    }
  }
}
