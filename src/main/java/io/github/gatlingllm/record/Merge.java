package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * What a merge of several run folders ({@code bin/gatling-llm report A B ...}) adds to the merged
 * run record: {@code merged_from} (the folders, as given), {@code shards} (each folder's counts,
 * window and own {@code client}) and {@code merge_warnings} (windows that do not overlap, settings
 * that differ, missing or repeated shards and indices). They are three top-level keys of {@code
 * llm-run.json}, each typed in {@code RunRecord.BLOCKS}; this value reads them together.
 *
 * @param mergedFrom the folders, as given, in order, or null when the file has none
 * @param shards each folder's entry, in the same order, or null when the file has none
 * @param warnings what the merge found amiss, one line each, or null when the file has none
 */
public record Merge(List<String> mergedFrom, List<Folder> shards, List<String> warnings) {

  /** The key of the folders in {@code llm-run.json}. */
  public static final String MERGED_FROM_KEY = "merged_from";

  /** The key of the folders' entries. */
  public static final String SHARDS_KEY = "shards";

  /** The key of the warnings. */
  public static final String WARNINGS_KEY = "merge_warnings";

  /**
   * One folder of a merge, as {@code shards[]} holds it. {@code late_ms} and {@code client} are
   * left out when null; the other fields are written even when null. Keys this version does not
   * know are kept in {@link #extra}.
   *
   * @param folder the folder, as given
   * @param shard {@code index/count} when the folder was one of several shards of one test, else
   *     null
   * @param requestsRecorded its request lines
   * @param measured its requests outside warmup
   * @param warmup its warmup requests
   * @param ok its requests with status {@code ok}
   * @param firstStart its first request's start, an ISO-8601 instant, or null without requests
   * @param lastEnd its last request's end (start plus E2E, or the start when unmeasured), an
   *     ISO-8601 instant, or null without requests
   * @param lateMs how late the shard passed its start barrier, milliseconds, or null
   * @param interrupted whether its run was interrupted
   * @param client its own {@code client} (its CPU share is its machine's), or null when it has none
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "folder",
    "shard",
    "requests_recorded",
    "measured",
    "warmup",
    "ok",
    "first_start",
    "last_end",
    "late_ms",
    "interrupted",
    "client"
  })
  public record Folder(
      String folder,
      String shard,
      long requestsRecorded,
      long measured,
      long warmup,
      long ok,
      String firstStart,
      String lastEnd,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long lateMs,
      boolean interrupted,
      @JsonInclude(JsonInclude.Include.NON_NULL) ClientSummary client,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Folder {
      extra = KeepsNewerKeys.ordered(extra);
    }
  }
}
