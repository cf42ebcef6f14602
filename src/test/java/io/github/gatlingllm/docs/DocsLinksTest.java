package io.github.gatlingllm.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and the pages of {@code docs/} link to each other: every relative link names a file
 * that exists and, with a {@code #fragment}, a heading of that page (GitHub's anchors: lower case,
 * punctuation dropped, spaces to hyphens). A page moved or a heading renamed fails here.
 */
class DocsLinksTest {

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);

  @Test
  void everyRelativeLinkResolves() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(Path.of("README.md"));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      String text = Files.readString(page);
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String link = m.group(1);
        if (link.matches("^[a-z]+:.*")) {
          continue;
        }
        int hash = link.indexOf('#');
        String file = hash < 0 ? link : link.substring(0, hash);
        String fragment = hash < 0 ? null : link.substring(hash + 1);
        Path target = file.isEmpty() ? page : page.resolveSibling(file).normalize();
        if (!Files.exists(target)) {
          broken.add(page + ": " + link + " (no file " + target + ")");
          continue;
        }
        if (fragment != null && !anchors(target).contains(fragment)) {
          broken.add(page + ": " + link + " (no heading #" + fragment + " in " + target + ")");
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  @Test
  void anchorsFollowGitHubsRules() {
    assertEquals("bingatling-llm-report", anchor("`bin/gatling-llm report`"));
    assertEquals("does-the-client-keep-up", anchor("Does the client keep up?"));
    assertEquals(
        "how-a-run-ended-and-the-requests-it-cut",
        anchor("How a run ended, and the requests it cut"));
  }

  @Test
  void theReadmeIsAFrontPage() throws IOException {
    long lines = Files.readAllLines(Path.of("README.md")).size();
    assertTrue(lines <= 250, "README.md has " + lines + " lines; the guide belongs in docs/");
  }

  private static Set<String> anchors(Path page) throws IOException {
    Set<String> out = new HashSet<>();
    if (!page.toString().endsWith(".md")) {
      return out;
    }
    Matcher m = HEADING.matcher(Files.readString(page));
    while (m.find()) {
      out.add(anchor(m.group(1)));
    }
    return out;
  }

  private static String anchor(String heading) {
    return heading
        .strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N}\\- _]", "")
        .replace(' ', '-');
  }
}
