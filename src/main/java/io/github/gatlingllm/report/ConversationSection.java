package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.stats.ValueCounts;
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
   * @param workloads the run record's {@code conversations}, or null
   * @param requests the run's requests, any order
   * @return the HTML, empty when the run has no conversations
   */
  static String render(List<Conversations> workloads, List<RequestRecord> requests) {
    Turns turns = new Turns();
    requests.forEach(turns::add);
    return render(workloads, turns);
  }

  /**
   * The section.
   *
   * @param workloads the run record's {@code conversations}, or null
   * @param turns the run's measured turns
   * @return the HTML, empty when the run has no conversations
   */
  static String render(List<Conversations> workloads, Turns turns) {
    if (workloads == null || workloads.isEmpty()) {
      return "";
    }
    StringBuilder html = new StringBuilder("<h2>Conversations</h2>\n");
    html.append(
        "<table>\n<tr><th class=\"l\">workload</th><th>conversations</th><th>completed</th>"
            + "<th>ended by context limit</th><th>ended by error</th><th>unfinished</th>"
            + "<th>turns</th><th>turns per conversation</th><th>duration p50 ms</th>"
            + "<th>duration p90 ms</th><th>duration max ms</th><th class=\"l\">digest</th></tr>\n");
    for (Conversations w : workloads) {
      Conversations.Phase m = w.measured();
      Conversations.Durations d = m == null ? null : m.durationMs();
      html.append("<tr><td class=\"l\">").append(ReportPage.esc(w.workload())).append("</td>");
      for (Object v :
          new Object[] {
            m == null ? null : m.conversations(),
            m == null ? null : m.completed(),
            m == null ? null : m.endedByContextLimit(),
            m == null ? null : m.endedByError(),
            w.unfinished(),
            m == null ? null : m.turns(),
            m == null ? null : m.turnsPerConversation(),
            d == null ? null : d.p50(),
            d == null ? null : d.p90(),
            d == null ? null : d.max()
          }) {
        html.append("<td>").append(ReportPage.num(v)).append("</td>");
      }
      html.append("<td class=\"l\"><code>")
          .append(ReportPage.esc(m == null ? null : m.digest()))
          .append("</code></td></tr>\n");
    }
    html.append("</table>\n");
    html.append(turns.render());
    return html.toString();
  }

  /** The measured turns by turn index. */
  static String byTurn(List<RequestRecord> requests) {
    Turns turns = new Turns();
    requests.forEach(turns::add);
    return turns.render();
  }

  /** One turn index's figures. */
  private static final class Turn {
    long requests;
    long ok;
    final ValueCounts ttft = new ValueCounts(ValueCounts.EXACT_LIMIT, 3, 16);
    long ttftSumUs;
    long prompt;
    long cached;
    long planned;
    int withPrompt;
    int withCached;
    int withPlan;
    final Map<CacheOutcome, Integer> outcomes = new java.util.EnumMap<>(CacheOutcome.class);
  }

  /**
   * The measured turns by turn index, a request at a time: TTFT counted by microsecond ({@link
   * ValueCounts}), sums and counts, nothing kept per request.
   */
  static final class Turns {
    private final Map<Integer, Turn> byTurn = new TreeMap<>();
    private final boolean agents;

    /** The turns of conversations. */
    Turns() {
      this(false);
    }

    /**
     * The turns of conversations, or of agent sessions (records with a {@code session_id}).
     *
     * @param agents true for agent sessions' turns
     */
    Turns(boolean agents) {
      this.agents = agents;
    }

    /** Adds a request (only a measured turn of this kind counts). */
    void add(RequestRecord r) {
      if (r.conversationTurn() == null
          || Phase.isWarmup(r.phase())
          || (r.sessionId() != null) != agents) {
        return;
      }
      Turn t = byTurn.computeIfAbsent(r.conversationTurn().turn(), k -> new Turn());
      t.requests++;
      if (r.status() != RequestStatus.OK) {
        return;
      }
      t.ok++;
      if (r.ttftMs() != null) {
        long us = Math.round(r.ttftMs() * 1000);
        t.ttft.add(us);
        t.ttftSumUs += us;
      }
      if (r.promptTokens() != null) {
        t.prompt += r.promptTokens();
        t.withPrompt++;
        if (r.cachedTokens() != null) {
          t.cached += r.cachedTokens();
          t.withCached++;
        }
      }
      if (r.plannedCachedTokens() != null) {
        t.planned += r.plannedCachedTokens();
        t.withPlan++;
      }
      CacheOutcome c = r.cache();
      if (c != null) {
        t.outcomes.merge(c, 1, Integer::sum);
      }
    }

    /** The table. */
    String render() {
      if (byTurn.isEmpty()) {
        return "<p>No measured turn was recorded.</p>\n";
      }
      StringBuilder html =
          new StringBuilder(
              "<h3>By turn (measured)</h3>\n<p>Turn 1 is cold: only a group system prompt can"
                  + " come from the cache. From turn 2 the prompt starts with the previous turn's"
                  + " prompt and reply, which the plan expects from the cache.</p>\n"
                  + "<table>\n<tr><th>turn</th><th>requests</th><th>ok</th><th>TTFT p50 ms</th>"
                  + "<th>TTFT p90 ms</th><th>TTFT mean ms</th><th>prompt tokens mean</th>"
                  + "<th>cached tokens mean</th><th>planned cached mean</th>"
                  + "<th>cache-hit ratio</th><th class=\"l\">cache outcomes</th></tr>\n");
      for (Map.Entry<Integer, Turn> e : byTurn.entrySet()) {
        Turn t = e.getValue();
        long n = t.ttft.total();
        html.append("<tr><td>")
            .append(e.getKey())
            .append("</td><td>")
            .append(t.requests)
            .append("</td><td>")
            .append(t.ok)
            .append("</td><td>")
            .append(ReportPage.ms(n == 0 ? null : t.ttft.atRank(0.5) / 1000.0))
            .append("</td><td>")
            .append(ReportPage.ms(n == 0 ? null : t.ttft.atRank(0.9) / 1000.0))
            .append("</td><td>")
            .append(ReportPage.ms(n == 0 ? null : Math.round((double) t.ttftSumUs / n) / 1000.0))
            .append("</td><td>")
            .append(
                t.withPrompt == 0 ? "" : ReportPage.num(round1((double) t.prompt / t.withPrompt)))
            .append("</td><td>")
            .append(
                t.withCached == 0 ? "" : ReportPage.num(round1((double) t.cached / t.withCached)))
            .append("</td><td>")
            .append(t.withPlan == 0 ? "" : ReportPage.num(round1((double) t.planned / t.withPlan)))
            .append("</td><td>")
            .append(
                t.withCached == 0 || t.prompt == 0
                    ? ""
                    : ReportPage.num(Math.round(1000.0 * t.cached / t.prompt) / 1000.0))
            .append("</td><td class=\"l\">")
            .append(ReportPage.esc(outcomes(t.outcomes)))
            .append("</td></tr>\n");
      }
      return html.append("</table>\n").toString();
    }
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

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
