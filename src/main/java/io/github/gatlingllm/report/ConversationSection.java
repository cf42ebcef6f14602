package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report page's "Conversations" section: per conversation workload, the totals of {@code
 * llm-run.json}'s {@code conversations} (conversations, how they ended, turns, duration, digest),
 * and per turn index, from the measured turns of {@code llm-requests.jsonl}: requests, TTFT (p50,
 * p90, mean), prompt and cached tokens (mean), the cache-hit ratio (cached over prompt tokens) and
 * the cache outcomes against the plan. Turn 1 is cold (only a group system prompt can be cached),
 * later turns find the previous turn's prompt and reply. Plain HTML tables.
 */
final class ConversationSection {

  private ConversationSection() {}

  /**
   * The section.
   *
   * @param run the run record
   * @param requests the run's requests, any order
   * @return the HTML, empty when the run has no conversations
   */
  static String render(Map<String, Object> run, List<RequestRecord> requests) {
    if (!(run.get("conversations") instanceof List<?> workloads) || workloads.isEmpty()) {
      return "";
    }
    StringBuilder html = new StringBuilder("<h2>Conversations</h2>\n");
    html.append(
        "<table>\n<tr><th class=\"l\">workload</th><th>conversations</th><th>completed</th>"
            + "<th>ended by context limit</th><th>ended by error</th><th>unfinished</th>"
            + "<th>turns</th><th>turns per conversation</th><th>duration p50 ms</th>"
            + "<th>duration p90 ms</th><th>duration max ms</th><th class=\"l\">digest</th></tr>\n");
    for (Object o : workloads) {
      if (!(o instanceof Map<?, ?> w)) {
        continue;
      }
      Map<?, ?> phases = w.get("phases") instanceof Map<?, ?> p ? p : Map.of();
      Map<?, ?> m = phases.get("measured") instanceof Map<?, ?> p ? p : Map.of();
      Map<?, ?> d = m.get("duration_ms") instanceof Map<?, ?> p ? p : Map.of();
      html.append("<tr><td class=\"l\">").append(ReportPage.esc(w.get("workload"))).append("</td>");
      for (Object v :
          new Object[] {
            m.get("conversations"),
            m.get("completed"),
            m.get("ended_by_context_limit"),
            m.get("ended_by_error"),
            w.get("unfinished"),
            m.get("turns"),
            m.get("turns_per_conversation"),
            d.get("p50"),
            d.get("p90"),
            d.get("max")
          }) {
        html.append("<td>").append(ReportPage.num(v)).append("</td>");
      }
      html.append("<td class=\"l\"><code>")
          .append(ReportPage.esc(m.get("digest")))
          .append("</code></td></tr>\n");
    }
    html.append("</table>\n");
    html.append(byTurn(requests));
    return html.toString();
  }

  /** The measured turns by turn index. */
  static String byTurn(List<RequestRecord> requests) {
    Map<Integer, List<RequestRecord>> byTurn = new TreeMap<>();
    for (RequestRecord r : requests) {
      if (r.conversationTurn() != null && !MetricsAggregator.WARMUP.equals(r.phase())) {
        byTurn.computeIfAbsent(r.conversationTurn().turn(), t -> new ArrayList<>()).add(r);
      }
    }
    if (byTurn.isEmpty()) {
      return "<p>No measured turn was recorded.</p>\n";
    }
    StringBuilder html =
        new StringBuilder(
            "<h3>By turn (measured)</h3>\n<p>Turn 1 is cold: only a group system prompt can come"
                + " from the cache. From turn 2 the prompt starts with the previous turn's prompt"
                + " and reply, which the plan expects from the cache.</p>\n"
                + "<table>\n<tr><th>turn</th><th>requests</th><th>ok</th><th>TTFT p50 ms</th>"
                + "<th>TTFT p90 ms</th><th>TTFT mean ms</th><th>prompt tokens mean</th>"
                + "<th>cached tokens mean</th><th>planned cached mean</th>"
                + "<th>cache-hit ratio</th><th class=\"l\">cache outcomes</th></tr>\n");
    for (Map.Entry<Integer, List<RequestRecord>> e : byTurn.entrySet()) {
      List<RequestRecord> rs = e.getValue();
      List<Double> ttft = new ArrayList<>();
      long ok = 0;
      long prompt = 0;
      long cached = 0;
      long planned = 0;
      int withPrompt = 0;
      int withCached = 0;
      int withPlan = 0;
      Map<CacheOutcome, Integer> outcomes = new java.util.EnumMap<>(CacheOutcome.class);
      for (RequestRecord r : rs) {
        if (r.status() != RequestStatus.OK) {
          continue;
        }
        ok++;
        if (r.ttftMs() != null) {
          ttft.add(r.ttftMs());
        }
        if (r.promptTokens() != null) {
          prompt += r.promptTokens();
          withPrompt++;
          if (r.cachedTokens() != null) {
            cached += r.cachedTokens();
            withCached++;
          }
        }
        if (r.plannedCachedTokens() != null) {
          planned += r.plannedCachedTokens();
          withPlan++;
        }
        CacheOutcome c = r.cache();
        if (c != null) {
          outcomes.merge(c, 1, Integer::sum);
        }
      }
      ttft.sort(null);
      html.append("<tr><td>")
          .append(e.getKey())
          .append("</td><td>")
          .append(rs.size())
          .append("</td><td>")
          .append(ok)
          .append("</td><td>")
          .append(ReportPage.ms(nearestRank(ttft, 0.5)))
          .append("</td><td>")
          .append(ReportPage.ms(nearestRank(ttft, 0.9)))
          .append("</td><td>")
          .append(ReportPage.ms(mean(ttft)))
          .append("</td><td>")
          .append(withPrompt == 0 ? "" : ReportPage.num(round1((double) prompt / withPrompt)))
          .append("</td><td>")
          .append(withCached == 0 ? "" : ReportPage.num(round1((double) cached / withCached)))
          .append("</td><td>")
          .append(withPlan == 0 ? "" : ReportPage.num(round1((double) planned / withPlan)))
          .append("</td><td>")
          .append(
              withCached == 0 || prompt == 0
                  ? ""
                  : ReportPage.num(Math.round(1000.0 * cached / prompt) / 1000.0))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(outcomes(outcomes)))
          .append("</td></tr>\n");
    }
    return html.append("</table>\n").toString();
  }

  /**
   * Cache outcomes as text, in {@link CacheOutcome} order, e.g. {@code 26 hit, 3 partial, 4 miss};
   * empty for none.
   */
  static String outcomes(Map<CacheOutcome, Integer> counts) {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<CacheOutcome, Integer> e : counts.entrySet()) {
      if (text.length() > 0) {
        text.append(", ");
      }
      text.append(e.getValue()).append(' ').append(e.getKey().wireName().replace('_', ' '));
    }
    return text.toString();
  }

  private static Double nearestRank(List<Double> sorted, double q) {
    if (sorted.isEmpty()) {
      return null;
    }
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  private static Double mean(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return Math.round(sum / values.size() * 1000) / 1000.0;
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
