package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheAggregator;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.MetricsSummary;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.RunRecord;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a run's requests as they finish and writes the run record into Gatling's run folder.
 *
 * <p>Each finished request is appended at once to {@code llm-requests.jsonl} in a scratch folder of
 * the results folder ({@code .llm-<pid>-<millis>/}) and flushed at least every 100 records, so a
 * run that is stopped keeps what it measured. {@link #finish} moves the file into the run folder
 * and writes {@code llm-run.json}, {@code llm-requests.csv} and {@code llm-report.html} beside it;
 * when the run folder cannot be found (a run stopped before Gatling made it), the scratch folder is
 * renamed {@code llm-<millis>/} and keeps all three files. Thread-safe; {@link #finish} runs once.
 */
public final class RunRecorder implements AutoCloseable {

  /** The per-request file. */
  public static final String REQUESTS_FILE = "llm-requests.jsonl";

  /** The run record. */
  public static final String RUN_FILE = "llm-run.json";

  /** The report page. */
  public static final String REPORT_FILE = "llm-report.html";

  private static final Logger LOG = LoggerFactory.getLogger(RunRecorder.class);
  private static final int FLUSH_EVERY = 100;

  /** A line buffer that grew past this is not kept for the next line. */
  private static final int KEPT_LINE_CHARS = 64 * 1024;

  private final RunFolders folders;
  private final Path scratch;
  private final BufferedWriter requests;
  private final MetricsAggregator aggregator;
  private final CacheAggregator cache;
  private final ImageSplit images;
  private final RequestsShape shape = new RequestsShape();
  private final long startedMs;
  private long recorded;
  private StringBuilder line = new StringBuilder(2048);
  private char[] chars = new char[2048];
  private long late;
  private boolean finished;

  /**
   * Starts recording.
   *
   * @param folders the results folder listed before the run
   * @throws UncheckedIOException if the scratch folder cannot be made
   */
  public RunRecorder(RunFolders folders) {
    this(folders, Slo.NONE);
  }

  /**
   * Starts recording, checking each request against an SLO.
   *
   * @param folders the results folder listed before the run
   * @param slo the objectives of goodput, {@link Slo#NONE} for none
   * @throws UncheckedIOException if the scratch folder cannot be made
   */
  public RunRecorder(RunFolders folders, Slo slo) {
    this(folders, slo, io.github.gatlingllm.settings.LlmSettings.DEFAULT_CACHE_TOLERANCE);
  }

  /**
   * Starts recording, checking each request against an SLO and the cache against its plan.
   *
   * @param folders the results folder listed before the run
   * @param slo the objectives of goodput, {@link Slo#NONE} for none
   * @param cacheTolerance the cache verdict's tolerance, in [0, 1] ({@link CacheAggregator})
   * @throws UncheckedIOException if the scratch folder cannot be made
   */
  public RunRecorder(RunFolders folders, Slo slo, double cacheTolerance) {
    this(folders, slo, cacheTolerance, System.currentTimeMillis());
  }

  /**
   * Starts recording a run that started earlier: its record's {@code started_at} is {@code
   * startedMs}.
   *
   * @param folders the results folder listed before the run
   * @param slo the objectives of goodput, {@link Slo#NONE} for none
   * @param cacheTolerance the cache verdict's tolerance, in [0, 1] ({@link CacheAggregator})
   * @param startedMs the run's start, epoch ms
   * @throws UncheckedIOException if the scratch folder cannot be made
   */
  public RunRecorder(RunFolders folders, Slo slo, double cacheTolerance, long startedMs) {
    this.startedMs = startedMs;
    this.folders = Objects.requireNonNull(folders, "folders");
    this.aggregator = new MetricsAggregator(slo);
    this.cache = new CacheAggregator(cacheTolerance);
    this.images = new ImageSplit();
    try {
      Files.createDirectories(folders.results());
      this.scratch =
          Files.createDirectories(
              folders.results().resolve(".llm-" + ProcessHandle.current().pid() + "-" + startedMs));
      this.requests =
          Files.newBufferedWriter(scratch.resolve(REQUESTS_FILE), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot make the scratch folder for llm-requests.jsonl in " + folders.results(), e);
    }
  }

  /**
   * Records one finished request.
   *
   * @param record the request, never null
   */
  public void record(RequestRecord record) {
    synchronized (this) {
      if (finished) {
        // Requests in flight are cut and recorded before the record is written: only a request
        // sent after that (a virtual user still running during a JVM shutdown) lands here.
        if (late++ == 0) {
          LOG.warn(
              "a request finished after the run record was written: it and any later ones are not"
                  + " in {} (said once)",
              REQUESTS_FILE);
        }
        return;
      }
      // Under the lock, so that llm-run.json's metrics count exactly the lines of the file.
      aggregator.add(record);
      cache.add(record);
      shape.add(record);
      images.add(record);
      try {
        // Into one reused builder (no string, no generator a request), copied into the writer.
        line.setLength(0);
        RequestLineWriter.append(line, record, true);
        int n = line.length();
        if (chars.length < n + 1) {
          chars = new char[Math.max(n + 1, chars.length * 2)];
        }
        line.getChars(0, n, chars, 0);
        chars[n] = '\n';
        requests.write(chars, 0, n + 1);
        if (chars.length > KEPT_LINE_CHARS) {
          chars = new char[2048];
          line = new StringBuilder(2048);
        }
        if (++recorded % FLUSH_EVERY == 0) {
          requests.flush();
        }
      } catch (IOException e) {
        LOG.error("cannot write {}: {}", REQUESTS_FILE, e.toString());
      }
    }
  }

  /**
   * The aggregate of what was recorded so far.
   *
   * @return a snapshot
   */
  public MetricsSummary summary() {
    return aggregator.summary();
  }

  /**
   * The cache against its plan, so far.
   *
   * @return the live aggregator
   */
  public CacheAggregator cache() {
    return cache;
  }

  /**
   * How many requests were recorded.
   *
   * @return the count
   */
  public synchronized long recorded() {
    return recorded;
  }

  /**
   * Gatling's folder for this run, once Gatling has made it.
   *
   * @return the folder, or empty when it is not found
   */
  public Optional<Path> runFolder() {
    try {
      return folders.find();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Writes the run record: moves {@code llm-requests.jsonl} into the run folder and writes {@code
   * llm-run.json} and {@code llm-report.html} there. Runs once; later calls return the same folder.
   *
   * @param run the run's record so far (its settings, prompts, end and the watches' blocks), in the
   *     file's order; {@code interrupted}, {@code started_at}, {@code ended_at}, {@code
   *     requests_recorded}, {@code metrics}, {@code cache} and, when requests carried images,
   *     {@code images} ({@link ImageSplit}) are added here, in that order
   * @param cacheParameters what the cache plan knew of the server ({@code cache}'s parameters, in
   *     order), empty when none
   * @param interrupted whether the run was stopped before it ended
   * @param reportHtml renders the report page from the finished run record (each block its type, as
   *     read back from the file) and the requests streamed back from {@code llm-requests.jsonl}
   *     (their shape known, so in one pass, which also writes {@code llm-requests.csv} beside it)
   * @return the folder the files are in
   */
  public synchronized Path finish(
      RunRecord run,
      CacheSummary.Parameters cacheParameters,
      boolean interrupted,
      java.util.function.BiFunction<RunRecord, RecordedRequests, String> reportHtml) {
    if (finished) {
      return folders.find().orElse(scratch);
    }
    finished = true;
    try {
      requests.close();
    } catch (IOException e) {
      LOG.error("cannot close {}: {}", REQUESTS_FILE, e.toString());
    }
    Path target;
    try {
      target = folders.find().orElse(null);
    } catch (RuntimeException e) {
      LOG.error("cannot find this run's folder: {}", e.getMessage());
      target = null;
    }
    try {
      if (target == null) {
        target = folders.results().resolve("llm-" + startedMs);
        Files.move(scratch, target, StandardCopyOption.ATOMIC_MOVE);
        LOG.warn("Gatling's run folder was not found; the LLM run record is in {}", target);
      } else {
        Files.move(
            scratch.resolve(REQUESTS_FILE),
            target.resolve(REQUESTS_FILE),
            StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(scratch);
      }
      run.withRecorded(
              interrupted,
              Instant.ofEpochMilli(startedMs).toString(),
              Instant.now().toString(),
              recorded)
          .withMetrics(aggregator.summary())
          .without("cache")
          .with("cache", cache.summary(cacheParameters));
      if (images.any()) {
        run.withImages(images.summary());
      }
      Files.writeString(target.resolve(RUN_FILE), run.text());
      RunRecord record = run.typed();
      String html;
      try (BufferedWriter out =
              Files.newBufferedWriter(
                  target.resolve(RequestsFile.CSV_FILE), StandardCharsets.UTF_8);
          RequestsFile.Csv csv = new RequestsFile.Csv(out)) {
        // One pass: each request read back is a CSV row and goes into the page's figures.
        RecordedRequests file = RecordedRequests.read(List.of(target.resolve(REQUESTS_FILE)));
        boolean[] written = {false};
        RecordedRequests tee =
            each -> {
              boolean rows = !written[0];
              written[0] = true;
              file.forEach(
                  r -> {
                    if (rows) {
                      try {
                        csv.write(r);
                      } catch (IOException e) {
                        throw new UncheckedIOException(e);
                      }
                    }
                    each.accept(r);
                  });
            };
        html = reportHtml.apply(record, tee.withShape(shape));
      }
      Files.writeString(target.resolve(REPORT_FILE), html);
      Console.line(LOG, "LLM report: " + target.resolve(REPORT_FILE).toUri());
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the LLM run record", e);
    }
  }

  /**
   * The folder {@code llm-requests.jsonl} is written in until {@link #finish}: read it after {@link
   * #close()} (a flush) for the requests recorded so far.
   *
   * @return the scratch folder
   */
  public Path requestsFolder() {
    return scratch;
  }

  /** Flushes what was recorded, without finishing. */
  @Override
  public synchronized void close() {
    if (!finished) {
      try {
        requests.flush();
      } catch (IOException e) {
        LOG.error("cannot flush {}: {}", REQUESTS_FILE, e.toString());
      }
    }
  }
}
