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
    try (BufferedReader in = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        try {
          records.add(RequestRecordJson.fromJson(line));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(jsonl + " line " + n + ": " + e.getMessage(), e);
        }
      }
    }
    return records;
  }

  /**
   * Writes records as CSV.
   *
   * @param records the records
   * @param out where to write; not closed
   * @throws IOException if writing fails
   */
  public static void writeCsv(List<RequestRecord> records, Writer out) throws IOException {
    List<String> columns = columns();
    CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
    for (String c : columns) {
      schema.addColumn(c);
    }
    try (SequenceWriter writer =
        CSV.writer(schema.build())
            .without(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .writeValues(out)) {
      for (RequestRecord r : records) {
        Map<String, Object> row = Json.map(RequestRecordJson.toJson(r, true));
        Object itl = row.get("itl_ms");
        if (itl instanceof List<?> values) {
          StringJoiner joined = new StringJoiner(";");
          for (Object v : values) {
            joined.add(cell(v));
          }
          row.put("itl_ms", joined.toString());
        }
        List<Object> cells = new ArrayList<>(columns.size());
        for (String c : columns) {
          Object v = row.get(c);
          cells.add(v instanceof Double ? cell(v) : v);
        }
        writer.write(cells);
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
