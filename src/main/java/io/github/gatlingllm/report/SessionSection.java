package io.github.gatlingllm.report;

import io.github.gatlingllm.prompt.Phase;
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
   * @param run the run record
   * @param turns the run's measured agent turns ({@code new ConversationSection.Turns(true)})
   * @return the HTML, empty when the run has no agent sessions
   */
  static String render(Map<String, Object> run, ConversationSection.Turns turns) {
    if (!(run.get("sessions") instanceof List<?> workloads) || workloads.isEmpty()) {
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
    for (Object o : workloads) {
      if (!(o instanceof Map<?, ?> w)) {
        continue;
      }
      Map<?, ?> m = RunSentences.map(w.get(Phase.MEASURED.wireName()));
      Map<?, ?> ends = RunSentences.map(m.get("ended"));
      Map<?, ?> requests = RunSentences.map(m.get("requests_per_session"));
      Map<?, ?> d = RunSentences.map(m.get("duration_ms"));
      Map<?, ?> ratio = RunSentences.map(m.get("cache_hit_ratio"));
      html.append("<tr><td class=\"l\">").append(ReportPage.esc(w.get("workload"))).append("</td>");
      for (Object v :
          new Object[] {
            m.get("count"),
            ends.get("completed"),
            ends.get("loop_limit"),
            ends.get("context_limit"),
            ends.get("error"),
            w.get("turns_sent"),
            requests.get("mean"),
            m.get("tool_calls"),
            m.get("malformed_tool_calls"),
            d.get("p50"),
            d.get("p90"),
            d.get("max"),
            m.get("sessions_per_hour"),
            RunSentences.map(ratio.get("planned")).get("mean"),
            RunSentences.map(ratio.get("observed")).get("mean")
          }) {
        html.append("<td>").append(ReportPage.num(v)).append("</td>");
      }
      html.append("</tr>\n");
    }
    html.append("</table>\n");
    html.append(turns.render());
    return html.toString();
  }
}
