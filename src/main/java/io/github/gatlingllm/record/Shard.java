package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/**
 * The run record's {@code shard}: which shard of a test run on several machines a run was ({@code
 * llm.shard}, or {@code JOB_COMPLETION_INDEX} with {@code llm.shards}), so that it sent the request
 * indices {@code index, index + count, ...} of each phase; and its start barrier. Written by the
 * run info at the run's start; read by the merge of run folders ({@code bin/gatling-llm report A
 * B}), which drops it from the merged record. Every field is left out when null; keys this version
 * does not know are kept in {@link #extra}.
 *
 * @param index this shard, from 0, or null when the file has none
 * @param count the number of shards, or null when the file has none
 * @param startAt the start barrier {@code llm.startAt}, an ISO-8601 instant, or null
 * @param lateMs how long after the barrier this shard reached it, milliseconds (0 when it waited
 *     for it), or null without a barrier
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"index", "count", "start_at", "late_ms"})
public record Shard(
    Integer index,
    Integer count,
    String startAt,
    Long lateMs,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** The key of the block in {@code llm-run.json}. */
  public static final String KEY = "shard";

  /** Normalises {@code extra} to an ordered map. */
  public Shard {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The shard of a run as its start writes it.
   *
   * @param index this shard, from 0
   * @param count the number of shards, at least 1
   * @param startAt the start barrier, or null
   * @param lateMs how late the shard passed the barrier, milliseconds, or null
   */
  public Shard(int index, int count, String startAt, Long lateMs) {
    this(index, count, startAt, lateMs, null);
  }

  /**
   * Whether the run was one of several shards: a run of one shard (a lone run with a start barrier)
   * is not.
   *
   * @return true when {@code count} is above 1
   */
  public boolean ofSeveral() {
    return count != null && count > 1;
  }

  /**
   * The shard as the merge names it: {@code index/count}, e.g. {@code 0/2}.
   *
   * @return the label
   */
  public String label() {
    return index + "/" + count;
  }
}
