package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One conversation workload of the run record's {@code conversations} (a list, one per workload, in
 * the order they started): its generator, seed, case and tokenizer, its spec and budgets, each
 * phase's ended conversations, and the conversations handed out and not ended when the run ended.
 * Written by {@code feeder.ConversationWorkload} at the run's end; {@link #merge} adds up the
 * entries of several run folders.
 *
 * <p>{@code seed_auto} is written only when true; a phase's {@code digest} and {@code
 * turns_per_conversation} and the spec's {@code max_context_tokens} are written even when null;
 * {@code duration_ms} has {@code mean}, {@code p50}, {@code p90} and {@code max} only with
 * durations ({@code p50} and {@code p90} not after a merge). The other fields are never null in
 * today's files and are left out only when a file without them is written again. Keys this version
 * does not know are kept in {@link #extra} (of the entry and of each phase) and written after the
 * others.
 *
 * @param workload the workload's name
 * @param generatorVersion the prompt generator's version
 * @param seed the generator's seed
 * @param seedAuto true when the seed was picked from the clock ({@code llm.seed=auto}), else null
 * @param caseId the case id
 * @param tokenizer the tokenizer's identity ({@code source}, {@code exact}, {@code name}, ...)
 * @param spec the conversations' shape
 * @param budget the whole test's conversations
 * @param phases each phase's ended conversations
 * @param unfinished conversations handed out and not ended when the run ended
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "workload",
  "generator_version",
  "seed",
  "seed_auto",
  "case_id",
  "tokenizer",
  "spec",
  "budget",
  "phases",
  "unfinished"
})
public record Conversations(
    String workload,
    Integer generatorVersion,
    Long seed,
    Boolean seedAuto,
    String caseId,
    Map<String, Object> tokenizer,
    Spec spec,
    Budget budget,
    Phases phases,
    Long unfinished,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** The run record's key of the block. */
  public static final String KEY = "conversations";

  /** Normalises {@code extra} to an ordered map. */
  public Conversations {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The measured phase.
   *
   * @return its figures, or null when the entry has none
   */
  public Phase measured() {
    return phases == null ? null : phases.measured();
  }

  /**
   * The conversations' shape.
   *
   * @param turnsMin the fewest turns a conversation has
   * @param turnsMax the most
   * @param userTokens tokens of a user message
   * @param systemTokens tokens of the system prompt
   * @param systemGroups the system prompts shared by conversations
   * @param thinkTimeMsMin the shortest pause between a reply and the next turn, milliseconds
   * @param thinkTimeMsMax the longest
   * @param maxContextTokens the context window a turn must fit, or null for none
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({
    "turns_min",
    "turns_max",
    "user_tokens",
    "system_tokens",
    "system_groups",
    "think_time_ms_min",
    "think_time_ms_max",
    "max_context_tokens"
  })
  public record Spec(
      Integer turnsMin,
      Integer turnsMax,
      Integer userTokens,
      Integer systemTokens,
      Integer systemGroups,
      Long thinkTimeMsMin,
      Long thinkTimeMsMax,
      @JsonInclude(JsonInclude.Include.ALWAYS) Integer maxContextTokens) {}

  /**
   * The whole test's conversations.
   *
   * @param conversations measured conversations
   * @param warmupConversations warmup conversations
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"conversations", "warmup_conversations"})
  public record Budget(Long conversations, Long warmupConversations) {}

  /**
   * Each phase's ended conversations.
   *
   * @param warmup the warmup phase's
   * @param measured the measured phase's
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"warmup", "measured"})
  public record Phases(Phase warmup, Phase measured) {}

  /**
   * One phase's ended conversations.
   *
   * @param conversations conversations ended
   * @param turns turns sent
   * @param digest over the ended conversations' digests, or null when none ended (or, merged, when
   *     it cannot be known)
   * @param completed conversations that ran every turn
   * @param endedByContextLimit those whose next turn would not have fit the context window
   * @param endedByError those a failed turn ended
   * @param turnsPerConversation the mean turns a conversation, to 3 decimals, or null without
   *     conversations
   * @param durationMs first turn's start to last turn's end, milliseconds
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({
    "conversations",
    "turns",
    "digest",
    "completed",
    "ended_by_context_limit",
    "ended_by_error",
    "turns_per_conversation",
    "duration_ms"
  })
  public record Phase(
      Long conversations,
      Long turns,
      @JsonInclude(JsonInclude.Include.ALWAYS) String digest,
      Long completed,
      Long endedByContextLimit,
      Long endedByError,
      @JsonInclude(JsonInclude.Include.ALWAYS) Double turnsPerConversation,
      Durations durationMs,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Phase {
      extra = KeepsNewerKeys.ordered(extra);
    }
  }

  /**
   * Conversations' durations: {@code count} alone without durations.
   *
   * @param count durations
   * @param mean their mean, milliseconds to 3 decimals, or null without durations
   * @param p50 the nearest-rank median, or null (without durations, or merged)
   * @param p90 the nearest-rank 90th percentile, or null
   * @param max the longest, or null without durations
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"count", "mean", "p50", "p90", "max"})
  public record Durations(Long count, Double mean, Long p50, Long p90, Long max) {}

  /** A phase's digest over the shards of one test, recomputed from their request lines. */
  @FunctionalInterface
  public interface ShardDigest {
    /**
     * The digest.
     *
     * @param workload the workload's name
     * @param phase {@code warmup} or {@code measured}
     * @param conversations the phase's conversations, merged
     * @return the digest, or null when the request lines do not hold every ended conversation
     */
    String of(String workload, String phase, long conversations);
  }

  /**
   * The {@code conversations} of several run folders as one: per workload, by name in the order the
   * folders first have it, their entries {@linkplain #merge(List, ShardDigest) merged}.
   *
   * @param runs each folder's {@code conversations}, in order; a null one is skipped
   * @param shards the phases' digests when the folders are the shards of one test, else null
   * @return the merged block, or null when no folder has conversations
   */
  public static List<Conversations> mergeRuns(List<List<Conversations>> runs, ShardDigest shards) {
    return AgentSessions.byWorkload(
        runs, Conversations::workload, (name, entries) -> merge(entries, shards));
  }

  /**
   * One workload's entries of several run folders as one: the first folder's settings, and per
   * phase (both, always) the counts added up ({@code conversations}, {@code turns}, {@code
   * completed}, {@code ended_by_context_limit}, {@code ended_by_error}, {@code duration_ms.count},
   * {@code unfinished}), {@code turns_per_conversation} and {@code duration_ms.mean} worked out
   * again, {@code duration_ms.max} the largest; the percentiles of durations cannot be merged and
   * are left out. The phase {@code digest}: for repeats of one test ({@code shards} null) the
   * folders' digest when every folder has the same, else null; for the shards of one test, {@code
   * shards}' (recomputed from the request lines).
   *
   * @param entries the workload's entries, in folder order; at least one
   * @param shards the phases' digests when the folders are the shards of one test, else null
   * @return the merged entry
   */
  public static Conversations merge(List<Conversations> entries, ShardDigest shards) {
    Conversations first = entries.get(0);
    String name = String.valueOf(first.workload);
    return new Conversations(
        first.workload,
        first.generatorVersion,
        first.seed,
        first.seedAuto,
        first.caseId,
        first.tokenizer,
        first.spec,
        first.budget,
        new Phases(
            phase(name, "warmup", entries, p -> p.warmup(), shards),
            phase(name, "measured", entries, p -> p.measured(), shards)),
        sum(entries, Conversations::unfinished),
        first.extra);
  }

  private static Phase phase(
      String workload,
      String name,
      List<Conversations> entries,
      Function<Phases, Phase> of,
      ShardDigest shards) {
    List<Phase> phases = new ArrayList<>();
    for (Conversations e : entries) {
      if (e.phases != null && of.apply(e.phases) != null) {
        phases.add(of.apply(e.phases));
      }
    }
    long conversations = sum(phases, Phase::conversations);
    long turns = sum(phases, Phase::turns);
    String digest;
    if (shards != null) {
      digest = shards.of(workload, name, conversations);
    } else {
      digest = phases.isEmpty() ? null : phases.get(0).digest;
      for (Phase p : phases) {
        if (!Objects.equals(digest, p.digest)) {
          digest = null;
        }
      }
    }
    long count = 0;
    double total = 0;
    long max = 0;
    for (Phase p : phases) {
      Durations d = p.durationMs;
      if (d != null && d.count != null) {
        count += d.count;
        if (d.mean != null) {
          total += d.mean * d.count;
          max = Math.max(max, d.max == null ? 0 : d.max);
        }
      }
    }
    return new Phase(
        conversations,
        turns,
        digest,
        sum(phases, Phase::completed),
        sum(phases, Phase::endedByContextLimit),
        sum(phases, Phase::endedByError),
        conversations == 0 ? null : Math.round(1000.0 * turns / conversations) / 1000.0,
        count == 0
            ? new Durations(0L, null, null, null, null)
            : new Durations(count, Math.round(total / count * 1000) / 1000.0, null, null, max),
        null);
  }

  private static <T> long sum(List<T> items, Function<T, Long> of) {
    long total = 0;
    for (T item : items) {
      Long n = of.apply(item);
      total += n == null ? 0 : n;
    }
    return total;
  }
}
