package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading prompts files: each format, and each bad input refused with one line. */
class PromptFileTest {

  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  private String error(Path file, String column) {
    return assertThrows(IllegalArgumentException.class, () -> PromptFile.read(file, column))
        .getMessage();
  }

  @Test
  void jsonlLinesGivePromptsMessagesAndOutputTokens() throws IOException {
    Path file =
        write(
            "p.jsonl",
            "{\"prompt\": \"Hello there\", \"output_tokens\": 7}\n"
                + "\n"
                + "{\"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"},"
                + " {\"role\": \"user\", \"content\": \"Hi\"}], \"max_tokens\": 3}\n"
                + "{\"prompt\": \"Bye\"}\n");

    PromptFile read = PromptFile.read(file, null);

    assertEquals(PromptFile.Format.JSONL, read.format());
    assertEquals(
        List.of(
            new PromptFile.Row(1, "Hello there", null, 7),
            new PromptFile.Row(
                3,
                "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}]",
                List.of(
                    new PromptFile.Message("system", "Be brief."),
                    new PromptFile.Message("user", "Hi")),
                3),
            new PromptFile.Row(4, "Bye", null, null)),
        read.rows());
    assertNull(read.column());
  }

  @Test
  void sha256IsTheFilesAsSha256sumPrintsIt() throws Exception {
    Path file = write("p.jsonl", "{\"prompt\": \"a\"}\n");

    assertEquals(
        "8a8c2da9cd6156c411e04714ce81cde2425df195083077b23550021445caf826",
        PromptFile.read(file, null).sha256());
  }

  @Test
  void csvReadsTheNamedColumnAndOutputTokens() throws IOException {
    Path file =
        write(
            "p.csv",
            "id,question,output_tokens\n1,\"What is 2+2, exactly?\",5\n2,\"Two\nlines\",\n");

    PromptFile read = PromptFile.read(file, "question");

    assertEquals(
        List.of(
            new PromptFile.Row(2, "What is 2+2, exactly?", null, 5),
            new PromptFile.Row(3, "Two\nlines", null, null)),
        read.rows());
    assertEquals("question", read.column());
  }

  @Test
  void csvDefaultColumnIsPrompt() throws IOException {
    Path file = write("p.csv", "prompt\nfirst\nsecond\n");

    assertEquals(
        List.of("first", "second"),
        PromptFile.read(file, null).rows().stream().map(PromptFile.Row::text).toList());
  }

  @Test
  void shareGptTakesTheFirstHumanTurn() throws IOException {
    Path file =
        write(
            "sharegpt.json",
            "[\n"
                + "  {\"id\": \"a\", \"conversations\": [\n"
                + "    {\"from\": \"system\", \"value\": \"You help.\"},\n"
                + "    {\"from\": \"human\", \"value\": \"First question\"},\n"
                + "    {\"from\": \"gpt\", \"value\": \"An answer\"},\n"
                + "    {\"from\": \"human\", \"value\": \"Second question\"}]},\n"
                + "  {\"conversations\": [{\"from\": \"user\", \"value\": \"Other\"}]},\n"
                + "  {\"prompt\": \"Plain\", \"output_tokens\": 2}\n"
                + "]\n");

    PromptFile read = PromptFile.read(file, null);

    assertEquals(PromptFile.Format.JSON, read.format());
    assertEquals(
        List.of(
            new PromptFile.Row(2, "First question", null, null),
            new PromptFile.Row(7, "Other", null, null),
            new PromptFile.Row(8, "Plain", null, 2)),
        read.rows());
  }

  @Test
  void aMissingFileIsRefused() {
    Path file = dir.resolve("nope.jsonl");

    assertEquals(
        "prompts file " + file + ": does not exist, expected a JSONL, CSV or JSON prompts file",
        error(file, null));
  }

  @Test
  void anEmptyFileIsRefused() throws IOException {
    Path file = write("empty.jsonl", "\n\n");

    assertEquals(
        "prompts file " + file + ": empty, expected at least one prompt", error(file, null));
  }

  @Test
  void aFileThatIsNotUtf8IsRefusedWithItsLine() throws IOException {
    Path file = dir.resolve("latin1.jsonl");
    Files.write(
        file,
        "{\"prompt\": \"ok\"}\n{\"prompt\": \"caf\u00e9\"}\n"
            .getBytes(StandardCharsets.ISO_8859_1));

    assertEquals(
        "prompts file " + file + " line 2: not UTF-8 (byte 0xe9 at offset 32), expected UTF-8 text",
        error(file, null));
  }

  @Test
  void aLineWithoutPromptOrMessagesIsRefused() throws IOException {
    Path file = write("p.jsonl", "{\"prompt\": \"ok\"}\n{\"text\": \"where?\"}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 2: no \"prompt\" (text) or \"messages\" (chat), expected {\"prompt\":"
            + " \"text\"} or {\"messages\": [{\"role\": \"user\", \"content\": \"text\"}]}",
        error(file, null));
  }

  @Test
  void aLineThatIsNotJsonIsRefused() throws IOException {
    Path file = write("p.jsonl", "{\"prompt\": \"ok\"}\nprompt: oops\n");

    String message = error(file, null);

    assertEquals(true, message.startsWith("prompts file " + file + " line 2: not JSON ("), message);
  }

  @Test
  void messagesWithoutTextContentAreRefused() throws IOException {
    Path file =
        write("p.jsonl", "{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": 1}]}]}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: message 0 has no text \"role\" and \"content\", expected \"messages\":"
            + " [{\"role\": \"user\", \"content\": \"text\"}, ...] (text content)",
        error(file, null));
  }

  @Test
  void outputTokensBelowOneAreRefused() throws IOException {
    Path file = write("p.jsonl", "{\"prompt\": \"ok\", \"output_tokens\": 0}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: \"output_tokens\": got 0, expected a whole number >= 1 (the request's"
            + " max_tokens)",
        error(file, null));
  }

  @Test
  void aCsvWithoutTheNamedColumnIsRefused() throws IOException {
    Path file = write("p.csv", "id,text\n1,hello\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: no column \"prompt\" in the header [id, text], expected a header naming"
            + " it (llm.promptsColumn names another)",
        error(file, null));
  }

  @Test
  void aCsvWithAnEmptyPromptCellIsRefused() throws IOException {
    Path file = write("p.csv", "prompt,id\nhello,1\n,2\n");

    assertEquals(
        "prompts file " + file + " line 3: column \"prompt\" is empty, expected a prompt",
        error(file, null));
  }

  @Test
  void aShareGptEntryWithoutHumanTurnIsRefused() throws IOException {
    Path file =
        write(
            "s.json",
            "[{\"conversations\": [{\"from\": \"human\", \"value\": \"q\"}]},\n"
                + " {\"conversations\": [{\"from\": \"gpt\", \"value\": \"a\"}]}]\n");

    assertEquals(
        "prompts file "
            + file
            + " line 2: no human turn in \"conversations\", expected one {\"from\": \"human\","
            + " \"value\": \"text\"}",
        error(file, null));
  }

  @Test
  void anUnknownExtensionIsRefused() throws IOException {
    Path file = write("p.txt", "hello\n");

    assertEquals(
        "prompts file "
            + file
            + ": unknown format, expected a name ending in .jsonl (or .ndjson), .csv or .json",
        error(file, null));
  }

  @Test
  void aSecondObjectOnAJsonlLineIsRefused() throws IOException {
    Path file = write("p.jsonl", "{\"prompt\": \"hi\"} {\"prompt\": \"lost\"}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: more after the line's object, expected one JSON object a line",
        error(file, null));
  }

  @Test
  void aFieldGivenTwiceIsRefused() throws IOException {
    Path file = write("p.jsonl", "{\"prompt\": \"hi\", \"prompt\": \"other\"}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: not JSON (Duplicate field 'prompt'), expected {\"prompt\": \"text\"} or"
            + " {\"messages\": [{\"role\": \"user\", \"content\": \"text\"}]}",
        error(file, null));
  }

  @Test
  void anythingAfterTheJsonArrayIsRefused() throws IOException {
    Path file = write("p.json", "[{\"prompt\": \"hi\"}]\n[{\"prompt\": \"lost\"}]\n");

    assertEquals(
        "prompts file " + file + " line 2: more after the array, expected one JSON array",
        error(file, null));
  }

  @Test
  void anEmptyJsonlPromptIsRefused() throws IOException {
    Path file = write("p.jsonl", "{\"prompt\": \"hi\"}\n{\"prompt\": \"  \"}\n");

    assertEquals(
        "prompts file " + file + " line 2: \"prompt\" is empty, expected a prompt",
        error(file, null));
  }

  @Test
  void anEmptyShareGptHumanTurnIsRefused() throws IOException {
    Path file =
        write("p.json", "[{\"conversations\": [{\"from\": \"human\", \"value\": \"\"}]}]\n");

    assertEquals(
        "prompts file " + file + " line 1: the human turn is empty, expected a prompt",
        error(file, null));
  }

  @Test
  void aRowWithBothPromptAndMessagesIsRefused() throws IOException {
    Path file =
        write(
            "p.jsonl",
            "{\"prompt\": \"a\", \"messages\": [{\"role\": \"user\", \"content\": \"b\"}]}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: both \"prompt\" and \"messages\", expected one of them (which would be"
            + " sent?)",
        error(file, null));
  }

  @Test
  void aCsvHeaderThatNamesAColumnTwiceIsRefused() throws IOException {
    Path file = write("p.csv", "prompt,id,prompt\nhello,1,bye\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: column \"prompt\" appears twice in the header [prompt, id, prompt],"
            + " expected each column named once (which one would be read?)",
        error(file, null));
  }

  @Test
  void aCsvHeaderThatNamesAnotherColumnTwiceIsRefusedToo() throws IOException {
    Path file = write("p.csv", "id,prompt,id\n1,hello,2\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: column \"id\" appears twice in the header [id, prompt, id], expected each"
            + " column named once (which one would be read?)",
        error(file, null));
  }

  @Test
  void aHeaderOnlyCsvThatNamesAColumnTwiceIsRefused() throws IOException {
    Path file = write("p.csv", "prompt,prompt\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: column \"prompt\" appears twice in the header [prompt, prompt], expected"
            + " each column named once (which one would be read?)",
        error(file, null));
  }

  @Test
  void theColumnNamesAJsonlRowsTextField() throws IOException {
    Path file =
        write(
            "p.jsonl",
            "{\"question\": \"What is TTFT?\", \"output_tokens\": 4}\n"
                + "{\"messages\": [{\"role\": \"user\", \"content\": \"Hi\"}]}\n");

    PromptFile read = PromptFile.read(file, "question");

    assertEquals(
        List.of(
            new PromptFile.Row(1, "What is TTFT?", null, 4),
            new PromptFile.Row(
                2,
                "[{\"role\":\"user\",\"content\":\"Hi\"}]",
                List.of(new PromptFile.Message("user", "Hi")),
                null)),
        read.rows());
    assertEquals("question", read.column());
  }

  @Test
  void theColumnNamesAJsonArrayRowsTextField() throws IOException {
    Path file = write("p.json", "[{\"question\": \"a\"}, {\"question\": \"b\"}]");

    assertEquals(
        List.of(new PromptFile.Row(1, "a", null, null), new PromptFile.Row(1, "b", null, null)),
        PromptFile.read(file, "question").rows());
  }

  @Test
  void aJsonlRowWithoutTheNamedFieldIsRefusedNamingIt() throws IOException {
    Path file = write("p.jsonl", "{\"prompt\": \"a\"}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: no \"question\" (text) or \"messages\" (chat), expected {\"question\":"
            + " \"text\"} or {\"messages\": [{\"role\": \"user\", \"content\": \"text\"}]}"
            + " (llm.promptsColumn names the text field)",
        error(file, "question"));
  }

  @Test
  void aMessageWithAnUnknownRoleIsRefused() throws IOException {
    Path file =
        write(
            "p.jsonl",
            "{\"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"},"
                + " {\"role\": \"human\", \"content\": \"Hi\"}]}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: message 1 has role \"human\", expected one of system, user, assistant,"
            + " tool, developer",
        error(file, null));
  }

  @Test
  void everyChatRoleIsAccepted() throws IOException {
    Path file =
        write(
            "p.jsonl",
            "{\"messages\": [{\"role\": \"developer\", \"content\": \"d\"},"
                + " {\"role\": \"system\", \"content\": \"s\"},"
                + " {\"role\": \"user\", \"content\": \"u\"},"
                + " {\"role\": \"assistant\", \"content\": \"a\"},"
                + " {\"role\": \"tool\", \"content\": \"t\"}]}\n");

    assertEquals(
        List.of("developer", "system", "user", "assistant", "tool"),
        PromptFile.read(file, null).rows().get(0).messages().stream()
            .map(PromptFile.Message::role)
            .toList());
  }

  @Test
  void aMessageWithoutRoleIsRefused() throws IOException {
    Path file = write("p.jsonl", "{\"messages\": [{\"content\": \"Hi\"}]}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: message 0 has no text \"role\" and \"content\", expected \"messages\":"
            + " [{\"role\": \"user\", \"content\": \"text\"}, ...] (text content)",
        error(file, null));
  }

  @Test
  void aMessageWithoutContentIsRefused() throws IOException {
    Path file = write("p.jsonl", "{\"messages\": [{\"role\": \"user\"}]}\n");

    assertEquals(
        "prompts file "
            + file
            + " line 1: message 0 has no text \"role\" and \"content\", expected \"messages\":"
            + " [{\"role\": \"user\", \"content\": \"text\"}, ...] (text content)",
        error(file, null));
  }
}
