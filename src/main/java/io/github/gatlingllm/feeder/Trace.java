package io.github.gatlingllm.feeder;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

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
  private final int minInput;
  private final int maxInput;
  private final int minOutput;
  private final int maxOutput;
  private final int maxTotal;

  Trace(
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
    int inLo = Integer.MAX_VALUE;
    int inHi = 0;
    int outLo = Integer.MAX_VALUE;
    int outHi = 0;
    int totalHi = 0;
    for (int row = 0; row < inputs.length; row++) {
      totalHi = Math.max(totalHi, inputs[row] + outputs[row]);
      inLo = Math.min(inLo, inputs[row]);
      inHi = Math.max(inHi, inputs[row]);
      outLo = Math.min(outLo, outputs[row]);
      outHi = Math.max(outHi, outputs[row]);
    }
    this.minInput = inLo;
    this.maxInput = inHi;
    this.minOutput = outLo;
    this.maxOutput = outHi;
    this.maxTotal = totalHi;
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
    return TraceReader.read(path, blockTokens);
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
   * The smallest {@code input_length} of a row.
   *
   * @return tokens, at least 1
   */
  public int minInputLength() {
    return minInput;
  }

  /**
   * The largest {@code input_length} of a row: the longest prompt the replay sends.
   *
   * @return tokens, at least 1
   */
  public int maxInputLength() {
    return maxInput;
  }

  /**
   * The smallest {@code output_length} of a row: the fewest output tokens a row asks for.
   *
   * @return tokens, at least 1
   */
  public int minOutputLength() {
    return minOutput;
  }

  /**
   * The largest {@code output_length} of a row: the most output tokens a row asks for.
   *
   * @return tokens, at least 1
   */
  public int maxOutputLength() {
    return maxOutput;
  }

  /**
   * The largest {@code input_length + output_length} of a row: the most context a row needs.
   *
   * @return tokens, at least 2
   */
  public int maxInputPlusOutputLength() {
    return maxTotal;
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

  /** The most images a row may carry. */
  public static final int MAX_IMAGES = 64;

  /** The largest side of a row's images, in pixels. */
  public static final int MAX_IMAGE_SIDE = 8192;

  /** A row's images' side when the row does not say. */
  public static final int DEFAULT_IMAGE_SIDE = 512;

  /** Each row's images, packed ({@link #imageShape}), or null when no row has any. */
  long[] imageShapes;

  /** A row's images packed: their count, width and height, 16 bits each. */
  static long imageShape(int images, int width, int height) {
    return ((long) images << 32) | ((long) width << 16) | height;
  }

  /**
   * How many images a row carries: its {@code images} (its {@code image_width} by {@code
   * image_height} pixels, default 512 each), made by the replay after the row's text.
   *
   * @param row from 0
   * @return 0 to {@value #MAX_IMAGES}
   */
  public int images(int row) {
    return imageShapes == null ? 0 : (int) (imageShapes[row] >>> 32);
  }

  /**
   * A row's images' width.
   *
   * @param row from 0
   * @return pixels
   */
  public int imageWidth(int row) {
    return imageShapes == null ? DEFAULT_IMAGE_SIDE : (int) ((imageShapes[row] >>> 16) & 0xFFFF);
  }

  /**
   * A row's images' height.
   *
   * @param row from 0
   * @return pixels
   */
  public int imageHeight(int row) {
    return imageShapes == null ? DEFAULT_IMAGE_SIDE : (int) (imageShapes[row] & 0xFFFF);
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
}
