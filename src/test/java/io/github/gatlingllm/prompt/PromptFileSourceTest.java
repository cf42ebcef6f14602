package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A prompts file as a prompt source: order, warmup rows, wrap, digests and counts. */
class PromptFileSourceTest {

  @TempDir Path dir;

  private PromptFile file;

  @BeforeEach
  void write() throws IOException {
    Path path =
        Files.writeString(
            dir.resolve("p.jsonl"),
            "{\"prompt\": \"zero\"}\n"
                + "{\"prompt\": \"one two\"}\n"
                + "{\"prompt\": \"two three four\", \"output_tokens\": 9}\n"
                + "{\"messages\": [{\"role\": \"user\", \"content\": \"three a b\"}]}\n"
                + "{\"prompt\": \"four\"}\n",
            StandardCharsets.UTF_8);
    file = PromptFile.read(path, null);
  }

  private PromptSource source(String phase, boolean shuffle, boolean wrap) {
    return PromptSource.ofFile(
        file, EstimatedTokenCounter.INSTANCE, 0, "p.jsonl", phase, shuffle, wrap);
  }

  @Test
  void measuredRequestsSendTheRowsInFileOrder() {
    PromptSource s = source("measured", false, false);

    assertEquals(
        List.of(0, 1, 2, 3, 4),
        List.of(s.fileRow(0), s.fileRow(1), s.fileRow(2), s.fileRow(3), s.fileRow(4)));
    assertEquals("one two", s.prompt(1).text());
    assertEquals("row-1", s.prompt(1).promptId());
  }

  @Test
  void warmupRequestsSendTheRowsFromTheEnd() {
    PromptSource s = source("warmup", false, false);

    assertEquals(List.of(4, 3), List.of(s.fileRow(0), s.fileRow(1)));
  }

  @Test
  void aDigestIsTheSha256OfTheText() {
    // printf 'one two' | sha256sum: 8ab63e29a4ba14e4e1688f9c15e5af90...
    assertEquals("8ab63e29a4ba14e4", source("measured", false, false).prompt(1).digest());
  }

  @Test
  void thePhaseDigestIsOverTheDigestsInIndexOrder() {
    PromptSource s = source("measured", false, false);
    List<String> digests = new ArrayList<>();
    for (long i = 2; i >= 0; i--) {
      s.take(i);
      s.forget(i);
    }
    for (String text : List.of("zero", "one two", "two three four")) {
      digests.add(Prompt.digestOf(text));
    }

    assertEquals(Prompt.digestOf(String.join("\n", digests)), s.digest());
    assertEquals(3, s.handedOut());
  }

  @Test
  void aTextRowCountsItsTextAndAMessagesRowItsContents() {
    PromptSource s = source("measured", false, false);

    assertEquals(3, s.prompt(2).plannedCount().value());
    assertEquals(9, s.prompt(2).maxTokens());
    assertNull(s.prompt(2).messages());
    assertEquals(3, s.prompt(3).plannedCount().value());
    assertEquals("[{\"role\":\"user\",\"content\":\"three a b\"}]", s.prompt(3).text());
    assertEquals(List.of(new PromptFile.Message("user", "three a b")), s.prompt(3).messages());
  }

  @Test
  void aShuffleIsSeededAndCoversEveryRowOnce() {
    PromptSource a = source("measured", true, false);
    PromptSource b = source("measured", true, false);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      order.add(a.fileRow(i));
      assertEquals(a.fileRow(i), b.fileRow(i));
    }

    // Fisher-Yates over java.util.Random(0): the same on every JVM.
    assertEquals(List.of(4, 2, 1, 3, 0), order);
  }

  @Test
  void anotherSeedGivesAnotherOrder() {
    PromptSource s =
        PromptSource.ofFile(
            file, EstimatedTokenCounter.INSTANCE, 7, "p.jsonl", "measured", true, false);

    assertEquals(
        List.of(4, 3, 0, 2, 1),
        List.of(s.fileRow(0), s.fileRow(1), s.fileRow(2), s.fileRow(3), s.fileRow(4)));
  }

  @Test
  void wrapStartsAgainFromTheFirstRow() {
    PromptSource s = source("measured", false, true);

    assertEquals(List.of(4, 0, 1), List.of(s.fileRow(4), s.fileRow(5), s.fileRow(6)));
  }

  @Test
  void withoutWrapAnIndexPastTheEndIsRefused() {
    PromptSource s = source("measured", false, false);

    assertEquals(
        "prompts file "
            + file.path()
            + ": request index 5 of phase measured is past its 5 rows, expected fewer requests or"
            + " wrap-around",
        assertThrows(IllegalArgumentException.class, () -> s.fileRow(5)).getMessage());
  }

  @Test
  void theSpecRecordNamesTheFileItsHashAndOrder() {
    assertEquals(
        "{mode=file, file="
            + file.path()
            + ", format=jsonl, sha256="
            + file.sha256()
            + ", rows=5, order=shuffle, wrap=true}",
        source("measured", true, true).specRecord().toString());
  }
}
