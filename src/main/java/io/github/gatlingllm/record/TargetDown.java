package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/**
 * The run record's {@code target_down}: the target stopped answering (a streak of connect errors or
 * server errors with none served), written by {@code protocol.TargetWatch} at the run's end when it
 * happened at least once. Every field is written, null or not (as {@code back_at} of a target that
 * never came back); keys of newer versions are kept in {@link #extra} and written after the others.
 *
 * @param at when the streak was called a down target, ISO-8601 instant
 * @param since when the streak began, ISO-8601 instant
 * @param afterRunStartS seconds from the run's start to {@code at}, to 0.1 s
 * @param connectErrors the streak's errors when it was called
 * @param error the last error's text, one line
 * @param stopped whether the run was stopped for it ({@code llm.stopWhenTargetDown})
 * @param backAt when the target answered again, ISO-8601 instant, or null when it never did
 * @param episodes how many times the target went down
 * @param failedRequests requests that failed to connect or got a server error while it was down
 * @param message the console's line, e.g. {@code TARGET DOWN at 12:03:17 (17.2 s into the run):
 *     ...}
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
  "at",
  "since",
  "after_run_start_s",
  "connect_errors",
  "error",
  "stopped",
  "back_at",
  "episodes",
  "failed_requests",
  "message"
})
public record TargetDown(
    String at,
    String since,
    Double afterRunStartS,
    Integer connectErrors,
    String error,
    Boolean stopped,
    String backAt,
    Integer episodes,
    Long failedRequests,
    String message,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** Normalises {@code extra} to an ordered map. */
  public TargetDown {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The block as this version writes it.
   *
   * @param at when the target was called down, ISO-8601
   * @param since when the streak began, ISO-8601
   * @param afterRunStartS seconds into the run, to 0.1 s
   * @param connectErrors the streak's errors
   * @param error the last error, one line
   * @param stopped whether the run was stopped for it
   * @param backAt when it answered again, or null
   * @param episodes how many times it went down
   * @param failedRequests requests failed while down
   * @param message the console's line
   */
  public TargetDown(
      String at,
      String since,
      double afterRunStartS,
      int connectErrors,
      String error,
      boolean stopped,
      String backAt,
      int episodes,
      long failedRequests,
      String message) {
    this(
        at,
        since,
        afterRunStartS,
        connectErrors,
        error,
        stopped,
        backAt,
        episodes,
        failedRequests,
        message,
        null);
  }
}
