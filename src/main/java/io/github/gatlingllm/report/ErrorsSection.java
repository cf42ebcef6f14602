package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The report page's table of failed requests by error message: each distinct message (the request's
 * scrubbed {@code error}, or its status when it has none) with its count, status and the request
 * names it occurred on, the most frequent first, at most {@value #MAX_ROWS} rows.
 */
final class ErrorsSection {

  /** Most rows shown; the rest are counted in a last line. */
  static final int MAX_ROWS = 50;

  private ErrorsSection() {}

  /**
   * One error message and where it occurred.
   *
   * @param message the message, never null
   * @param status the status of its requests
   * @param count how many requests failed with it
   * @param requests the request names it occurred on, sorted
   */
  record Row(String message, String status, long count, List<String> requests) {}

  /**
   * The failed requests grouped by message and status, the most frequent first (ties by message).
   *
   * @param rs the requests, any order
   * @return the rows, every one of them
   */
  static List<Row> rows(List<RequestRecord> rs) {
    Map<List<String>, long[]> counts = new LinkedHashMap<>();
    Map<List<String>, TreeSet<String>> names = new LinkedHashMap<>();
    for (RequestRecord r : rs) {
      if (r.status() == RequestStatus.OK || r.status() == RequestStatus.CANCELLED) {
        // a cancelled request is the client's doing, not a failure
        continue;
      }
      String message = r.error() == null ? r.status().wireName() : r.error();
      List<String> key = List.of(message, r.status().wireName());
      counts.computeIfAbsent(key, k -> new long[1])[0]++;
      names.computeIfAbsent(key, k -> new TreeSet<>()).add(r.request());
    }
    List<Row> rows = new ArrayList<>();
    counts.forEach(
        (k, c) -> rows.add(new Row(k.get(0), k.get(1), c[0], List.copyOf(names.get(k)))));
    rows.sort(
        Comparator.comparingLong(Row::count)
            .reversed()
            .thenComparing(Row::message)
            .thenComparing(Row::status));
    return rows;
  }

  /**
   * The section.
   *
   * @param rs the requests the charts cover
   * @param which which requests those are, e.g. {@code requests outside warmup}
   * @return the HTML: the table, or a line saying no request failed
   */
  static String render(List<RequestRecord> rs, String which) {
    List<Row> rows = rows(rs);
    StringBuilder html = new StringBuilder("<h2 id=\"errors\">Errors</h2>\n");
    if (rows.isEmpty()) {
      return html.append("<p>No request failed (").append(which).append(").</p>\n").toString();
    }
    long failed = rows.stream().mapToLong(Row::count).sum();
    html.append("<p>")
        .append(failed)
        .append(" failed ")
        .append(which)
        .append(", by error message.</p>\n")
        .append("<table id=\"errors-table\"><tr><th>requests</th><th class=\"l\">status</th>")
        .append("<th class=\"l\">error</th><th class=\"l\">request names</th></tr>\n");
    for (Row row : rows.subList(0, Math.min(MAX_ROWS, rows.size()))) {
      html.append("<tr><td>")
          .append(row.count())
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(row.status()))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(row.message()))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(String.join(", ", row.requests())))
          .append("</td></tr>\n");
    }
    if (rows.size() > MAX_ROWS) {
      long rest = rows.subList(MAX_ROWS, rows.size()).stream().mapToLong(Row::count).sum();
      html.append("<tr><td>")
          .append(rest)
          .append("</td><td class=\"l\" colspan=\"3\">")
          .append(rows.size() - MAX_ROWS)
          .append(" other messages</td></tr>\n");
    }
    return html.append("</table>\n").toString();
  }
}
