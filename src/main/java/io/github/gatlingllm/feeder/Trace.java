package io.github.gatlingllm.feeder;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Not API. A request trace in Mooncake's JSONL format (the FAST'25 artifact's {@code
 * conversation_trace.jsonl}, also read by AIPerf's {@code mooncake_trace} and GuideLLM's replay):
 * one JSON object a line, one request a row,
 *
 * <pre>{"timestamp": 27482, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, ...]}
 * </pre>
 *
 * <ul>
 *   <li>{@code timestamp}: when the row is due, in milliseconds from the trace's start, a whole
 *       number at least 0, never less than the row before's; either every row has one or none (then
 *       the injection decides when rows are sent);
 *   <li>{@code input_length}: the prompt's tokens, 1 to {@value #MAX_INPUT_TOKENS};
 *   <li>{@code output_length}: the completion's tokens to ask for, 1 to {@value
 *       #MAX_OUTPUT_TOKENS};
 *   <li>{@code hash_ids}: one id a block of {@code blockTokens} prompt tokens, whole numbers at
 *       least 0; equal ids at the same position mean the same prompt prefix up to there; exactly
 *       {@code ceil(input_length / blockTokens)} of them.
 * </ul>
 *
 * <p>Sessions (issue 32; AIPerf's multi-turn {@code mooncake_trace}): a row may carry {@code
 * session_id} (a non-empty string or a whole number); the rows of one session, in file order, are
 * its turns. A session's later row may carry {@code delay}, whole milliseconds from 0 to {@value
 * #MAX_TIMESTAMP_MS}: it is sent that long after the session's previous row ended (or at its own
 * {@code timestamp}, if it has one and it is later). In a timed trace a session's first row needs a
 * timestamp and its later rows need none ({@link #timestampMs} gives them the earliest they can be
 * sent: the previous row's timestamp plus the delay); timestamps are in file order among the rows
 * that are not a session's later rows. A {@code delay} on a session's first row is refused; on a
 * row without {@code session_id} it is read past, as before sessions. Other fields are read past.
 * Blank lines and a leading byte order mark are skipped; a field given twice, or more after a row's
 * object on its line, is refused. A file whose first two bytes are gzip's magic number is read
 * through gzip, whatever its name.
 *
 * <p>Held compactly in memory (three numbers a row and one a hash id): a Mooncake trace of 23,608
 * rows takes about 3 MB. Immutable once read; thread-safe.
 */
public final class Trace {

  /** The largest {@code input_length} accepted, in tokens (no served model takes more). */
  public static final int MAX_INPUT_TOKENS = 4 * 1024 * 1024;

  /** The largest {@code output_length} accepted, in tokens. */
  public static final int MAX_OUTPUT_TOKENS = 1024 * 1024;

  /** The largest {@code timestamp} accepted, in milliseconds. */
  public static final long MAX_TIMESTAMP_MS = Long.MAX_VALUE / 4;

  /** Mooncake's block size, in tokens: the default {@code blockTokens}. */
  public static final int DEFAULT_BLOCK_TOKENS = 512;

  /** Refuses a field given twice in a row (which value would count?). */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final Path path;
  private final int blockTokens;
  private final String sha256;
  private final long[] timestamps;
  private final int[] inputs;
  private final int[] outputs;
  private final int[] idStarts;
  private final long[] ids;
  private final int[] lines;
  private final int[] sessionOf;
  private final String[] sessionNames;
  private final int[] previousOfSession;
  private final long[] delays;
  private final boolean[] timestampStated;
  private final long maxTimestamp;

  private Trace(
      Path path,
      int blockTokens,
      String sha256,
      long[] timestamps,
      int[] inputs,
      int[] outputs,
      int[] idStarts,
      long[] ids,
      int[] lines,
      int[] sessionOf,
      String[] sessionNames,
      long[] delays,
      boolean[] timestampStated) {
    this.path = path;
    this.blockTokens = blockTokens;
    this.sha256 = sha256;
    this.timestamps = timestamps;
    this.inputs = inputs;
    this.outputs = outputs;
    this.idStarts = idStarts;
    this.ids = ids;
    this.lines = lines;
    this.sessionOf = sessionOf;
    this.sessionNames = sessionNames;
    this.delays = delays;
    this.timestampStated = timestampStated;
    long max = 0;
    if (timestamps != null) {
      for (long t : timestamps) {
        max = Math.max(max, t);
      }
    }
    this.maxTimestamp = max;
    if (sessionOf == null) {
      this.previousOfSession = null;
    } else {
      int[] previous = new int[sessionOf.length];
      int[] last = new int[sessionNames.length];
      Arrays.fill(last, -1);
      for (int row = 0; row < sessionOf.length; row++) {
        int session = sessionOf[row];
        previous[row] = session < 0 ? -1 : last[session];
        if (session >= 0) {
          last[session] = row;
        }
      }
      this.previousOfSession = previous;
    }
  }

  /**
   * Reads and checks a trace file.
   *
   * @param path the file, plain or gzip JSONL, never null
   * @param blockTokens the tokens of one hash id's block, at least 1 (Mooncake's is 512)
   * @return the trace, never empty
   * @throws IllegalArgumentException on the first bad row, naming the file, the line (from 1), the
   *     field, the value and what is allowed; or when the file cannot be read or holds no row
   */
  public static Trace read(Path path, int blockTokens) {
    Objects.requireNonNull(path, "path");
    if (blockTokens < 1) {
      throw new IllegalArgumentException(
          "llm.trace.blockTokens: got " + blockTokens + ", expected a whole number >= 1");
    }
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(
          "llm.trace: " + path + " is not a readable file (expected Mooncake-format JSONL)");
    }
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    Builder b = new Builder(path, blockTokens);
    try (InputStream raw = new DigestInputStream(Files.newInputStream(path), sha);
        BufferedInputStream buffered = new BufferedInputStream(raw, 1 << 16)) {
      buffered.mark(2);
      int b0 = buffered.read();
      int b1 = buffered.read();
      buffered.reset();
      InputStream in = b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(buffered, 1 << 16) : buffered;
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
          number++;
          if (number == 1 && line.startsWith("\uFEFF")) {
            line = line.substring(1); // a byte order mark, as Windows tools write
          }
          if (!line.isBlank()) {
            b.row(number, line);
          }
        }
        // what gzip left unread (its trailer, trailing bytes): into the digest too
        byte[] rest = new byte[8192];
        while (raw.read(rest) >= 0) {
          // digesting
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "llm.trace: cannot read " + path + ": " + e.getMessage(), e);
    }
    if (b.rows == 0) {
      throw new IllegalArgumentException(
          "llm.trace: "
              + path
              + " holds no row: expected one JSON object a line with timestamp, input_length,"
              + " output_length and hash_ids");
    }
    return b.build(HexFormat.of().formatHex(sha.digest()));
  }

  /**
   * The file read.
   *
   * @return never null
   */
  public Path path() {
    return path;
  }

  /**
   * The tokens of one hash id's block.
   *
   * @return at least 1
   */
  public int blockTokens() {
    return blockTokens;
  }

  /**
   * The SHA-256 of the file's bytes as stored (compressed, for a gzip file).
   *
   * @return 64 lower-case hex digits
   */
  public String sha256() {
    return sha256;
  }

  /**
   * The number of rows.
   *
   * @return at least 1
   */
  public int rows() {
    return inputs.length;
  }

  /**
   * Whether the rows carry timestamps.
   *
   * @return true when every row has one
   */
  public boolean timed() {
    return timestamps != null;
  }

  /**
   * When a row is due, from the trace's start.
   *
   * @param row from 0
   * @return milliseconds, or -1 for a trace without timestamps
   */
  public long timestampMs(int row) {
    return timestamps == null ? -1 : timestamps[row];
  }

  /**
   * The trace's span: the latest row's timestamp (the last row's, in a trace without sessions).
   *
   * @return milliseconds, 0 without timestamps
   */
  public long durationMs() {
    return timestamps == null ? 0 : maxTimestamp;
  }

  /**
   * The number of sessions: distinct {@code session_id}s.
   *
   * @return 0 when no row has one
   */
  public int sessions() {
    return sessionNames == null ? 0 : sessionNames.length;
  }

  /**
   * A row's session, numbered by first appearance in the file.
   *
   * @param row from 0
   * @return from 0, or -1 for a row without {@code session_id}
   */
  public int session(int row) {
    return sessionOf == null ? -1 : sessionOf[row];
  }

  /**
   * A row's {@code session_id} as the file gives it (a number written out).
   *
   * @param row from 0
   * @return the id, or null for a row without one
   */
  public String sessionId(int row) {
    int session = session(row);
    return session < 0 ? null : sessionNames[session];
  }

  /**
   * The previous row of a row's session.
   *
   * @param row from 0
   * @return the row, from 0; -1 for a session's first row or a row without session
   */
  public int previousRowOfSession(int row) {
    return previousOfSession == null ? -1 : previousOfSession[row];
  }

  /**
   * How long after the previous row of its session ended a row is sent.
   *
   * @param row from 0
   * @return milliseconds, or -1 when the row gives none (then 0 counts)
   */
  public long delayMs(int row) {
    return delays == null ? -1 : delays[row];
  }

  /**
   * Whether a row's timestamp is in the file, rather than worked out for a session's later row (the
   * previous row's timestamp plus its delay).
   *
   * @param row from 0
   * @return true for a row of a timed trace whose line has a timestamp
   */
  public boolean timestampStated(int row) {
    if (timestamps == null) {
      return false;
    }
    return timestampStated == null || timestampStated[row];
  }

  /**
   * A row's prompt size.
   *
   * @param row from 0
   * @return tokens, at least 1
   */
  public int inputLength(int row) {
    return inputs[row];
  }

  /**
   * A row's completion size.
   *
   * @param row from 0
   * @return tokens, at least 1
   */
  public int outputLength(int row) {
    return outputs[row];
  }

  /**
   * A row's hash ids, one a block, in prompt order.
   *
   * @param row from 0
   * @return a fresh array, never empty
   */
  public long[] hashIds(int row) {
    return Arrays.copyOfRange(ids, idStarts[row], idStarts[row + 1]);
  }

  /**
   * The line of the file a row was read from.
   *
   * @param row from 0
   * @return the line, from 1
   */
  public int line(int row) {
    return lines[row];
  }

  /**
   * The prompt tokens a prefix cache of unlimited size could serve if the rows were sent in file
   * order: for each row, the leading hash ids already sent by an earlier row, times the block (all
   * of {@code input_length} when every id was), summed over the rows and divided by the rows'
   * {@code input_length}s. Mooncake's and AIPerf's "cache hit ratio" counts the same leading
   * blocks.
   *
   * @return a share from 0 to 1
   */
  public double infiniteCacheHitRatio() {
    Set<Long> seen = new HashSet<>();
    long cached = 0;
    long total = 0;
    for (int row = 0; row < rows(); row++) {
      total += inputs[row];
      cached += cachedTokens(row, seen);
    }
    return total == 0 ? 0 : cached / (double) total;
  }

  /**
   * The leading tokens of a row whose hash ids are already in {@code seen}, then adds the row's ids
   * to it.
   *
   * @param row from 0
   * @param seen the ids sent before, never null; updated
   * @return tokens, from 0 to {@code input_length}
   */
  public long cachedTokens(int row, Set<Long> seen) {
    int from = idStarts[row];
    int to = idStarts[row + 1];
    int leading = 0;
    while (from + leading < to && seen.contains(ids[from + leading])) {
      leading++;
    }
    for (int i = from; i < to; i++) {
      seen.add(ids[i]);
    }
    return leading == to - from ? inputs[row] : (long) leading * blockTokens;
  }

  /**
   * The rows' indices, from 0.
   *
   * @return an iterator over {@code 0 .. rows() - 1}
   */
  public Iterator<Integer> indices() {
    return java.util.stream.IntStream.range(0, rows()).iterator();
  }

  @Override
  public String toString() {
    return "trace " + path + " (" + rows() + " rows, " + blockTokens + " tokens a block)";
  }

  /** Rows as they are read, checked one by one. */
  private static final class Builder {
    private final Path path;
    private final int block;
    private long[] timestamps = new long[1024];
    private int[] inputs = new int[1024];
    private int[] outputs = new int[1024];
    private int[] idStarts = new int[1025];
    private long[] ids = new long[8192];
    private int[] lines = new int[1024];
    private int[] sessionOf = new int[1024];
    private long[] delays = new long[1024];
    private boolean[] stated = new boolean[1024];
    private final java.util.Map<String, Integer> sessionIndex = new java.util.HashMap<>();
    private final java.util.List<String> sessionNames = new java.util.ArrayList<>();
    private final java.util.List<Integer> lastRowOfSession = new java.util.ArrayList<>();
    private boolean anySession;
    private boolean anyDelay;
    private long lastAnchorTimestamp = -1;
    private int rows;
    private int idCount;
    private Boolean timed;
    private int firstLine;

    Builder(Path path, int block) {
      this.path = path;
      this.block = block;
    }

    private IllegalArgumentException bad(int line, String field, String got, String expected) {
      return new IllegalArgumentException(
          "llm.trace: "
              + path
              + " line "
              + line
              + ": "
              + field
              + ": got "
              + got
              + ", expected "
              + expected);
    }

    void row(int line, String text) {
      JsonNode node;
      String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
      try (JsonParser parser = JSON.createParser(text)) {
        node = JSON.readTree(parser);
        boolean more;
        try {
          more = parser.nextToken() != null;
        } catch (JsonProcessingException e) {
          more = true;
        }
        if (more) {
          // a second object on the line would be a row lost without a word
          throw bad(
              line,
              "row",
              "\"" + shown + "\" (not JSON: more after the row's object)",
              "one JSON object a line");
        }
      } catch (JsonProcessingException e) {
        throw bad(
            line,
            "row",
            "\"" + shown + "\" (not JSON: " + e.getOriginalMessage() + ")",
            "one JSON object a line");
      } catch (IOException e) {
        throw new IllegalStateException("reading a String cannot fail", e);
      }
      if (node == null || !node.isObject()) {
        throw bad(line, "row", text.strip(), "one JSON object a line");
      }
      JsonNode sid = node.get("session_id");
      String sessionName = null;
      if (sid != null && !sid.isNull()) {
        if (sid.isTextual() && !sid.textValue().isEmpty()) {
          sessionName = sid.textValue();
        } else if (sid.isIntegralNumber()) {
          sessionName = sid.asText();
        } else {
          throw bad(line, "session_id", sid.toString(), "a non-empty string or a whole number");
        }
      }
      int session = -1;
      int previous = -1;
      if (sessionName != null) {
        anySession = true;
        Integer known = sessionIndex.get(sessionName);
        if (known == null) {
          session = sessionNames.size();
          sessionIndex.put(sessionName, session);
          sessionNames.add(sessionName);
          lastRowOfSession.add(rows);
        } else {
          session = known;
          previous = lastRowOfSession.get(session);
          lastRowOfSession.set(session, rows);
        }
      }
      long delay = -1;
      JsonNode d = node.get("delay");
      if (sessionName != null && d != null && !d.isNull()) {
        delay =
            whole(
                line,
                "delay",
                d,
                0,
                MAX_TIMESTAMP_MS,
                "milliseconds from 0 to " + MAX_TIMESTAMP_MS);
        if (previous < 0) {
          throw bad(
              line,
              "delay",
              d.toString(),
              "none on session "
                  + sessionName
                  + "'s first row (a delay counts from the session's previous row; the first"
                  + " row starts at its timestamp)");
        }
        anyDelay = true;
      }
      JsonNode ts = node.get("timestamp");
      boolean hasTs = ts != null && !ts.isNull();
      if (previous >= 0) {
        // A session's later row: sent after its previous row ended, plus its delay.
        long timestamp = -1;
        if (hasTs && Boolean.TRUE.equals(timed)) {
          timestamp =
              whole(
                  line,
                  "timestamp",
                  ts,
                  0,
                  MAX_TIMESTAMP_MS,
                  "milliseconds from 0 to " + MAX_TIMESTAMP_MS);
        } else if (hasTs) {
          throw bad(
              line,
              "timestamp",
              ts.toString(),
              "none, as the row of line " + firstLine + " has none (every row has one, or none)");
        } else if (Boolean.TRUE.equals(timed)) {
          timestamp = Math.min(MAX_TIMESTAMP_MS, timestamps[previous] + Math.max(0, delay));
        }
        finishRow(line, node, timestamp, hasTs, session, delay);
        return;
      }
      if (timed == null) {
        timed = hasTs;
        firstLine = line;
      } else if (timed != hasTs) {
        throw bad(
            line,
            "timestamp",
            hasTs ? ts.toString() : "none",
            (timed ? "a timestamp, as every row from line " : "none, as the row of line ")
                + firstLine
                + (timed ? " has" : " has none")
                + " (every row has one, or none)");
      }
      long timestamp = -1;
      if (hasTs) {
        timestamp =
            whole(
                line,
                "timestamp",
                ts,
                0,
                MAX_TIMESTAMP_MS,
                "milliseconds from 0 to " + MAX_TIMESTAMP_MS);
        if (lastAnchorTimestamp >= 0 && timestamp < lastAnchorTimestamp) {
          throw bad(
              line,
              "timestamp",
              Long.toString(timestamp),
              "at least the row before's "
                  + lastAnchorTimestamp
                  + " (rows in the order they are sent)");
        }
        lastAnchorTimestamp = timestamp;
      }
      finishRow(line, node, timestamp, hasTs, session, delay);
    }

    private void finishRow(
        int line, JsonNode node, long timestamp, boolean hasTs, int session, long delay) {
      int input =
          (int)
              whole(
                  line,
                  "input_length",
                  node.get("input_length"),
                  1,
                  MAX_INPUT_TOKENS,
                  "tokens from 1 to " + MAX_INPUT_TOKENS);
      int output =
          (int)
              whole(
                  line,
                  "output_length",
                  node.get("output_length"),
                  1,
                  MAX_OUTPUT_TOKENS,
                  "tokens from 1 to " + MAX_OUTPUT_TOKENS);
      JsonNode hash = node.get("hash_ids");
      int blocks = (int) ((input + (long) block - 1) / block);
      if (hash == null || !hash.isArray()) {
        throw bad(
            line,
            "hash_ids",
            hash == null ? "none" : hash.toString(),
            "an array of " + blocks + " whole numbers (ceil(input_length / " + block + "))");
      }
      if (hash.size() != blocks) {
        throw bad(
            line,
            "hash_ids",
            hash.size() + " ids",
            blocks
                + " for input_length "
                + input
                + " at "
                + block
                + " tokens a block (ceil(input_length / block tokens); is llm.trace.blockTokens"
                + " the trace's?)");
      }
      grow(blocks);
      for (JsonNode id : hash) {
        ids[idCount++] = whole(line, "hash_ids", id, 0, Long.MAX_VALUE, "whole numbers >= 0");
      }
      timestamps[rows] = timestamp;
      sessionOf[rows] = session;
      delays[rows] = delay;
      stated[rows] = hasTs;
      inputs[rows] = input;
      outputs[rows] = output;
      lines[rows] = line;
      rows++;
      idStarts[rows] = idCount;
    }

    private long whole(int line, String field, JsonNode v, long min, long max, String expected) {
      if (v == null || v.isNull()) {
        throw bad(line, field, "none", expected);
      }
      if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
        throw bad(line, field, v.toString(), expected);
      }
      if (!v.canConvertToLong() && v.isIntegralNumber()) {
        throw bad(line, field, v.toString(), expected);
      }
      if (!v.isIntegralNumber() && (v.asDouble() < min || v.asDouble() > max)) {
        // beyond a long, the cast below would clamp: two ids would become one
        throw bad(line, field, v.toString(), expected);
      }
      long value = v.isIntegralNumber() ? v.asLong() : (long) v.asDouble();
      if (value < min || value > max) {
        throw bad(line, field, v.toString(), expected);
      }
      return value;
    }

    private void grow(int blocks) {
      if (rows + 1 >= inputs.length) {
        int n = inputs.length * 2;
        timestamps = Arrays.copyOf(timestamps, n);
        inputs = Arrays.copyOf(inputs, n);
        outputs = Arrays.copyOf(outputs, n);
        lines = Arrays.copyOf(lines, n);
        sessionOf = Arrays.copyOf(sessionOf, n);
        delays = Arrays.copyOf(delays, n);
        stated = Arrays.copyOf(stated, n);
        idStarts = Arrays.copyOf(idStarts, n + 1);
      }
      while (idCount + blocks > ids.length) {
        ids = Arrays.copyOf(ids, ids.length * 2);
      }
    }

    Trace build(String sha256) {
      return new Trace(
          path,
          block,
          sha256,
          Boolean.TRUE.equals(timed) ? Arrays.copyOf(timestamps, rows) : null,
          Arrays.copyOf(inputs, rows),
          Arrays.copyOf(outputs, rows),
          Arrays.copyOf(idStarts, rows + 1),
          Arrays.copyOf(ids, idCount),
          Arrays.copyOf(lines, rows),
          anySession ? Arrays.copyOf(sessionOf, rows) : null,
          anySession ? sessionNames.toArray(new String[0]) : null,
          anyDelay ? Arrays.copyOf(delays, rows) : null,
          anySession && Boolean.TRUE.equals(timed) ? Arrays.copyOf(stated, rows) : null);
    }
  }
}
