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
 * names it occurred on, the most frequent first, at most {@value #MAX_ROWS} rows. Requests cut by
 * the run's end ({@code cut_by_run_end}: still in flight when the run stopped) did not fail: they
 * are counted apart, in a line after the table.
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
   * The failed requests grouped by message and status, the most frequent first (ties by message);
   * neither {@code ok} nor {@code cut_by_run_end} requests are failed ones.
   *
   * @param rs the requests, any order
   * @return the rows, every one of them
   */
  static List<Row> rows(List<RequestRecord> rs) {
    Collector c = new Collector();
    rs.forEach(c::add);
    return c.rows();
  }

  /** The rows, a request at a time: a count and the request names per distinct message. */
  static final class Collector {
    private final Map<List<String>, long[]> counts = new LinkedHashMap<>();
    private final Map<List<String>, TreeSet<String>> names = new LinkedHashMap<>();
    private final TreeSet<String> cutReasons = new TreeSet<>();
    private long cut;

    /** Adds a request. */
    void add(RequestRecord r) {
      if (r.status() == RequestStatus.CUT_BY_RUN_END) {
        cut++;
        cutReasons.add(r.error() == null ? r.status().wireName() : r.error());
        return;
      }
      if (r.status() == RequestStatus.OK || r.status() == RequestStatus.CANCELLED) {
        // a cancelled request is the client's doing, not a failure
        return;
      }
      String message = r.error() == null ? r.status().wireName() : r.error();
      List<String> key = List.of(message, r.status().wireName());
      counts.computeIfAbsent(key, k -> new long[1])[0]++;
      names.computeIfAbsent(key, k -> new TreeSet<>()).add(r.request());
    }

    /** The line on requests cut by the run's end, or null when none was ({@link #cutLine}). */
    String cutLine(String which) {
      return ErrorsSection.cutLine(cut, cutReasons, which);
    }

    /** The rows, the most frequent first. */
    List<Row> rows() {
      return ErrorsSection.rows(counts, names);
    }
  }

  private static List<Row> rows(
      Map<List<String>, long[]> counts, Map<List<String>, TreeSet<String>> names) {
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
   * The line on requests cut by the run's end, which did not fail: their count and the distinct
   * reasons they were cut.
   *
   * @param rs the requests, any order
   * @param which which requests those are, e.g. {@code requests outside warmup}
   * @return e.g. {@code 12 requests outside warmup were cut by the run's end, not failed: still in
   *     flight when the run ended (saturation_stop), recorded with what was measured until then},
   *     or null when none was cut
   */
  static String cutLine(List<RequestRecord> rs, String which) {
    Collector c = new Collector();
    rs.forEach(c::add);
    return c.cutLine(which);
  }

  private static String cutLine(long cut, TreeSet<String> reasons, String which) {
    if (cut == 0) {
      return null;
    }
    return cut
        + " "
        + (cut == 1 ? which.replaceFirst("^requests", "request") + " was" : which + " were")
        + " cut by the run's end, not failed: "
        + String.join("; ", reasons)
        + ", recorded with what was measured until then";
  }

  /**
   * The section.
   *
   * @param rs the requests the charts cover
   * @param which which requests those are, e.g. {@code requests outside warmup}
   * @return the HTML: the table, or a line saying no request failed, then the line on requests cut
   *     by the run's end when there are any
   */
  static String render(List<RequestRecord> rs, String which) {
    Collector c = new Collector();
    rs.forEach(c::add);
    return renderRows(c.rows(), c.cutLine(which), which);
  }

  /**
   * The section.
   *
   * @param rows the rows ({@link Collector})
   * @param cut the line on requests cut by the run's end ({@link Collector#cutLine}), or null
   * @param which which requests those are, e.g. {@code requests outside warmup}
   * @return the HTML: the table, or a line saying no request failed, then the line on requests cut
   *     by the run's end when there are any
   */
  static String renderRows(List<Row> rows, String cut, String which) {
    StringBuilder html = new StringBuilder("<h2 id=\"errors\">Errors</h2>\n");
    if (rows.isEmpty()) {
      html.append("<p>No request failed (").append(which).append(").</p>\n");
      return cut == null ? html.toString() : html.append(cutParagraph(cut)).toString();
    }
    long failed = rows.stream().mapToLong(Row::count).sum();
    // Failures in red: the count line and every row of the table.
    html.append("<p class=\"bad\"><strong>")
        .append(failed)
        .append(" failed ")
        .append(failed == 1 ? which.replaceFirst("^requests", "request") : which)
        .append("</strong>, by error message.</p>\n")
        .append(
            "<table id=\"errors-table\" class=\"bad\"><tr><th>requests</th><th class=\"l\">status</th>")
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
    html.append("</table>\n");
    return cut == null ? html.toString() : html.append(cutParagraph(cut)).toString();
  }

  private static String cutParagraph(String cut) {
    return "<p id=\"cut-requests\">" + ReportPage.esc(cut) + ".</p>\n";
  }
}
