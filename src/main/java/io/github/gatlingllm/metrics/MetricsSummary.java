package io.github.gatlingllm.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable snapshot of a {@link MetricsAggregator}: all requests together and each (request
 * name, phase) pair.
 *
 * @param overall every request, {@code request} and {@code phase} null
 * @param groups one summary per (request name, phase), sorted by name then phase (null phase
 *     first); unmodifiable
 */
public record MetricsSummary(GroupSummary overall, List<GroupSummary> groups) {

  /**
   * Checks the fields and copies {@code groups}.
   *
   * @throws NullPointerException if an argument or a group is null
   */
  public MetricsSummary {
    Objects.requireNonNull(overall, "overall");
    groups = List.copyOf(groups);
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

  /**
   * The JSON form: {@code {"overall": {...}, "groups": [{...}, ...]}} with {@link
   * GroupSummary#toRecord()} objects.
   *
   * @return an ordered, unmodifiable map of JSON-ready values
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("overall", overall.toRecord());
    List<Object> list = new ArrayList<>(groups.size());
    for (GroupSummary g : groups) {
      list.add(g.toRecord());
    }
    m.put("groups", Collections.unmodifiableList(list));
    return Collections.unmodifiableMap(m);
  }
}
