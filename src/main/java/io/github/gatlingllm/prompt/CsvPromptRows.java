package io.github.gatlingllm.prompt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.github.gatlingllm.prompt.PromptFile.Row;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of a CSV prompts file ({@link PromptFile.Format#CSV}): a header naming each column once,
 * then one prompt a row in the named column, with an optional {@code output_tokens} or {@code
 * max_tokens} column. Each bad row is a one-line {@link IllegalArgumentException} naming the file,
 * the line and what is expected. Stateless.
 */
final class CsvPromptRows {

  static List<Row> csv(Path file, String text, String column) {
    CsvMapper mapper = new CsvMapper();
    CsvSchema schema = CsvSchema.emptySchema().withHeader();
    List<Row> rows = new ArrayList<>();
    try (MappingIterator<Map<String, String>> it =
        mapper.readerFor(Map.class).with(schema).readValues(text)) {
      CsvParser parser = (CsvParser) it.getParser();
      boolean checked = false;
      while (it.hasNextValue()) {
        // The parser stands at the end of the line before the record (the header's, or the
        // previous record's last): the record starts on the next line.
        int line = parser.currentTokenLocation().getLineNr() + 1;
        Map<String, String> record = it.nextValue();
        if (!checked) {
          checkHeader(file, parser, column);
          checked = true;
        }
        String prompt = record.get(column);
        if (prompt == null || prompt.isEmpty()) {
          throw new IllegalArgumentException(
              PromptFile.where(file, line)
                  + "column \""
                  + column
                  + "\" is empty, expected a prompt");
        }
        rows.add(new Row(line, prompt, null, csvMaxTokens(file, line, record)));
      }
      if (!checked) {
        // A header and no rows: the header still has to name the column.
        checkHeader(file, parser, column);
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException iae) {
        throw iae;
      }
      int line =
          e instanceof JsonProcessingException j && j.getLocation() != null
              ? j.getLocation().getLineNr()
              : 1;
      throw new IllegalArgumentException(
          PromptFile.where(file, line)
              + "not CSV ("
              + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.toString())
              + "), expected a header line and one prompt a row",
          e);
    }
    return rows;
  }

  /** The header names each column once and names the prompt column. */
  private static void checkHeader(Path file, CsvParser parser, String column) {
    List<String> header = new ArrayList<>();
    parser.getSchema().forEach(c -> header.add(c.getName()));
    Set<String> seen = new HashSet<>();
    for (String name : header) {
      if (!seen.add(name)) {
        throw new IllegalArgumentException(
            PromptFile.where(file, 1)
                + "column \""
                + name
                + "\" appears twice in the header "
                + header
                + ", expected each column named once (which one would be read?)");
      }
    }
    if (!header.contains(column)) {
      throw new IllegalArgumentException(
          PromptFile.where(file, 1)
              + "no column \""
              + column
              + "\" in the header "
              + header
              + ", expected a header naming it (llm.promptsColumn names another)");
    }
  }

  private static Integer csvMaxTokens(Path file, int line, Map<String, String> record) {
    for (String key : List.of("output_tokens", "max_tokens")) {
      String value = record.get(key);
      if (value == null || value.isBlank()) {
        continue;
      }
      try {
        int tokens = Integer.parseInt(value.strip());
        if (tokens >= 1) {
          return tokens;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          PromptFile.where(file, line)
              + "column \""
              + key
              + "\": got \""
              + value
              + "\", expected a whole number >= 1 (the request's max_tokens)");
    }
    return null;
  }

  private CsvPromptRows() {}
}
