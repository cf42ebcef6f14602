package io.github.gatlingllm.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints the size of the report page of synthetic runs ({@link SyntheticRun}: requests 50 ms apart,
 * two request names, 7 ITLs each) and what it is made of: the inlined uPlot and chart script, the
 * charts' JSON, the rest (tables and the embedded run record), and the render time. Run: {@code
 * ./mvnw -B -o -q test-compile && java -cp target/test-classes:target/classes:$(cat
 * target/runtime-classpath.txt) io.github.gatlingllm.report.ReportPageSize [N ...] [--write DIR]}
 * (default 1,000 and 100,000 requests); {@code --write} keeps each page as {@code
 * DIR/llm-report-N.html}.
 */
public final class ReportPageSize {

  private ReportPageSize() {}

  /**
   * Measures.
   *
   * @param args request counts, then optionally {@code --write DIR}
   * @throws IOException if a page cannot be written
   */
  public static void main(String[] args) throws IOException {
    Path write = null;
    java.util.List<Long> counts = new java.util.ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if ("--write".equals(args[i])) {
        write = Path.of(args[++i]);
      } else {
        counts.add(Long.parseLong(args[i]));
      }
    }
    if (counts.isEmpty()) {
      counts = java.util.List.of(1_000L, 100_000L);
    }
    int assets = Charts.assets().getBytes(StandardCharsets.UTF_8).length;
    System.out.printf(
        Locale.ROOT,
        "%10s %10s %12s %12s %12s %12s %10s%n",
        "requests",
        "span s",
        "page bytes",
        "uPlot+script",
        "chart JSON",
        "rest",
        "render ms");
    for (long n : counts) {
      SyntheticRun s = SyntheticRun.of(n);
      ReportPage.render(s.run, s.requests); // warm up
      long t = System.nanoTime();
      String html = ReportPage.render(s.run, s.requests);
      long ms = (System.nanoTime() - t) / 1_000_000;
      int page = html.getBytes(StandardCharsets.UTF_8).length;
      int json = 0;
      Matcher m =
          Pattern.compile("<script type=\"application/json\">(.*?)</script>", Pattern.DOTALL)
              .matcher(html);
      while (m.find()) {
        json += m.group(1).getBytes(StandardCharsets.UTF_8).length;
      }
      System.out.printf(
          Locale.ROOT,
          "%10d %10.0f %12d %12d %12d %12d %10d%n",
          n,
          n * 50 / 1000.0,
          page,
          assets,
          json,
          page - assets - json,
          ms);
      if (write != null) {
        Files.createDirectories(write);
        Files.writeString(write.resolve("llm-report-" + n + ".html"), html);
      }
    }
  }
}
