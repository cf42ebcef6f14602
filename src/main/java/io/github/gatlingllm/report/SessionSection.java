package io.github.gatlingllm.report;

import io.github.gatlingllm.record.AgentSessions;
import io.github.gatlingllm.record.SessionSummary;
import io.github.gatlingllm.session.SessionEnd;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Not API. The report page's agent sessions (issue 32): per {@code agents()} workload of the run
 * record's {@code sessions}, the measured sessions and how they ended, requests and duration a
 * session, tool calls and the cache hit ratio a session planned and observed; then the measured
 * turns by turn index (TTFT, prompt and cached tokens, cache outcomes) as conversations show
 * theirs.
 */
final class SessionSection {

  private SessionSection() {}

  /**
   * The section.
   *
   * @param workloads the run record's {@code sessions}, or null
   * @param turns the run's measured agent turns ({@code new ConversationSection.Turns(true)})
   * @return the HTML, empty when the run has no agent sessions
   */
  static String render(List<AgentSessions> workloads, ConversationSection.Turns turns) {
    if (workloads == null || workloads.isEmpty()) {
      return "";
    }
    StringBuilder html = new StringBuilder("<h2 id=\"sessions\">Agent sessions</h2>\n");
    html.append(
        "<table>\n<tr><th class=\"l\">workload</th><th>sessions</th><th>completed</th>"
            + "<th>loop limit</th><th>context limit</th><th>error</th><th>turns</th>"
            + "<th>requests per session</th><th>tool calls</th><th>malformed</th>"
            + "<th>duration p50 ms</th><th>duration p90 ms</th><th>duration max ms</th>"
            + "<th>sessions per hour</th><th>cache hit planned</th><th>cache hit observed</th>"
            + "</tr>\n");
    for (AgentSessions w : workloads) {
      SessionSummary m = w.measured();
      Map<String, Long> ends = m == null || m.ended() == null ? Map.of() : m.ended();
      SessionSummary.Spread requests = m == null ? null : m.requestsPerSession();
      SessionSummary.Spread d = m == null ? null : m.durationMs();
      SessionSummary.CacheHitRatio ratio = m == null ? null : m.cacheHitRatio();
      List<Object> cells = new ArrayList<>();
      cells.add(m == null ? null : m.count());
      for (SessionEnd end : SessionEnd.values()) {
        cells.add(ends.get(end.wireName()));
      }
      cells.add(w.turnsSent());
      cells.add(requests == null ? null : requests.mean());
      cells.add(m == null ? null : m.toolCalls());
      cells.add(m == null ? null : m.malformedToolCalls());
      cells.add(d == null ? null : d.p50());
      cells.add(d == null ? null : d.p90());
      cells.add(d == null ? null : d.max());
      cells.add(m == null ? null : m.sessionsPerHour());
      cells.add(ratio == null || ratio.planned() == null ? null : ratio.planned().mean());
      cells.add(ratio == null || ratio.observed() == null ? null : ratio.observed().mean());
      html.append("<tr><td class=\"l\">").append(ReportPage.esc(w.workload())).append("</td>");
      for (Object v : cells) {
        html.append("<td>").append(ReportPage.num(v)).append("</td>");
      }
      html.append("</tr>\n");
    }
    html.append("</table>\n");
    html.append(turns.render());
    return html.toString();
  }
}
