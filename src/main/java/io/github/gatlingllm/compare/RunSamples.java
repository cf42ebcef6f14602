package io.github.gatlingllm.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.report.RequestsFile;
import io.github.gatlingllm.report.RunRecorder;
import io.github.gatlingllm.report.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The per-request values a comparison of two runs resamples, read from a run folder by streaming
 * its {@code llm-requests.jsonl} once: for each measured request (every phase but {@code warmup},
 * as the run's overall figures) a few numbers in primitive arrays (about 40 bytes a request, so a
 * run of 1,000,000 requests takes about 40 MB), never the records themselves. The inter-token gaps
 * of a request are kept whole for a seeded uniform sample of at most {@link #ITL_REQUESTS} requests
 * (reservoir sampling), so ITL can be resampled by request; the run's own ITL percentiles, over
 * every gap, are kept exactly as its record computes them ({@link MetricsAggregator.Metric}).
 *
 * <p>Not thread-safe; immutable once read.
 */
public final class RunSamples {

  /** The most requests whose inter-token gaps are kept for the ITL resampling. */
  public static final int ITL_REQUESTS = 5_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  final Path folder;
  final RunRecord record;
  final Slo slo;
  int n;

  /** Request start, epoch ms; every measured request. */
  long[] startMs = new long[1024];

  /** Request end (start + E2E, rounded up as the run's window), epoch ms. */
  long[] endMs = new long[1024];

  /** 1 for an OK request. */
  boolean[] ok = new boolean[1024];

  /** TTFT, TPOT, E2E of OK requests in ms; NaN when not measured or not OK. */
  double[] ttft = new double[1024];

  double[] tpot = new double[1024];
  double[] e2e = new double[1024];

  /** Completion tokens of an OK request, else 0. */
  int[] completion = new int[1024];

  /** Prompt and cached tokens of an OK request reporting cached tokens; else -1. */
  int[] prompt = new int[1024];

  int[] cached = new int[1024];

  /** 1 met the SLO, 0 missed it, -1 not judged (cut by the run's end, or no SLO). */
  byte[] slo1 = new byte[1024];

  /** Whether an OK request has inter-token gaps. */
  boolean[] hasItl = new boolean[1024];

  /** The ITL reservoir: request index and its gaps. */
  final int[] itlOwner = new int[ITL_REQUESTS];

  final float[][] itlGaps = new float[ITL_REQUESTS][];
  int itlKept;
  long itlSeen;
  final MetricsAggregator.Metric itlAll = new MetricsAggregator.Metric();
  final List<MetricsAggregator.Metric> itlByLevel = new ArrayList<>();
  final List<long[]> levelWindows = new ArrayList<>();
  long warmup;

  private RunSamples(Path folder, RunRecord record, Slo slo) {
    this.folder = folder;
    this.record = record;
    this.slo = slo;
  }

  /**
   * Reads a run folder: its {@code llm-run.json} (when present: model, endpoint, prompt digests,
   * SLO, load levels and warnings) and every line of its {@code llm-requests.jsonl}, one at a time.
   *
   * @param folder a run folder, or the output folder of a merge of several ({@code report A B
   *     --output DIR}), never null
   * @param slo the SLO to judge requests against, or null for the run's recorded one
   * @param seed the seed of the ITL reservoir
   * @return the samples
   * @throws IOException if a file cannot be read
   * @throws IllegalArgumentException naming the folder when it holds no {@code llm-requests.jsonl}
   *     or no measured request, or naming the file and line of a line that is not a request record
   */
  public static RunSamples read(Path folder, Slo slo, long seed) throws IOException {
    requestsFile(folder);
    return read(folder, RunReport.runRecord(folder), slo, seed);
  }

  /**
   * Reads the {@code llm-requests.jsonl} of a folder with a run record given: a run's own requests
   * before its {@code llm-run.json} is written.
   *
   * @param folder the folder holding {@code llm-requests.jsonl}, never null
   * @param record what is known of the run ({@code target}, {@code prompts}...), never null
   * @param slo the SLO to judge requests against, or null for {@code record}'s
   * @param seed the seed of the ITL reservoir
   * @return the samples
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException as {@link #read(Path, Slo, long)}
   */
  public static RunSamples read(Path folder, RunRecord record, Slo slo, long seed)
      throws IOException {
    Path jsonl = requestsFile(folder);
    Slo used = slo != null ? slo : recordedSlo(record);
    RunSamples s = new RunSamples(folder, record, used);
    s.readLevels();
    SplittableRandom random = new SplittableRandom(seed);
    RequestsFile.forEach(jsonl, r -> s.add(r, random));
    if (s.n == 0) {
      throw new IllegalArgumentException(
          folder
              + " has no measured request ("
              + RunRecorder.REQUESTS_FILE
              + " holds "
              + s.warmup
              + " warmup requests and nothing else): nothing to compare");
    }
    return s;
  }

  /**
   * Samples from records in memory, as {@link #read} makes them from a file: for tests and for a
   * run's own requests.
   *
   * @param folder the folder to name the run by, never null
   * @param record the run record, never null
   * @param slo the SLO to judge requests against, never null
   * @param records the requests, in file order
   * @param seed the seed of the ITL reservoir
   * @return the samples
   * @throws IllegalArgumentException naming the folder when there is no measured request
   */
  static RunSamples of(
      Path folder, RunRecord record, Slo slo, Iterable<RequestRecord> records, long seed) {
    RunSamples s = new RunSamples(folder, record, slo);
    s.readLevels();
    SplittableRandom random = new SplittableRandom(seed);
    for (RequestRecord r : records) {
      s.add(r, random);
    }
    if (s.n == 0) {
      throw new IllegalArgumentException(folder + " has no measured request: nothing to compare");
    }
    return s;
  }

  /**
   * The SLO a run folder's {@code llm-run.json} records.
   *
   * @param folder a run folder
   * @return the SLO, {@link Slo#NONE} when none is recorded, or null when the folder has no
   *     readable run record
   */
  public static Slo recordedSlo(Path folder) {
    try {
      RunRecord record = RunReport.runRecord(folder);
      return record.isEmpty() ? null : recordedSlo(record);
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The SLO a run record holds: its {@code slo} block, or {@link Slo#NONE} without one.
   *
   * @throws IllegalArgumentException naming the field when the block is not an SLO
   */
  private static Slo recordedSlo(RunRecord record) {
    Slo slo = record.slo();
    if (slo != null) {
      return slo;
    }
    // A block that does not read as an SLO: Slo says why.
    return Slo.fromRecord(record.json("slo") instanceof Map<?, ?> m ? m : null);
  }

  /**
   * The run folder read.
   *
   * @return never null
   */
  public Path folder() {
    return folder;
  }

  /**
   * The run's {@code llm-run.json}, as read.
   *
   * @return the record; empty when the folder has none
   */
  public RunRecord record() {
    return record;
  }

  /**
   * The measured requests read.
   *
   * @return at least 1
   */
  public int requests() {
    return n;
  }

  private void readLevels() {
    List<LevelEntry> levels = record.levels();
    if (levels == null) {
      return;
    }
    for (LevelEntry level : levels) {
      if (level != null && level.startMs() != null && level.endMs() != null) {
        long from = level.measuredFromMs() != null ? level.measuredFromMs() : level.startMs();
        long to = level.measuredToMs() != null ? level.measuredToMs() : level.endMs();
        levelWindows.add(new long[] {from, to});
        itlByLevel.add(new MetricsAggregator.Metric());
      } else {
        // A level without a window cannot be matched to requests: no level comparison.
        levelWindows.clear();
        itlByLevel.clear();
        return;
      }
    }
  }

  private void add(RequestRecord r, SplittableRandom random) {
    if (Phase.isWarmup(r.phase())) {
      warmup++;
      return;
    }
    grow();
    int i = n++;
    startMs[i] = r.startMs();
    endMs[i] = (long) Math.ceil(r.endMs());
    boolean isOk = r.status() == RequestStatus.OK;
    ok[i] = isOk;
    ttft[i] = isOk ? value(r.ttftMs()) : Double.NaN;
    tpot[i] = isOk ? value(r.tpotMs()) : Double.NaN;
    e2e[i] = isOk ? value(r.e2eMs()) : Double.NaN;
    completion[i] = isOk && r.completionTokens() != null ? r.completionTokens() : 0;
    boolean cacheReported = isOk && r.promptTokens() != null && r.cachedTokens() != null;
    prompt[i] = cacheReported ? r.promptTokens() : -1;
    cached[i] = cacheReported ? r.cachedTokens() : -1;
    if (!slo.isSet() || r.status() == RequestStatus.CUT_BY_RUN_END) {
      slo1[i] = -1;
    } else {
      slo1[i] = (byte) (slo.missed(r).isEmpty() ? 1 : 0);
    }
    List<Double> itl = isOk ? r.itlMs() : null;
    hasItl[i] = itl != null && !itl.isEmpty();
    if (!hasItl[i]) {
      return;
    }
    int level = level(r.startMs());
    float[] gaps = new float[itl.size()];
    for (int k = 0; k < gaps.length; k++) {
      double v = itl.get(k);
      gaps[k] = (float) v;
      itlAll.record(v);
      if (level >= 0) {
        itlByLevel.get(level).record(v);
      }
    }
    // Reservoir sampling (Vitter's algorithm R): a uniform sample of the requests with gaps.
    itlSeen++;
    if (itlKept < ITL_REQUESTS) {
      itlOwner[itlKept] = i;
      itlGaps[itlKept++] = gaps;
    } else {
      long j = random.nextLong(itlSeen);
      if (j < ITL_REQUESTS) {
        itlOwner[(int) j] = i;
        itlGaps[(int) j] = gaps;
      }
    }
  }

  /** The folder's {@code llm-requests.jsonl}; throws naming the folder when it has none. */
  private static Path requestsFile(Path folder) {
    Path jsonl = folder.resolve(RunRecorder.REQUESTS_FILE);
    if (!Files.isRegularFile(jsonl)) {
      throw new IllegalArgumentException(
          folder + " has no " + RunRecorder.REQUESTS_FILE + ": not a gatling-llm run folder");
    }
    return jsonl;
  }

  /** The index of the load level a request started in, or -1. */
  int level(long start) {
    for (int l = 0; l < levelWindows.size(); l++) {
      long[] w = levelWindows.get(l);
      if (start >= w[0] && start < w[1]) {
        return l;
      }
    }
    return -1;
  }

  private static double value(Double v) {
    return v == null ? Double.NaN : v;
  }

  private void grow() {
    if (n < startMs.length) {
      return;
    }
    int size = startMs.length * 2;
    startMs = Arrays.copyOf(startMs, size);
    endMs = Arrays.copyOf(endMs, size);
    ok = Arrays.copyOf(ok, size);
    ttft = Arrays.copyOf(ttft, size);
    tpot = Arrays.copyOf(tpot, size);
    e2e = Arrays.copyOf(e2e, size);
    completion = Arrays.copyOf(completion, size);
    prompt = Arrays.copyOf(prompt, size);
    cached = Arrays.copyOf(cached, size);
    slo1 = Arrays.copyOf(slo1, size);
    hasItl = Arrays.copyOf(hasItl, size);
  }
}
