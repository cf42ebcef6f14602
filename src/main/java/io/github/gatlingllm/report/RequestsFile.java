package io.github.gatlingllm.report;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.github.gatlingllm.metrics.RequestRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Reads {@code llm-requests.jsonl} and writes its CSV form, {@code llm-requests.csv}.
 *
 * <p>The CSV has a header row and one row per request, columns in the order of the JSON keys of
 * {@link RequestRecordJson} ({@code request, phase, index, ..., status, error}); {@code itl_ms} is
 * one cell of values joined by {@code ;}; numbers are written as in the JSON lines (times in
 * milliseconds with microsecond precision, {@code 2.517}); an unmeasured value is an empty cell.
 * Quoting is Jackson's CSV module's (RFC 4180).
 */
public final class RequestsFile {

  /** The CSV export. */
  public static final String CSV_FILE = "llm-requests.csv";

  private static final CsvMapper CSV = new CsvMapper();

  private RequestsFile() {}

  /**
   * Reads every line of a {@code llm-requests.jsonl}.
   *
   * @param jsonl the file
   * @return the records in file order
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException naming the file and line of a line that is not a record
   */
  public static List<RequestRecord> read(Path jsonl) throws IOException {
    List<RequestRecord> records = new ArrayList<>();
    forEach(jsonl, records::add);
    return records;
  }

  /**
   * Reads every line of a {@code llm-requests.jsonl}, handing each record on as it is read (the
   * file is never held in memory).
   *
   * @param jsonl the file
   * @param each takes the records in file order
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException naming the file and line of a line that is not a record
   */
  public static void forEach(Path jsonl, java.util.function.Consumer<? super RequestRecord> each)
      throws IOException {
    try (BufferedReader in =
        new BufferedReader(Files.newBufferedReader(jsonl, StandardCharsets.UTF_8), 1 << 16)) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        RequestRecord r;
        try {
          r = RequestRecordJson.fromJson(line);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(jsonl + " line " + n + ": " + e.getMessage(), e);
        }
        each.accept(r);
      }
    }
  }

  /**
   * Writes records as CSV.
   *
   * @param records the records
   * @param out where to write; not closed
   * @throws IOException if writing fails
   */
  public static void writeCsv(List<RequestRecord> records, Writer out) throws IOException {
    try (Csv csv = new Csv(out)) {
      for (RequestRecord r : records) {
        csv.write(r);
      }
    }
  }

  /**
   * Writes records as CSV to a file.
   *
   * @param records the records
   * @param csv the file, replaced if it exists
   * @throws IOException if writing fails
   */
  public static void writeCsv(List<RequestRecord> records, Path csv) throws IOException {
    try (Writer out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      writeCsv(records, out);
    }
  }

  /**
   * A CSV being written a record at a time: the header first, then a row per {@link #write}. Each
   * row is the record's JSON form ({@link RequestRecordJson#write}) walked token by token, never
   * printed and parsed again. Not thread-safe.
   */
  public static final class Csv implements java.io.Closeable {
    private final List<String> columns = columns();
    private final java.util.Map<String, Integer> column = new java.util.HashMap<>();
    private final SequenceWriter writer;
    private final Object[] cells;

    /**
     * Starts a CSV.
     *
     * @param out where to write; not closed by {@link #close}
     * @throws IOException if writing the header fails
     */
    public Csv(Writer out) throws IOException {
      CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
      for (int i = 0; i < columns.size(); i++) {
        schema.addColumn(columns.get(i));
        column.put(columns.get(i), i);
      }
      cells = new Object[columns.size()];
      writer =
          CSV.writer(schema.build())
              .without(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET)
              .writeValues(out);
    }

    /**
     * Writes one row.
     *
     * @param r the record
     * @throws IOException if writing fails
     */
    public void write(RequestRecord r) throws IOException {
      java.util.Arrays.fill(cells, null);
      com.fasterxml.jackson.databind.util.TokenBuffer tokens =
          new com.fasterxml.jackson.databind.util.TokenBuffer(null, false);
      RequestRecordJson.write(tokens, r, true);
      try (com.fasterxml.jackson.core.JsonParser p = tokens.asParser()) {
        p.nextToken(); // the object
        com.fasterxml.jackson.core.JsonToken t;
        while ((t = p.nextToken()) == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
          Integer i = column.get(p.currentName());
          t = p.nextToken();
          Object cell;
          if (t == com.fasterxml.jackson.core.JsonToken.START_ARRAY) {
            StringJoiner joined = new StringJoiner(";");
            while (p.nextToken() != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
              joined.add(text(p));
            }
            cell = joined.toString();
          } else if (t == com.fasterxml.jackson.core.JsonToken.VALUE_NULL) {
            cell = null;
          } else if (t == com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
            p.skipChildren();
            cell = null;
          } else {
            cell = text(p);
          }
          if (i != null) {
            cells[i] = cell;
          }
        }
      }
      writer.write(java.util.Arrays.asList(cells));
    }

    /**
     * A scalar as in the JSON line: numbers are written there as their shortest decimal text
     * ({@code 2.517}), which the token keeps.
     */
    private static String text(com.fasterxml.jackson.core.JsonParser p) throws IOException {
      return p.getText();
    }

    @Override
    public void close() throws IOException {
      writer.close();
    }
  }

  /** A value as in the JSON line: a number as its shortest decimal ({@code 2.517}, {@code 34}). */
  private static String cell(Object value) {
    return value instanceof Double d ? Decimals.shortest(d) : String.valueOf(value);
  }

  /** The JSON keys of a record, in order. */
  static List<String> columns() {
    RequestRecord any =
        RequestRecord.builder()
            .request("x")
            .startMs(0)
            .status(io.github.gatlingllm.metrics.RequestStatus.OK)
            .build();
    return new ArrayList<>(Json.map(RequestRecordJson.toJson(any, true)).keySet());
  }

  /** JSON text to an ordered map. */
  static final class Json {
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER =
        new com.fasterxml.jackson.databind.ObjectMapper();

    private Json() {}

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(String json) {
      try {
        return MAPPER.readValue(json, java.util.LinkedHashMap.class);
      } catch (IOException e) {
        throw new IllegalArgumentException("not a JSON object: " + e.getMessage(), e);
      }
    }
  }
}
