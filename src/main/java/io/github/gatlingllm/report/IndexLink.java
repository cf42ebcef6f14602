package io.github.gatlingllm.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Links {@code llm-report.html} from Gatling's {@code index.html}: an item {@code LLM report} next
 * to Gatling's {@code Global} and {@code Details} tabs.
 *
 * <p>Gatling 3.16 writes {@code index.html} after the simulation's {@code after()}, and offers no
 * hook that runs after its report is generated. {@link #onExit(Path)} therefore registers a JVM
 * shutdown hook: Gatling's launcher (the Maven plugin's forked JVM, or {@code
 * io.gatling.app.Gatling}) exits once the report is written, and the hook then patches the page.
 * {@code bin/gatling-llm report} calls {@link #inject(Path)} again for folders whose link is
 * missing (a run started with {@code -nr}, or from a launcher that keeps its JVM alive).
 */
public final class IndexLink {

  /** Gatling's report page. */
  public static final String INDEX_FILE = "index.html";

  /** The marker that makes injection idempotent. */
  static final String MARKER = "id=\"llm_report_link\"";

  private static final Logger LOG = LoggerFactory.getLogger(IndexLink.class);
  private static final String ITEM =
      "<div class=\"item\"><a "
          + MARKER
          + " href=\""
          + RunRecorder.REPORT_FILE
          + "\" title=\"gatling-llm: TTFT, ITL, TPOT, E2E, goodput\">LLM report</a></div>";

  private IndexLink() {}

  /**
   * Adds the link to a page's HTML, once.
   *
   * @param html Gatling's {@code index.html}
   * @return the page with the link: after the {@code Details} tab when there is one, else first in
   *     the tab bar, else as a fixed box before {@code </body>}; unchanged when the link is there
   *     or no place was found
   */
  static String withLink(String html) {
    if (html.contains(MARKER)) {
      return html;
    }
    int details = html.indexOf("id=\"details_link\"");
    if (details >= 0) {
      int close = html.indexOf("</div>", details);
      if (close >= 0) {
        int at = close + "</div>".length();
        return html.substring(0, at) + " " + ITEM + html.substring(at);
      }
    }
    String spacer = "<div class=\"sous-menu-spacer\">";
    int menu = html.indexOf(spacer);
    if (menu >= 0) {
      int at = menu + spacer.length();
      return html.substring(0, at) + ITEM + html.substring(at);
    }
    int body = html.lastIndexOf("</body>");
    if (body >= 0) {
      return html.substring(0, body)
          + "<div style=\"position:fixed;top:8px;right:8px;z-index:1000;background:#fff;"
          + "padding:4px 8px;border:1px solid #ccc\">"
          + ITEM
          + "</div>"
          + html.substring(body);
    }
    return html;
  }

  /**
   * Adds the link to a run folder's {@code index.html}, if that page exists and lacks it.
   *
   * @param runFolder the run folder
   * @return true when the page holds the link afterwards
   * @throws IOException if the page cannot be read or written
   */
  public static boolean inject(Path runFolder) throws IOException {
    Path index = runFolder.resolve(INDEX_FILE);
    if (!Files.isRegularFile(index)) {
      return false;
    }
    String html = Files.readString(index, StandardCharsets.UTF_8);
    String linked = withLink(html);
    if (linked.equals(html)) {
      return html.contains(MARKER);
    }
    Path tmp = runFolder.resolve(INDEX_FILE + ".llm-tmp");
    Files.writeString(tmp, linked, StandardCharsets.UTF_8);
    Files.move(tmp, index, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return true;
  }

  /**
   * Injects the link when the JVM exits, after Gatling has written its report.
   *
   * @param runFolder the run folder
   */
  public static void onExit(Path runFolder) {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    if (!inject(runFolder)) {
                      LOG.warn(
                          "no Gatling index.html in {} to link the LLM report from", runFolder);
                    }
                  } catch (IOException | RuntimeException e) {
                    LOG.warn("could not link the LLM report from index.html: {}", e.toString());
                  }
                },
                "gatling-llm-index-link"));
    LOG.debug("the LLM report is linked from {} at exit", runFolder.resolve(INDEX_FILE));
  }
}
