package io.github.gatlingllm.prompt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
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
   * @param images the row's {@code images}: each a data URI ({@code data:image/png;base64,...}) or
   *     the path of a PNG or JPEG file (relative to the prompts file's folder), sent after the
   *     text; or null for none
   */
  public record Row(
      int line, String text, List<Message> messages, Integer maxTokens, List<String> images) {

    /** Checks and freezes the fields. */
    public Row {
      Objects.requireNonNull(text, "text");
      messages = messages == null ? null : List.copyOf(messages);
      images = images == null || images.isEmpty() ? null : List.copyOf(images);
    }

    /**
     * A row without images.
     *
     * @param line the 1-based line
     * @param text the text
     * @param messages the messages, or null
     * @param maxTokens the row's {@code max_tokens}, or null
     */
    public Row(int line, String text, List<Message> messages, Integer maxTokens) {
      this(line, text, messages, maxTokens, null);
    }
  }

  /** The roles a chat message of a {@code messages} row may have (OpenAI's chat roles). */
  static final List<String> ROLES = List.of("system", "user", "assistant", "tool", "developer");

  /** The CSV column read by default. */
  public static final String DEFAULT_COLUMN = "prompt";

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
          case JSONL -> JsonPromptRows.jsonl(file, text, col);
          case CSV -> CsvPromptRows.csv(file, text, col);
          case JSON -> JsonPromptRows.json(file, text, col);
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

  /** The start of a one-line error about {@code line} of {@code file}. */
  static String where(Path file, int line) {
    return "prompts file " + file + " line " + line + ": ";
  }

  @Override
  public String toString() {
    return "PromptFile[" + path + ", " + format.wireName() + ", " + rows.size() + " prompts]";
  }
}
