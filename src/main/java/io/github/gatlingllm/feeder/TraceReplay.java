package io.github.gatlingllm.feeder;

import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.TraceBlocks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Not API. A trace being replayed: its rows, the blocks their prompts are made of, the replay
 * speed, and which hash ids the run has sent so far (for each request's cache plan).
 *
 * <p>Row {@code i} is request index {@code i} of the workload's measured phase, so a shard {@code
 * I/N} sends rows {@code I, I + N, ...}, each on exactly one shard. A row is due {@code (timestamp
 * - first timestamp) / timeScale} milliseconds after its scenario's injection start.
 *
 * <p>Session keys added to a workload's records, all prefixed {@code llm.}: {@link #ROW} (int, the
 * 0-based line of the file), {@link #OUTPUT_TOKENS} (int), {@link #HASH_IDS} (long[]), {@link
 * #INPUT_TOKENS} (int) and, for a trace with timestamps, {@link #DUE_NANOS} (long, from the
 * injection's start).
 *
 * <p>Thread-safe.
 */
public final class TraceReplay {

  /** Session key: the row's 0-based line in the trace file. */
  public static final String ROW = "llm.traceRow";

  /** Session key: the row's {@code output_length}. */
  public static final String OUTPUT_TOKENS = "llm.traceOutputTokens";

  /** Session key: the row's {@code input_length}. */
  public static final String INPUT_TOKENS = "llm.traceInputTokens";

  /** Session key: the row's hash ids. */
  public static final String HASH_IDS = "llm.traceHashIds";

  /** Session key: when the row is due, in nanoseconds after its scenario's injection start. */
  public static final String DUE_NANOS = "llm.traceDueNanos";

  /**
   * The shortest window of {@link #arrivalWindows}, in milliseconds: users start at most this much
   * before their row is due.
   */
  public static final long MIN_WINDOW_MS = 1_000;

  /**
   * How long before its row is due a user starts at the latest, in milliseconds: a row due at a
   * window's start would otherwise wait for its window's users to start and feed.
   */
  public static final long LEAD_MS = 250;

  /** The most windows {@link #arrivalWindows} makes (Gatling nests one iterator a step). */
  public static final int MAX_WINDOWS = 2_000;

  /**
   * The longest replay accepted, in milliseconds: 30 days, the scaled span from a trace's first to
   * its last timestamp (longer is a wrong time scale or timestamps not in milliseconds).
   */
  public static final long MAX_REPLAY_MS = 30L * 24 * 3600 * 1000;

  private final Trace trace;
  private final io.github.gatlingllm.image.ImageTokens imageTokens;
  private final io.github.gatlingllm.image.ImageFormat imageFormat;
  private final TraceBlocks blocks;
  private final double timeScale;
  private final String caseId;
  private final PromptSource source;
  private final PrefixLedger blocksSent = new PrefixLedger();
  private long requestsSent;
  private final long firstTimestamp;
  private final int[] warmPrefix;
  // per session (numbered as Trace#session): its latest row that ended on this JVM, and when
  private final int[] sessionEndedRow;
  private final long[] sessionEndedNanos;
  // the rows waiting for a session's previous row, keyed by that previous row: one a session
  private final Map<Integer, java.util.function.LongConsumer> waiting = new java.util.HashMap<>();

  /**
   * A replay.
   *
   * @param trace the trace, never null
   * @param blocks the blocks, of the trace's block size, never null
   * @param timeScale the replay speed, above 0 (2.0 sends twice as fast)
   * @param caseId the case the prompts are recorded under, never null
   * @throws IllegalArgumentException if the time scale is not above 0, the replay would last more
   *     than {@link #MAX_REPLAY_MS}, or the blocks' size is not the trace's
   */
  public TraceReplay(Trace trace, TraceBlocks blocks, double timeScale, String caseId) {
    this(
        trace,
        blocks,
        timeScale,
        caseId,
        io.github.gatlingllm.image.ImageTokens.of(null),
        io.github.gatlingllm.image.ImageFormat.PNG);
  }

  /**
   * A replay whose rows' images ({@link Trace#images}) are counted by {@code imageTokens} and made
   * in {@code imageFormat}: each a seeded image ({@code image.ImageGenerator}) of label {@code
   * {seed}:{case_id}:trace-image:{line}:{slot}}, after the row's text, unique to the row.
   *
   * @param trace the trace, never null
   * @param blocks its blocks' texts, never null
   * @param timeScale the replay speed, above 0
   * @param caseId the case id, never null
   * @param imageTokens the rows' images' token rule, never null
   * @param imageFormat the rows' images' format, never null
   * @throws IllegalArgumentException as the four-argument constructor
   */
  public TraceReplay(
      Trace trace,
      TraceBlocks blocks,
      double timeScale,
      String caseId,
      io.github.gatlingllm.image.ImageTokens imageTokens,
      io.github.gatlingllm.image.ImageFormat imageFormat) {
    this.imageTokens = Objects.requireNonNull(imageTokens, "imageTokens");
    this.imageFormat = Objects.requireNonNull(imageFormat, "imageFormat");
    this.trace = Objects.requireNonNull(trace, "trace");
    this.blocks = Objects.requireNonNull(blocks, "blocks");
    this.caseId = Objects.requireNonNull(caseId, "caseId");
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException(
          "llm.trace.timeScale: got "
              + timeScale
              + ", expected a number above 0 (2.0: twice as fast)");
    }
    if (blocks.blockTokens() != trace.blockTokens()) {
      throw new IllegalArgumentException(
          "trace blocks of "
              + blocks.blockTokens()
              + " tokens for a trace read at "
              + trace.blockTokens());
    }
    this.timeScale = timeScale;
    this.firstTimestamp = trace.timed() ? trace.timestampMs(0) : 0;
    if (trace.timed()) {
      long spanMs = trace.durationMs() - firstTimestamp;
      double replayMs = spanMs / timeScale;
      if (replayMs > MAX_REPLAY_MS) {
        // a run that would outlast any test (or saturate the due times) never ends its profile
        throw new IllegalArgumentException(
            "llm.trace.timeScale: got "
                + timeScale
                + ", but the trace's "
                + spanMs
                + " ms from its first to its last timestamp (line "
                + trace.line(trace.rows() - 1)
                + ") would take "
                + replayMs
                + " ms to replay; expected a replay of at most "
                + MAX_REPLAY_MS
                + " ms (30 days): a larger llm.trace.timeScale, or timestamps in milliseconds");
      }
    }
    this.warmPrefix = warmPrefixes(trace);
    this.sessionEndedRow = new int[trace.sessions()];
    java.util.Arrays.fill(sessionEndedRow, -1);
    this.sessionEndedNanos = new long[trace.sessions()];
    this.source =
        PromptSource.ofRows(
            blocks.counter(),
            blocks.seed(),
            caseId,
            Phase.MEASURED.wireName(),
            index -> {
              int row = (int) index;
              io.github.gatlingllm.prompt.Prompt prompt =
                  blocks.prompt(
                      trace.hashIds(row), trace.inputLength(row), "trace-" + (trace.line(row) - 1));
              return trace.images(row) == 0 ? prompt : prompt.withImages(rowImages(row));
            });
  }

  /** A row's images: unique to the row, after its text. */
  private io.github.gatlingllm.image.PromptImages rowImages(int row) {
    int count = trace.images(row);
    int w = trace.imageWidth(row);
    int h = trace.imageHeight(row);
    io.github.gatlingllm.image.ImageSpec spec =
        new io.github.gatlingllm.image.ImageSpec(count, 0, w, w, h, h, imageFormat);
    java.util.List<io.github.gatlingllm.image.Image> images = new java.util.ArrayList<>(count);
    String label = blocks.seed() + ":" + caseId + ":trace-image:" + trace.line(row) + ":";
    for (int slot = 0; slot < count; slot++) {
      images.add(io.github.gatlingllm.image.ImageGenerator.generate(label + slot, spec));
    }
    return new io.github.gatlingllm.image.PromptImages(images, 0, imageTokens);
  }

  /**
   * The trace.
   *
   * @return never null
   */
  public Trace trace() {
    return trace;
  }

  /**
   * The replay speed.
   *
   * @return above 0
   */
  public double timeScale() {
    return timeScale;
  }

  /**
   * The prompts of the rows, request index = row.
   *
   * @return never null
   */
  public PromptSource source() {
    return source;
  }

  /**
   * Does the one-off prompt work before the clock starts, as {@link PromptSource#warm()} does:
   * builds and drops the prompts of the first rows (not handed out, so not in the digest), which
   * makes the block fillers and warms the generator's code; then starts building the first rows'
   * prompts ahead of use ({@link PromptSource#warm(int)}).
   *
   * @param sample how many rows, at least 0
   */
  public void warm(int sample) {
    for (int row = 0; row < Math.min(sample, trace.rows()); row++) {
      blocks.prompt(trace.hashIds(row), trace.inputLength(row), "warm");
    }
    // The first rows' prompts, built ahead on the lookahead's thread (a burst is due at once).
    source.warm(0);
  }

  /**
   * When a row is due after the injection's start.
   *
   * @param row from 0
   * @return nanoseconds, or -1 for a trace without timestamps
   */
  public long dueNanos(int row) {
    if (!trace.timed()) {
      return -1;
    }
    return Math.round((trace.timestampMs(row) - firstTimestamp) * 1e6 / timeScale);
  }

  /**
   * The due-time rule of a session's later row (AIPerf's multi-turn replay): it goes at its own
   * timestamp's due time or its delay after the session's previous row ended, whichever is later.
   * All three on one clock ({@link System#nanoTime()}).
   *
   * @param timestampDueNanos when the row's timestamp makes it due
   * @param previousEndedNanos when the session's previous row ended
   * @param delayNanos the row's {@link #delayNanos}, at least 0
   * @return when the row is due, nanoseconds on the same clock
   */
  public static long sessionDueNanos(
      long timestampDueNanos, long previousEndedNanos, long delayNanos) {
    long afterPrevious = previousEndedNanos + delayNanos;
    return afterPrevious - timestampDueNanos > 0 ? afterPrevious : timestampDueNanos;
  }

  /**
   * How long after its session's previous row ended a row goes, at the replay's speed.
   *
   * @param row from 0
   * @return nanoseconds: the row's {@code delay} divided by the time scale; 0 without a delay
   */
  public long delayNanos(int row) {
    long delayMs = trace.delayMs(row);
    return delayMs <= 0 ? 0 : Math.round(delayMs * 1e6 / timeScale);
  }

  /**
   * Waits for a row's session's previous row to end, when that row is this shard's: {@code resume}
   * then gets the earliest the row may go ({@link System#nanoTime()}: the previous row's end plus
   * {@link #delayNanos}) on the thread that ended it, or on this one if it has ended already. A row
   * without session, a session's first row, or one whose previous row is another shard's (that
   * ending is not seen here: the row goes at its timestamp) does not wait.
   *
   * @param row from 0
   * @param shard the run's shard, never null
   * @param resume gets the earliest time, once; never null
   * @return true when {@code resume} was or will be called, false when the row need not wait
   */
  public boolean afterPrevious(int row, Shard shard, java.util.function.LongConsumer resume) {
    int previous = trace.previousRowOfSession(row);
    if (previous < 0 || !shard.owns(previous)) {
      return false;
    }
    long delay = delayNanos(row);
    long ended;
    synchronized (this) {
      int session = trace.session(row);
      if (sessionEndedRow[session] < previous) {
        waiting.put(previous, end -> resume.accept(end + delay));
        return true;
      }
      ended = sessionEndedNanos[session];
    }
    resume.accept(ended + delay);
    return true;
  }

  /**
   * A row's request ended, however (answered, failed, cut or never sent): releases its session's
   * next row if it waits ({@link #afterPrevious}), on this thread. The trace is the traffic: a
   * failed row's next row goes all the same.
   *
   * @param row from 0
   * @param endNanos when it ended, {@link System#nanoTime()}
   */
  public void rowEnded(int row, long endNanos) {
    int session = trace.session(row);
    if (session < 0) {
      return;
    }
    java.util.function.LongConsumer next;
    synchronized (this) {
      if (sessionEndedRow[session] >= row) {
        return; // a second request on one fed row: its first ending counted
      }
      sessionEndedRow[session] = row;
      sessionEndedNanos[session] = endNanos;
      next = waiting.remove(row);
    }
    if (next != null) {
      next.accept(endNanos);
    }
  }

  /**
   * The row request index {@code index} replays.
   *
   * @param index the request index, from 0
   * @return the row, never null
   */
  TraceRow row(long index) {
    int row = (int) index;
    return new TraceRow(
        trace.line(row) - 1,
        trace.inputLength(row),
        trace.outputLength(row),
        trace.hashIds(row),
        trace.timed() ? dueNanos(row) : null);
  }

  /** Adds a row's keys to its record, for Gatling's EL. */
  void annotate(Map<String, Object> record, TraceRow row) {
    record.put(ROW, row.row());
    record.put(OUTPUT_TOKENS, row.outputTokens());
    record.put(INPUT_TOKENS, row.inputTokens());
    record.put(HASH_IDS, row.hashIds());
    if (row.dueNanos() != null) {
      record.put(DUE_NANOS, row.dueNanos());
    }
  }

  /**
   * A row is being sent: its hash ids marked as sent, and its ticket in the replay's {@link
   * PrefixLedger}, which says how many of its leading blocks earlier requests of the run sent, and
   * of those how many were ready (a request that sent them had its first token). Called in the
   * order requests go out; the request tells the ticket when its prefill ended and when it ended.
   *
   * @param ids the row's hash ids, never null
   * @return the ticket
   */
  public PrefixLedger.Ticket send(long[] ids) {
    Object[] keys = new Object[ids.length];
    for (int i = 0; i < ids.length; i++) {
      keys[i] = ids[i];
    }
    synchronized (this) {
      requestsSent++;
    }
    return blocksSent.send(keys);
  }

  /**
   * The tokens of a row's leading blocks: all of {@code inputTokens} when every block is.
   *
   * @param leading the leading blocks, from 0 to {@code blocks}
   * @param blocks the row's blocks (its hash ids)
   * @param inputTokens the row's {@code input_length}
   * @return tokens, from 0 to {@code inputTokens}
   */
  public int tokens(int leading, int blocks, int inputTokens) {
    return leading == blocks
        ? inputTokens
        : (int) Math.min(inputTokens, (long) leading * trace.blockTokens());
  }

  /**
   * The most prompt tokens of a row that any other row of the trace could leave in a cache, in
   * whatever order rows reach the server: its leading hash ids that some other row also holds,
   * times the block (all of {@code input_length} when every id is). For {@code
   * CachePlan.Sent#warmPrefixTokens}: a row sent a moment after another that shares its blocks may
   * reach the server first, and its cache is then no warm start.
   *
   * @param row from 0
   * @return tokens, from 0 to the row's {@code input_length}
   */
  public int warmPrefixTokens(int row) {
    return warmPrefix[row];
  }

  private static int[] warmPrefixes(Trace trace) {
    java.util.Map<Long, Integer> rowsWith = new java.util.HashMap<>();
    for (int row = 0; row < trace.rows(); row++) {
      for (long id : new java.util.LinkedHashSet<>(toList(trace.hashIds(row)))) {
        rowsWith.merge(id, 1, Integer::sum);
      }
    }
    int[] warm = new int[trace.rows()];
    for (int row = 0; row < trace.rows(); row++) {
      long[] ids = trace.hashIds(row);
      int leading = 0;
      while (leading < ids.length && rowsWith.get(ids[leading]) > 1) {
        leading++;
      }
      warm[row] =
          leading == ids.length
              ? trace.inputLength(row)
              : (int) Math.min(trace.inputLength(row), (long) leading * trace.blockTokens());
    }
    return warm;
  }

  private static java.util.List<Long> toList(long[] ids) {
    java.util.List<Long> list = new java.util.ArrayList<>(ids.length);
    for (long id : ids) {
      list.add(id);
    }
    return list;
  }

  /**
   * The requests sent from this trace's rows so far (one a row, unless a scenario sends several
   * requests on one fed row).
   *
   * @return at least 0
   */
  public synchronized long requestsSent() {
    return requestsSent;
  }

  /**
   * Gatling injection windows that start each of a shard's rows before it is due: {@code {offset
   * ms, users}} pairs in time order, one per window of {@code max(1 s, span / 2000)} that holds
   * rows due {@value #LEAD_MS} ms after it or later, its users starting at the window's start (the
   * LLM action then holds each row until it is due). The users take the rows in file order, so a
   * row counts at the earliest due time of itself and the shard's rows after it (a session's later
   * row may be due before an earlier row of the file).
   *
   * @param shard the shard whose rows count, never null
   * @return the windows, never empty
   * @throws IllegalStateException for a trace without timestamps
   */
  public List<long[]> arrivalWindows(Shard shard) {
    if (!trace.timed()) {
      throw new IllegalStateException(
          "trace "
              + trace.path()
              + " has no timestamps, so it has no arrivals of its own: inject its rows with any"
              + " injection profile (e.g. constantUsersPerSec), one user a row");
    }
    long spanMs = Math.round((trace.durationMs() - firstTimestamp) / timeScale);
    long window = Math.max(MIN_WINDOW_MS, (spanMs + MAX_WINDOWS - 1) / MAX_WINDOWS);
    // Users take the rows in file order, and a session's later row may be due before an earlier
    // row of the file: each user starts by the earliest due time of its row and all after it.
    int count = (int) shard.share(trace.rows());
    long[] startBy = new long[count];
    long earliest = Long.MAX_VALUE;
    for (int k = count - 1; k >= 0; k--) {
      earliest = Math.min(earliest, dueNanos(shard.index() + k * shard.count()));
      startBy[k] = earliest;
    }
    List<long[]> windows = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      long start = Math.max(0, startBy[k] / 1_000_000L - LEAD_MS) / window * window;
      if (!windows.isEmpty() && windows.get(windows.size() - 1)[0] == start) {
        windows.get(windows.size() - 1)[1]++;
      } else {
        windows.add(new long[] {start, 1});
      }
    }
    return windows;
  }

  /**
   * The {@code trace} object of {@code llm-run.json}.
   *
   * @param rowsSent the rows this run sent (its shard's): handed to the HTTP client, whatever their
   *     end
   * @param shard the run's shard, never null
   * @param digest the digest of the rows' prompts sent (the workload's measured phase), or null
   * @return the object, in insertion order
   */
  public Map<String, Object> toRecord(long rowsSent, Shard shard, String digest) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", trace.path().toString());
    m.put("rows", trace.rows());
    m.put("sha256", trace.sha256());
    m.put("block_tokens", trace.blockTokens());
    m.put("time_scale", timeScale);
    m.put("timed", trace.timed());
    m.put("duration_ms", trace.durationMs() - firstTimestamp);
    m.put("rows_sent", rowsSent);
    m.put("rows_skipped", Math.max(0, shard.share(trace.rows()) - rowsSent));
    m.put("infinite_cache_hit_ratio", Math.round(trace.infiniteCacheHitRatio() * 1e6) / 1e6);
    m.put("seed", blocks.seed());
    m.put("case_id", caseId);
    m.put("digest", digest);
    m.put("input_length_min", trace.minInputLength());
    m.put("input_length_max", trace.maxInputLength());
    m.put("output_length_min", trace.minOutputLength());
    m.put("output_length_max", trace.maxOutputLength());
    return m;
  }
}
