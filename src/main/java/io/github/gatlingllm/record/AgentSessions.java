package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One {@code agents()} workload of the run record's {@code sessions} (a list, one per workload, in
 * the order they started): its name, budgets and tool settings, the turns sent, and the per-session
 * figures of each phase ({@link SessionSummary}). Written by {@code feeder.AgentWorkload} at the
 * run's end; {@link #merge} adds up the entries of several run folders.
 *
 * <p>{@code phase_digest} is written even when null; the other fields are never null in today's
 * files and are left out only when a file without them is written again. Keys this version does not
 * know are kept in {@link #extra} and written after the others.
 *
 * @param workload the workload's name
 * @param sessionsBudget the whole test's measured sessions
 * @param warmupSessionsBudget its warmup sessions
 * @param tools the tools a session offers
 * @param toolCallsLimit the most tool-call loops a session runs
 * @param toolChoice the requests' {@code tool_choice}
 * @param turnsSent measured turns sent (requests)
 * @param warmupTurnsSent warmup turns sent
 * @param measured the measured sessions' figures
 * @param warmup the warmup sessions' figures
 * @param phaseDigest the measured sessions' digest, or null when none ended
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "workload",
  "sessions_budget",
  "warmup_sessions_budget",
  "tools",
  "tool_calls_limit",
  "tool_choice",
  "turns_sent",
  "warmup_turns_sent",
  "measured",
  "warmup",
  "phase_digest"
})
public record AgentSessions(
    String workload,
    Long sessionsBudget,
    Long warmupSessionsBudget,
    Integer tools,
    Integer toolCallsLimit,
    String toolChoice,
    Long turnsSent,
    Long warmupTurnsSent,
    SessionSummary measured,
    SessionSummary warmup,
    @JsonInclude(JsonInclude.Include.ALWAYS) String phaseDigest,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** The run record's key of the block. */
  public static final String KEY = "sessions";

  /** Normalises {@code extra} to an ordered map. */
  public AgentSessions {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The {@code sessions} of several run folders (the shards of one test, or repeats) as one: per
   * workload, by name in the order the folders first have it, their entries {@linkplain
   * #merge(List, List) merged}.
   *
   * @param runs each folder's {@code sessions}, in order; a null one (no agent sessions) is skipped
   * @param warnings where a phase that could not be merged is said, changed in place
   * @return the merged block, or null when no folder has agent sessions
   */
  public static List<AgentSessions> mergeRuns(
      List<List<AgentSessions>> runs, List<String> warnings) {
    return byWorkload(runs, AgentSessions::workload, (name, entries) -> merge(entries, warnings));
  }

  /**
   * One workload's entries of several run folders as one: the first folder's settings and budgets,
   * {@code turns_sent} and {@code warmup_turns_sent} added up (null when no entry has them), each
   * phase the first folder has merged by {@link SessionSummary#merge}, and {@code phase_digest}
   * kept when every folder has the same, else null (a shard's digest covers its own sessions only).
   * A phase that cannot be merged (a folder's block without {@code merge_state}, recorded before it
   * was) is the first folder's, with a warning saying so.
   *
   * @param entries the workload's entries, in folder order; at least one
   * @param warnings where a phase that could not be merged is said, changed in place
   * @return the merged entry
   */
  public static AgentSessions merge(List<AgentSessions> entries, List<String> warnings) {
    AgentSessions first = entries.get(0);
    String digest = first.phaseDigest;
    for (AgentSessions e : entries) {
      if (!Objects.equals(digest, e.phaseDigest)) {
        digest = null;
      }
    }
    return new AgentSessions(
        first.workload,
        first.sessionsBudget,
        first.warmupSessionsBudget,
        first.tools,
        first.toolCallsLimit,
        first.toolChoice,
        sum(entries, AgentSessions::turnsSent),
        sum(entries, AgentSessions::warmupTurnsSent),
        first.measured == null
            ? null
            : phase(first.workload, "measured", entries, AgentSessions::measured, warnings),
        first.warmup == null
            ? null
            : phase(first.workload, "warmup", entries, AgentSessions::warmup, warnings),
        digest,
        first.extra);
  }

  private static SessionSummary phase(
      String name,
      String phase,
      List<AgentSessions> entries,
      Function<AgentSessions, SessionSummary> of,
      List<String> warnings) {
    List<SessionSummary> blocks = new ArrayList<>();
    for (AgentSessions e : entries) {
      if (of.apply(e) != null) {
        blocks.add(of.apply(e));
      }
    }
    try {
      return SessionSummary.merge(blocks);
    } catch (IllegalArgumentException e) {
      warnings.add(
          "sessions of "
              + name
              + ", "
              + phase
              + ": a folder's figures cannot be merged ("
              + e.getMessage()
              + "): they are the first folder's");
      return of.apply(entries.get(0));
    }
  }

  private static Long sum(List<AgentSessions> entries, Function<AgentSessions, Long> of) {
    long total = 0;
    boolean any = false;
    for (AgentSessions e : entries) {
      if (of.apply(e) != null) {
        total += of.apply(e);
        any = true;
      }
    }
    return any ? total : null;
  }

  /**
   * Entries of several run folders grouped by workload name (in the order the folders first have
   * it), each group merged.
   *
   * @return the merged entries, or null when no folder has any
   */
  static <T> List<T> byWorkload(
      List<List<T>> runs, Function<T, String> name, BiFunction<String, List<T>, T> merge) {
    Map<String, List<T>> groups = new LinkedHashMap<>();
    for (List<T> run : runs) {
      if (run != null) {
        for (T entry : run) {
          groups
              .computeIfAbsent(String.valueOf(name.apply(entry)), k -> new ArrayList<>())
              .add(entry);
        }
      }
    }
    if (groups.isEmpty()) {
      return null;
    }
    List<T> merged = new ArrayList<>();
    groups.forEach((key, entries) -> merged.add(merge.apply(key, entries)));
    return merged;
  }
}
