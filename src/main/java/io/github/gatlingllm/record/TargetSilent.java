package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * The run record's {@code target_silent}: streamed requests were in flight and no byte arrived for
 * {@code llm.silentSeconds}, written by {@code protocol.SilenceWatch} at the run's end when it
 * happened at least once. Every field is written; keys of newer versions are kept in {@link #extra}
 * and written after the others.
 *
 * @param silentSeconds {@code llm.silentSeconds}, the silence that counts
 * @param stopped whether the run was stopped for it
 * @param episodeCount how many silences there were (the list keeps the first 100)
 * @param episodes the silences, first first; one still going at the run's end ends {@code run_end}
 * @param message the console's line of the first silence
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"silent_seconds", "stopped", "episode_count", "episodes", "message"})
public record TargetSilent(
    Integer silentSeconds,
    Boolean stopped,
    Integer episodeCount,
    List<Episode> episodes,
    String message,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** Normalises {@code extra} to an ordered map. */
  public TargetSilent {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The block as this version writes it.
   *
   * @param silentSeconds {@code llm.silentSeconds}
   * @param stopped whether the run was stopped for it
   * @param episodeCount how many silences
   * @param episodes the first 100
   * @param message the console's line
   */
  public TargetSilent(
      int silentSeconds,
      boolean stopped,
      int episodeCount,
      List<Episode> episodes,
      String message) {
    this(silentSeconds, stopped, episodeCount, episodes, message, null);
  }

  /**
   * One silence.
   *
   * @param since when the last byte arrived before it, ISO-8601 instant
   * @param at when it was called silent, ISO-8601 instant
   * @param afterRunStartS seconds from the run's start to {@code at}, to 0.1 s
   * @param silentS how long it lasted, seconds to 0.1 s
   * @param inFlight the streamed requests in flight when it was called
   * @param ended how it ended: {@code bytes} (a byte arrived) or {@code run_end}
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"since", "at", "after_run_start_s", "silent_s", "in_flight", "ended"})
  public record Episode(
      String since,
      String at,
      Double afterRunStartS,
      Double silentS,
      Integer inFlight,
      String ended,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Episode {
      extra = KeepsNewerKeys.ordered(extra);
    }

    /**
     * A silence as this version writes it.
     *
     * @param since the last byte before it, ISO-8601
     * @param at when it was called, ISO-8601
     * @param afterRunStartS seconds into the run
     * @param silentS how long, seconds
     * @param inFlight streamed requests in flight
     * @param ended how it ended
     */
    public Episode(
        String since,
        String at,
        double afterRunStartS,
        double silentS,
        int inFlight,
        String ended) {
      this(since, at, afterRunStartS, silentS, inFlight, ended, null);
    }
  }
}
