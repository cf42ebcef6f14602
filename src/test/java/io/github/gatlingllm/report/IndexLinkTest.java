package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexLinkTest {

  private static final String ITEM =
      "<div class=\"item\"><a id=\"llm_report_link\" href=\"llm-report.html\""
          + " title=\"gatling-llm: TTFT, ITL, TPOT, E2E, goodput\">LLM report</a></div>";

  /** The tab bar as Gatling 3.16 writes it. */
  private static final String GATLING =
      "<div class=\"sous-menu-spacer\"> <div class=\"item ouvert\"><a href=\"index.html\">Global</a>"
          + "</div> <div class=\"item\"><a id=\"details_link\" href=\"req_chat.html\">Details</a>"
          + "</div> </div>";

  @TempDir Path dir;

  @Test
  void addsATabAfterDetails() {
    assertEquals(
        "<div class=\"sous-menu-spacer\"> <div class=\"item ouvert\"><a href=\"index.html\">Global</a>"
            + "</div> <div class=\"item\"><a id=\"details_link\" href=\"req_chat.html\">Details</a>"
            + "</div> "
            + ITEM
            + " </div>",
        IndexLink.withLink(GATLING));
  }

  @Test
  void addsItOnce() {
    String once = IndexLink.withLink(GATLING);
    assertEquals(once, IndexLink.withLink(once));
  }

  @Test
  void withoutGatlingsTabsABoxBeforeTheEndOfTheBody() {
    assertEquals(
        "<body><p>x</p><div style=\"position:fixed;top:8px;right:8px;z-index:1000;"
            + "background:#fff;padding:4px 8px;border:1px solid #ccc\">"
            + ITEM
            + "</div></body>",
        IndexLink.withLink("<body><p>x</p></body>"));
  }

  @Test
  void patchesTheFileInPlace() throws Exception {
    Files.writeString(dir.resolve("index.html"), "<html><body>" + GATLING + "</body></html>");
    assertTrue(IndexLink.inject(dir));
    assertTrue(Files.readString(dir.resolve("index.html")).contains(ITEM));
    assertTrue(IndexLink.inject(dir));
    assertEquals(
        1, Files.readString(dir.resolve("index.html")).split("llm_report_link").length - 1);
  }

  @Test
  void noIndexNoLink() throws Exception {
    assertFalse(IndexLink.inject(dir));
  }
}
