package io.github.gatlingllm.prompt;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A prompts file read into memory: the prompts a user replays instead of generated ones, as vLLM's
 * {@code custom} dataset, GuideLLM's JSON/JSONL/CSV files and AIPerf's {@code single_turn} files
 * give them. Three formats, told apart by the file's extension:
 *
 * <ul>
 *   <li>{@code .jsonl} (or {@code .ndjson}): one JSON object a line, with {@code "prompt"} (the
 *       text) or {@code "messages"} (a chat: an array of {@code {"role", "content"}} objects with
 *       text content), and optionally {@code "output_tokens"} or {@code "max_tokens"} (the
 *       request's {@code max_tokens}, a whole number at least 1). Blank lines are skipped.
 *   <li>{@code .csv}: a header line, then one prompt a row in the column named by {@code column}
 *       (default {@code prompt}); an {@code output_tokens} or {@code max_tokens} column, when
 *       present, gives each row's {@code max_tokens} (an empty cell: none).
 *   <li>{@code .json}: one JSON array; each element either has what a JSONL line has, or is a
 *       ShareGPT conversation: {@code "conversations"}, an array of {@code {"from", "value"}}
 *       turns, of which the first human turn ({@code from} {@code human} or {@code user}) is the
 *       prompt.
 * </ul>
 *
 * <p>A row's {@link Row#text()} is what its digest and token count are of, and what the feeder's
 * {@code llm.text} holds: a {@code prompt} row's text, or for a {@code messages} row the messages
 * array as compact JSON ({@code [{"role":"user","content":"..."}]}, keys in that order), ready to
 * splice into a chat body.
 *
 * <p>Bad input is refused when the file is read, with one line naming the file, the line and what
 * is expected: a file that is missing, empty or not UTF-8, a row without a prompt, a CSV without
 * the named column. Immutable.
 */
public final class PromptFile {

  /** The formats, told apart by extension. */
  public enum Format {
    /** One JSON object a line ({@code .jsonl}, {@code .ndjson}). */
    JSONL("jsonl"),
    /** A header line, then one prompt a row ({@code .csv}). */
    CSV("csv"),
    /** One JSON array of prompt objects or ShareGPT conversations ({@code .json}). */
    JSON("json");

    private final String wireName;

    Format(String wireName) {
      this.wireName = wireName;
    }

    /**
     * The name in the run record.
     *
     * @return {@code jsonl}, {@code csv} or {@code json}
     */
    public String wireName() {
      return wireName;
    }
  }

  /**
   * One chat message of a {@code messages} row.
   *
   * @param role the role as written, never null
   * @param content the text, never null
   */
  public record Message(String role, String content) {

    /** Checks the fields. */
    public Message {
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(content, "content");
    }
  }

  /**
   * One prompt of the file.
   *
   * @param line the 1-based line of the file it starts on
   * @param text the prompt text, or for a {@code messages} row the messages as compact JSON
   * @param messages the chat messages, or null for a {@code prompt} row
   * @param maxTokens the row's {@code max_tokens}, or null for the run's
   */
  public record Row(int line, String text, List<Message> messages, Integer maxTokens) {

    /** Checks and freezes the fields. */
    public Row {
      Objects.requireNonNull(text, "text");
      messages = messages == null ? null : List.copyOf(messages);
    }
  }

  /** The roles a chat message of a {@code messages} row may have (OpenAI's chat roles). */
  static final List<String> ROLES = List.of("system", "user", "assistant", "tool", "developer");

  /** The CSV column read by default. */
  public static final String DEFAULT_COLUMN = "prompt";

  /** Refuses a field given twice (which value would be sent?). */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private static final String EXPECTED_ROW =
      "expected {\"prompt\": \"text\"} or {\"messages\": [{\"role\": \"user\", \"content\":"
          + " \"text\"}]}";

  private final Path path;
  private final Format format;
  private final String column;
  private final String sha256;
  private final List<Row> rows;

  private PromptFile(Path path, Format format, String column, String sha256, List<Row> rows) {
    this.path = path;
    this.format = format;
    this.column = column;
    this.sha256 = sha256;
    this.rows = List.copyOf(rows);
  }

  /**
   * Reads a prompts file.
   *
   * @param path the file, never null
   * @param column the CSV column holding the prompts, or null for {@value #DEFAULT_COLUMN}; in a
   *     JSONL or JSON file, the object field holding the text (ShareGPT entries and {@code
   *     messages} rows are read as they are)
   * @return the file's prompts, at least one
   * @throws IllegalArgumentException a one-line message naming the file, the line and what is
   *     expected: the file is missing, unreadable, empty, not UTF-8, of an unknown extension, or a
   *     row has no prompt
   */
  public static PromptFile read(Path path, String column) {
    Objects.requireNonNull(path, "path");
    String col = column == null || column.isBlank() ? DEFAULT_COLUMN : column.strip();
    Path file = path.toAbsolutePath().normalize();
    Format format = format(file);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "prompts file "
              + file
              + ": "
              + (Files.exists(file) ? "not a regular file" : "does not exist")
              + ", expected a JSONL, CSV or JSON prompts file");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "prompts file " + file + ": cannot be read (" + e + "), expected a readable file", e);
    }
    String text = utf8(file, bytes);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    if (text.isBlank()) {
      throw new IllegalArgumentException(
          "prompts file " + file + ": empty, expected at least one prompt");
    }
    List<Row> rows =
        switch (format) {
          case JSONL -> jsonl(file, text, col);
          case CSV -> csv(file, text, col);
          case JSON -> json(file, text, col);
        };
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(
          "prompts file " + file + ": no prompts in it, expected at least one");
    }
    String sha = HexFormat.of().formatHex(Hashing.newSha256().digest(bytes));
    return new PromptFile(
        file, format, format == Format.CSV || !col.equals(DEFAULT_COLUMN) ? col : null, sha, rows);
  }

  /**
   * The file, absolute.
   *
   * @return never null
   */
  public Path path() {
    return path;
  }

  /**
   * The file's format.
   *
   * @return never null
   */
  public Format format() {
    return format;
  }

  /**
   * The CSV column read.
   *
   * @return the column; for JSON formats null unless one other than {@value #DEFAULT_COLUMN} was
   *     given
   */
  public String column() {
    return column;
  }

  /**
   * The SHA-256 of the file's bytes, as {@code sha256sum} prints it.
   *
   * @return 64 lower-case hex digits
   */
  public String sha256() {
    return sha256;
  }

  /**
   * The prompts, in file order.
   *
   * @return at least one row, unmodifiable
   */
  public List<Row> rows() {
    return rows;
  }

  /**
   * The number of prompts.
   *
   * @return at least 1
   */
  public int size() {
    return rows.size();
  }

  private static Format format(Path file) {
    String name = file.getFileName() == null ? "" : file.getFileName().toString();
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) {
      return Format.JSONL;
    }
    if (lower.endsWith(".csv")) {
      return Format.CSV;
    }
    if (lower.endsWith(".json")) {
      return Format.JSON;
    }
    throw new IllegalArgumentException(
        "prompts file "
            + file
            + ": unknown format, expected a name ending in .jsonl (or .ndjson), .csv or .json");
  }

  /** The bytes as UTF-8, or an error naming the line of the first byte that is not. */
  private static String utf8(Path file, byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      int offset = in.position();
      int line = 1;
      for (int i = 0; i < offset; i++) {
        if (bytes[i] == '\n') {
          line++;
        }
      }
      throw new IllegalArgumentException(
          "prompts file "
              + file
              + " line "
              + line
              + ": not UTF-8 (byte 0x"
              + HexFormat.of().toHexDigits(bytes[offset])
              + " at offset "
              + offset
              + "), expected UTF-8 text");
    }
    decoder.flush(out);
    out.flip();
    return out.toString();
  }

  private static List<Row> jsonl(Path file, String text, String column) {
    List<Row> rows = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      JsonNode node;
      try (JsonParser parser = JSON.createParser(line)) {
        node = JSON.readTree(parser);
        if (more(parser)) {
          // a second object on the line would be a prompt lost without a word
          throw new IllegalArgumentException(
              where(file, i + 1) + "more after the line's object, expected one JSON object a line");
        }
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            where(file, i + 1) + "not JSON (" + e.getOriginalMessage() + "), " + EXPECTED_ROW, e);
      } catch (IOException e) {
        throw new IllegalStateException("reading a String cannot fail", e);
      }
      rows.add(row(file, i + 1, node, column));
    }
    return rows;
  }

  private static List<Row> json(Path file, String text, String column) {
    List<Row> rows = new ArrayList<>();
    try (JsonParser parser = JSON.getFactory().createParser(text)) {
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        throw new IllegalArgumentException(
            where(file, parser.currentTokenLocation().getLineNr())
                + "not a JSON array, expected [{\"prompt\": ...}, ...] or ShareGPT's"
                + " [{\"conversations\": [{\"from\": \"human\", \"value\": ...}]}, ...]");
      }
      JsonToken token;
      while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
        JsonLocation at = parser.currentTokenLocation();
        int line = at.getLineNr();
        if (token != JsonToken.START_OBJECT) {
          throw new IllegalArgumentException(
              where(file, line) + "an array element that is not an object, " + EXPECTED_ROW);
        }
        JsonNode node = JSON.readTree(parser);
        if (node.has("conversations")) {
          rows.add(shareGpt(file, line, node));
        } else {
          rows.add(row(file, line, node, column));
        }
      }
      if (more(parser)) {
        throw new IllegalArgumentException(
            where(file, parser.currentTokenLocation().getLineNr())
                + "more after the array, expected one JSON array");
      }
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 1 : e.getLocation().getLineNr();
      throw new IllegalArgumentException(
          where(file, line) + "not JSON (" + e.getOriginalMessage() + "), expected a JSON array",
          e);
    } catch (IOException e) {
      throw new IllegalArgumentException("prompts file " + file + ": cannot be read (" + e + ")");
    }
    return rows;
  }

  /** Whether anything but white space follows the value the parser has read. */
  private static boolean more(JsonParser parser) throws IOException {
    try {
      return parser.nextToken() != null;
    } catch (JsonProcessingException e) {
      return true;
    }
  }

  private static Row shareGpt(Path file, int line, JsonNode node) {
    JsonNode turns = node.get("conversations");
    if (!turns.isArray()) {
      throw new IllegalArgumentException(
          where(file, line)
              + "\"conversations\" is not an array, expected [{\"from\": \"human\", \"value\":"
              + " \"text\"}, ...]");
    }
    for (JsonNode turn : turns) {
      String from = turn.path("from").asText("");
      if ((from.equals("human") || from.equals("user")) && turn.path("value").isTextual()) {
        if (turn.get("value").asText().isBlank()) {
          throw new IllegalArgumentException(
              where(file, line) + "the human turn is empty, expected a prompt");
        }
        return new Row(line, turn.get("value").asText(), null, maxTokens(file, line, node));
      }
    }
    throw new IllegalArgumentException(
        where(file, line)
            + "no human turn in \"conversations\", expected one {\"from\": \"human\", \"value\":"
            + " \"text\"}");
  }

  /** One object row; {@code field} names its text prompt ({@code prompt}, or the column given). */
  private static Row row(Path file, int line, JsonNode node, String field) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          where(file, line) + "not a JSON object, " + expectedRow(field));
    }
    Integer maxTokens = maxTokens(file, line, node);
    JsonNode prompt = node.get(field);
    JsonNode given = node.get("messages");
    if (prompt != null && !prompt.isNull() && given != null && !given.isNull()) {
      throw new IllegalArgumentException(
          where(file, line)
              + "both \""
              + field
              + "\" and \"messages\", expected one of them (which would be sent?)");
    }
    if (prompt != null && !prompt.isNull()) {
      if (!prompt.isTextual()) {
        throw new IllegalArgumentException(
            where(file, line) + "\"" + field + "\" is not text, " + expectedRow(field));
      }
      if (prompt.asText().isBlank()) {
        throw new IllegalArgumentException(
            where(file, line) + "\"" + field + "\" is empty, expected a prompt");
      }
      return new Row(line, prompt.asText(), null, maxTokens);
    }
    JsonNode messages = node.get("messages");
    if (messages != null && !messages.isNull()) {
      return messagesRow(file, line, messages, maxTokens);
    }
    throw new IllegalArgumentException(
        where(file, line)
            + "no \""
            + field
            + "\" (text) or \"messages\" (chat), "
            + expectedRow(field)
            + (field.equals(DEFAULT_COLUMN) ? "" : " (llm.promptsColumn names the text field)"));
  }

  /** {@link #EXPECTED_ROW}, with the text field the file is read with. */
  private static String expectedRow(String field) {
    return field.equals(DEFAULT_COLUMN)
        ? EXPECTED_ROW
        : EXPECTED_ROW.replace("{\"prompt\": \"text\"}", "{\"" + field + "\": \"text\"}");
  }

  private static Row messagesRow(Path file, int line, JsonNode messages, Integer maxTokens) {
    String expected =
        ", expected \"messages\": [{\"role\": \"user\", \"content\": \"text\"}, ...] (text"
            + " content)";
    if (!messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException(
          where(file, line) + "\"messages\" is not a non-empty array" + expected);
    }
    List<Message> list = new ArrayList<>();
    List<Map<String, String>> json = new ArrayList<>();
    int n = 0;
    for (JsonNode m : messages) {
      if (!m.isObject() || !m.path("role").isTextual() || !m.path("content").isTextual()) {
        throw new IllegalArgumentException(
            where(file, line)
                + "message "
                + n
                + " has no text \"role\" and \"content\""
                + expected);
      }
      String role = m.get("role").asText();
      if (!ROLES.contains(role)) {
        throw new IllegalArgumentException(
            where(file, line)
                + "message "
                + n
                + " has role \""
                + role
                + "\", expected one of "
                + String.join(", ", ROLES));
      }
      Message message = new Message(role, m.get("content").asText());
      list.add(message);
      Map<String, String> entry = new LinkedHashMap<>();
      entry.put("role", message.role());
      entry.put("content", message.content());
      json.add(entry);
      n++;
    }
    try {
      return new Row(line, JSON.writeValueAsString(json), list, maxTokens);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("messages cannot be written as JSON", e);
    }
  }

  private static Integer maxTokens(Path file, int line, JsonNode node) {
    for (String key : List.of("output_tokens", "max_tokens")) {
      JsonNode value = node.get(key);
      if (value == null || value.isNull()) {
        continue;
      }
      if (!value.canConvertToInt() || !value.isIntegralNumber() || value.asInt() < 1) {
        throw new IllegalArgumentException(
            where(file, line)
                + "\""
                + key
                + "\": got "
                + value
                + ", expected a whole number >= 1 (the request's max_tokens)");
      }
      return value.asInt();
    }
    return null;
  }

  private static List<Row> csv(Path file, String text, String column) {
    CsvMapper mapper = new CsvMapper();
    CsvSchema schema = CsvSchema.emptySchema().withHeader();
    List<Row> rows = new ArrayList<>();
    try (com.fasterxml.jackson.databind.MappingIterator<Map<String, String>> it =
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
              where(file, line) + "column \"" + column + "\" is empty, expected a prompt");
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
          where(file, line)
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
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (String name : header) {
      if (!seen.add(name)) {
        throw new IllegalArgumentException(
            where(file, 1)
                + "column \""
                + name
                + "\" appears twice in the header "
                + header
                + ", expected each column named once (which one would be read?)");
      }
    }
    if (!header.contains(column)) {
      throw new IllegalArgumentException(
          where(file, 1)
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
          where(file, line)
              + "column \""
              + key
              + "\": got \""
              + value
              + "\", expected a whole number >= 1 (the request's max_tokens)");
    }
    return null;
  }

  private static String where(Path file, int line) {
    return "prompts file " + file + " line " + line + ": ";
  }

  @Override
  public String toString() {
    return "PromptFile[" + path + ", " + format.wireName() + ", " + rows.size() + " prompts]";
  }
}
