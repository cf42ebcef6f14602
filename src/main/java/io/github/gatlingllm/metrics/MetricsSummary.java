package io.github.gatlingllm.metrics;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * An immutable snapshot of a {@link MetricsAggregator}: all requests together and each (request
 * name, phase) pair.
 *
 * <p>Its JSON form in {@code llm-run.json}'s {@code metrics}, written and read by Jackson: {@code
 * {"overall": {...}, "groups": [{...}, ...]}}, each a {@link GroupSummary.Json}.
 *
 * @param overall every request, {@code request} and {@code phase} null
 * @param groups one summary per (request name, phase), sorted by name then phase (null phase
 *     first); unmodifiable
 */
@JsonPropertyOrder({"overall", "groups"})
@JsonIgnoreProperties(ignoreUnknown = true)
public record MetricsSummary(GroupSummary overall, List<GroupSummary> groups) {

  /**
   * Checks the fields and copies {@code groups}.
   *
   * @throws NullPointerException if an argument or a group is null
   */
  public MetricsSummary {
    Objects.requireNonNull(overall, "overall");
    groups = groups == null ? List.of() : List.copyOf(groups);
  }

  /**
   * Reads the JSON form. A record without {@code overall} (only hand-made ones) reads as one with
   * {@link GroupSummary#EMPTY} there.
   *
   * @param overall every request, or null
   * @param groups the groups, or null for none
   * @return the summary
   */
  @JsonCreator
  public static MetricsSummary of(
      @JsonProperty("overall") GroupSummary overall,
      @JsonProperty("groups") List<GroupSummary> groups) {
    return new MetricsSummary(overall == null ? GroupSummary.EMPTY : overall, groups);
  }

  /**
   * The summary of one group.
   *
   * @param request the request name
   * @param phase the phase, or null
   * @return the group's summary, or null if no request of that group was added
   */
  public GroupSummary group(String request, String phase) {
    for (GroupSummary g : groups) {
      if (Objects.equals(g.request(), request) && Objects.equals(g.phase(), phase)) {
        return g;
      }
    }
    return null;
  }
}
