package io.github.gatlingllm.report;

import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.github.gatlingllm.metrics.RequestRecord;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
    // Lines are split as BufferedReader.readLine splits them (\n, \r or \r\n); an ASCII line
    // is read from its bytes, any other line is decoded strictly as UTF-8 and read as text.
    RequestRecordReader reader = RequestRecordReader.create();
    try (java.io.InputStream in = Files.newInputStream(jsonl)) {
      Lines lines = new Lines(in);
      int n = 0;
      while (lines.next()) {
        n++;
        byte[] b = lines.bytes;
        int off = lines.start;
        int len = lines.length;
        String line = null;
        if (!lines.ascii) {
          try {
            line =
                StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(b, off, len))
                    .toString();
          } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException(
                jsonl + " line " + n + ": not UTF-8 text (" + e.getMessage() + ")", e);
          }
        }
        if (line == null ? blank(b, off, len) : line.isBlank()) {
          continue;
        }
        RequestRecord r;
        try {
          r = line == null ? reader.read(b, off, len) : reader.read(line);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(jsonl + " line " + n + ": " + e.getMessage(), e);
        }
        each.accept(r);
      }
    }
  }

  /** Whether an ASCII line is empty or only whitespace ({@link String#isBlank}). */
  private static boolean blank(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      if (!Character.isWhitespace(b[i])) {
        return false;
      }
    }
    return true;
  }

  /** The lines of a stream of bytes, one at a time, in a buffer reused (and grown) for all. */
  static final class Lines {
    private final java.io.InputStream in;
    byte[] bytes = new byte[1 << 16];
    private int limit;
    private int next;
    private boolean eof;
    private boolean skipLf;
    private boolean nonAscii;
    int start;
    int length;
    boolean ascii;

    Lines(java.io.InputStream in) {
      this.in = in;
    }

    /** Moves to the next line: false at the end of the stream. */
    boolean next() throws IOException {
      int scan = next;
      while (true) {
        for (int i = scan; i < limit; i++) {
          byte c = bytes[i];
          if (skipLf && i == next) {
            skipLf = false;
            if (c == '\n') {
              next = i + 1;
              continue;
            }
          }
          if (c < 0) {
            nonAscii = true;
            continue;
          }
          if (c == '\n' || c == '\r') {
            start = next;
            length = i - next;
            next = i + 1;
            skipLf = c == '\r';
            ascii = !nonAscii;
            nonAscii = false;
            return true;
          }
        }
        if (eof) {
          if (next < limit) {
            start = next;
            length = limit - next;
            next = limit;
            ascii = !nonAscii;
            nonAscii = false;
            return true;
          }
          return false;
        }
        // Keep the partial line at the buffer's start and read more after it.
        int kept = limit - next;
        if (kept == bytes.length) {
          bytes = java.util.Arrays.copyOf(bytes, bytes.length * 2);
        } else if (next > 0) {
          System.arraycopy(bytes, next, bytes, 0, kept);
        }
        next = 0;
        limit = kept;
        scan = kept;
        int read = in.read(bytes, limit, bytes.length - limit);
        if (read < 0) {
          eof = true;
        } else {
          limit += read;
        }
      }
    }
  }

  /**
   * The requests of several {@code llm-requests.jsonl} files in start order (ties in file order),
   * streamed: the first pass reads each line's start and where it lies (20 bytes a request), later
   * ones read the lines in that order from the files.
   *
   * @param files the files
   * @return the requests, read again at each pass
   */
  static RecordedRequests byStart(List<Path> files) {
    return new ByStart(List.copyOf(files));
  }

  /** {@link #byStart}. */
  private static final class ByStart implements RecordedRequests {
    private final List<Path> files;
    private long[] order = new long[1024];
    private long[] where = new long[1024];
    private int[] length = new int[1024];
    private int n = -1;

    ByStart(List<Path> files) {
      this.files = files;
    }

    @Override
    public void forEach(java.util.function.Consumer<? super RequestRecord> each) {
      try {
        if (n < 0) {
          index();
        }
        java.nio.channels.FileChannel[] channels = new java.nio.channels.FileChannel[files.size()];
        try {
          for (int i = 0; i < channels.length; i++) {
            channels[i] = java.nio.channels.FileChannel.open(files.get(i));
          }
          java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(1 << 16);
          RequestRecordReader reader = RequestRecordReader.create();
          for (int k = 0; k < n; k++) {
            int seq = (int) (order[k] & 0xffffffffL);
            int file = (int) (where[seq] & 0xff);
            long offset = where[seq] >>> 8;
            if (buffer.capacity() < length[seq]) {
              buffer = java.nio.ByteBuffer.allocate(length[seq]);
            }
            buffer.clear().limit(length[seq]);
            while (buffer.hasRemaining()) {
              if (channels[file].read(buffer, offset + buffer.position()) < 0) {
                throw new IOException(files.get(file) + " changed while it was read");
              }
            }
            each.accept(
                reader.read(new String(buffer.array(), 0, length[seq], StandardCharsets.UTF_8)));
          }
        } finally {
          for (java.nio.channels.FileChannel c : channels) {
            if (c != null) {
              c.close();
            }
          }
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("cannot read " + files, e);
      }
    }

    /** Reads every line's start, file, offset and length; sorts by start, then by reading order. */
    private void index() throws IOException {
      n = 0;
      long first = Long.MAX_VALUE;
      byte[] chunk = new byte[1 << 20];
      java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(4096);
      RequestRecordReader reader = RequestRecordReader.create();
      for (int f = 0; f < files.size(); f++) {
        if (f > 0xff) {
          throw new IllegalArgumentException("at most 256 folders can be merged in start order");
        }
        Path file = files.get(f);
        long lineStart = 0;
        long position = 0;
        int lineNo = 0;
        try (java.io.InputStream in = Files.newInputStream(file)) {
          int read;
          while ((read = in.read(chunk)) > 0) {
            int from = 0;
            for (int i = 0; i < read; i++) {
              if (chunk[i] == '\n') {
                line.write(chunk, from, i - from);
                lineNo++;
                first = Math.min(first, add(reader, file, f, lineNo, lineStart, line));
                line.reset();
                from = i + 1;
                lineStart = position + i + 1;
              }
            }
            line.write(chunk, from, read - from);
            position += read;
          }
          if (line.size() > 0) {
            first = Math.min(first, add(reader, file, f, lineNo + 1, lineStart, line));
            line.reset();
          }
        }
      }
      for (int i = 0; i < n; i++) {
        long span = order[i] - first;
        if (span >= 1L << 31) {
          throw new IllegalArgumentException(
              "the requests span more than 24 days: they cannot be merged in start order");
        }
        order[i] = (span << 32) | i;
      }
      java.util.Arrays.sort(order, 0, n);
    }

    /** Indexes one line (its start kept in {@code order} until sorted); the start, or MAX. */
    private long add(
        RequestRecordReader reader,
        Path file,
        int f,
        int lineNo,
        long offset,
        java.io.ByteArrayOutputStream line) {
      String text = line.toString(StandardCharsets.UTF_8);
      if (text.isBlank()) {
        return Long.MAX_VALUE;
      }
      RequestRecord r;
      try {
        r = reader.read(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + " line " + lineNo + ": " + e.getMessage(), e);
      }
      if (n == order.length) {
        order = java.util.Arrays.copyOf(order, n * 2);
        where = java.util.Arrays.copyOf(where, n * 2);
        length = java.util.Arrays.copyOf(length, n * 2);
      }
      order[n] = r.startMs();
      where[n] = (offset << 8) | f;
      length[n] = line.size();
      n++;
      return r.startMs();
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
   * row is the record's fields ({@link RecordFields#ALL}, the same list and order as a JSON line)
   * written straight to Jackson's CSV generator, which puts each value in its column ({@code
   * itl_ms} joined by {@code ;}); a field left out of a line when null ({@code trace_row}) has no
   * column. Not thread-safe.
   */
  public static final class Csv implements java.io.Closeable {
    private final com.fasterxml.jackson.dataformat.csv.CsvGenerator generator;

    /**
     * Starts a CSV.
     *
     * @param out where to write; not closed by {@link #close}
     * @throws IOException if writing the header fails
     */
    public Csv(Writer out) throws IOException {
      CsvSchema.Builder schema =
          CsvSchema.builder().setUseHeader(true).setArrayElementSeparator(";");
      for (String c : columns()) {
        schema.addColumn(c);
      }
      generator = CSV.getFactory().createGenerator(out);
      generator.setSchema(schema.build());
      generator.disable(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    }

    /**
     * Writes one row.
     *
     * @param r the record
     * @throws IOException if writing fails
     */
    public void write(RequestRecord r) throws IOException {
      com.fasterxml.jackson.dataformat.csv.CsvGenerator g = generator;
      g.writeStartObject();
      for (RecordFields.Field f : RecordFields.ALL) {
        if (f.omittedWhenNull) {
          continue;
        }
        Object v = f.get.apply(r);
        g.writeFieldName(f.name);
        if (v == null) {
          g.writeNull();
          continue;
        }
        switch (f.kind) {
          case TEXT -> g.writeString((String) v);
          case INT -> g.writeNumber(((Integer) v).intValue());
          case LONG -> g.writeNumber(((Long) v).longValue());
          case TIME -> g.writeNumber(Decimals.shortest(((Double) v).doubleValue()));
          case FLAG, NULLABLE_FLAG -> g.writeBoolean(((Boolean) v).booleanValue());
          case TIMES -> {
            g.writeStartArray();
            for (Object d : (List<?>) v) {
              g.writeNumber(Decimals.shortest(((Double) d).doubleValue()));
            }
            g.writeEndArray();
          }
        }
      }
      g.writeEndObject();
    }

    @Override
    public void close() throws IOException {
      generator.close();
    }
  }

  /**
   * The CSV's columns: the keys of {@link RecordFields#ALL} in order, but for those left out of a
   * line when null.
   */
  static List<String> columns() {
    List<String> columns = new ArrayList<>();
    for (RecordFields.Field f : RecordFields.ALL) {
      if (!f.omittedWhenNull) {
        columns.add(f.name);
      }
    }
    return columns;
  }
}
