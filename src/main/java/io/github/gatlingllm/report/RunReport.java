package io.github.gatlingllm.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.gatlingllm.cache.CacheAggregator;
import io.github.gatlingllm.levels.ScheduleLag;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.AgentSessions;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.record.Merge;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.record.RunRecord;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the run record and report page of one or more run folders from their {@code
 * llm-requests.jsonl} (and {@code llm-run.json} for the settings); {@code compare.RunComparison}
 * compares two runs.
 *
 * <p>Several folders (for example one per load generator) make one merged report: the requests of
 * all of them aggregated together, the settings of the first, the folders listed in {@code
 * merged_from}, and {@code prompt_digests_equal} telling whether every folder's phase digests are
 * the same; {@code shards}, each folder's counts and window; and {@code merge_warnings} when their
 * windows do not overlap or their settings differ.
 *
 * <p>When the folders are the shards of one test ({@code shard} in their {@code llm-run.json}: each
 * sent the request indices {@code I, I + N, ...}), the merge is that test's record: each workload's
 * phase digests recomputed from the per-request digests in index order (equal to the one-machine
 * run's), the requests handed out added up, the requests in start order, and a warning for a
 * missing or repeated shard or index.
 */
public final class RunReport {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Map<String, Object> record;
  private final RecordedRequests requests;
  private final RequestsShape shape;
  private final List<Path> sources;
  private final List<String> warnings;

  private RunReport(
      Map<String, Object> record,
      RecordedRequests requests,
      RequestsShape shape,
      List<Path> sources,
      List<String> warnings) {
    this.record = record;
    this.requests = requests;
    this.shape = shape;
    this.sources = sources;
    this.warnings = warnings;
  }

  /**
   * Reads run folders and aggregates their requests again, in one streaming pass over each {@code
   * llm-requests.jsonl}: no request is held (a merge of shards keeps about 10 bytes a request for
   * the prompt digests, and a sharded merge's start order 16 bytes a request; see {@link
   * #requests()}).
   *
   * @param folders one or more run folders, each holding {@code llm-requests.jsonl}; {@code
   *     llm-run.json} is read when present
   * @param slo the objectives to check, or null for the first folder's recorded ones
   * @return the merged report
   * @throws IOException if a file cannot be read
   * @throws IllegalArgumentException if a folder lacks {@code llm-requests.jsonl} or a file is not
   *     a run record; the message names the file
   */
  public static RunReport read(List<Path> folders, Slo slo) throws IOException {
    if (folders.isEmpty()) {
      throw new IllegalArgumentException("no run folder given");
    }
    List<RunRecord> records = new ArrayList<>();
    List<Map<String, Object>> runs = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (Path folder : folders) {
      Path jsonl = folder.resolve(RunRecorder.REQUESTS_FILE);
      if (!Files.isRegularFile(jsonl)) {
        throw new IllegalArgumentException(
            folder + " has no " + RunRecorder.REQUESTS_FILE + ": not a gatling-llm run folder");
      }
      files.add(jsonl);
      records.add(runRecord(folder));
      // The merges of blocks without a type of their own read the maps the file holds.
      runs.add(fileMap(folder));
    }
    List<String> warnings = List.of();
    Map<String, Object> record = new LinkedHashMap<>(runs.get(0));
    Slo used = slo != null ? slo : recordedSlo(records.get(0));
    if (used.isSet()) {
      record.put("slo", used);
    } else {
      record.remove("slo");
    }
    CacheSummary.Parameters parameters = null;
    double tolerance = io.github.gatlingllm.settings.LlmSettings.DEFAULT_CACHE_TOLERANCE;
    CacheSummary recorded = RunRecordJson.read(record.remove("cache"), CacheSummary.class);
    if (recorded != null) {
      // What the plan knew of the server, as recorded; the figures are recomputed.
      parameters = recorded.parameters();
      if (recorded.tolerance() != null) {
        tolerance = recorded.tolerance();
      }
    }
    // One pass over each folder's requests: every figure below is aggregated as they stream by.
    MetricsAggregator aggregator = new MetricsAggregator(used);
    CacheAggregator cache = new CacheAggregator(tolerance);
    RequestsShape shape = new RequestsShape();
    MergeDigests digests = new MergeDigests();
    ConversationMerge.Turns turns = new ConversationMerge.Turns();
    ScheduleLag lag = new ScheduleLag();
    List<MergeSource> sources = new ArrayList<>();
    long recordedRequests = 0;
    for (int i = 0; i < folders.size(); i++) {
      MergeSource.Stats stats = new MergeSource.Stats(digests);
      boolean merging = folders.size() > 1;
      RequestsFile.forEach(
          files.get(i),
          r -> {
            aggregator.add(r);
            cache.add(r);
            shape.add(r);
            if (merging) {
              stats.add(r);
              turns.add(r);
              if (r.scheduleLagMs() != null) {
                lag.add(r.sentMs(), r.scheduleLagMs());
              }
            }
          });
      recordedRequests += stats.recorded;
      sources.add(new MergeSource(folders.get(i), runs.get(i), stats));
    }
    RecordedRequests requests = RecordedRequests.read(files);
    if (folders.size() > 1) {
      List<String> names = new ArrayList<>();
      for (Path f : folders) {
        names.add(f.toString());
      }
      record.put(Merge.MERGED_FROM_KEY, names);
      boolean equal = true;
      boolean interrupted = false;
      for (RunRecord run : records) {
        equal &= digests(records.get(0)).equals(digests(run));
        interrupted |= run.wasInterrupted();
      }
      record.put("prompt_digests_equal", equal);
      record.put("interrupted", interrupted);
      // Each run's own: the first run's would read as the merge's.
      record.remove("server_metrics");
      record.remove("machine");
      record.remove("working_set_sweep");
      warnings = ShardMerge.apply(record, sources);
      List<RunRecord> typed = runs.stream().map(RunRecord::of).toList();
      record.remove(Conversations.KEY);
      List<Conversations> conversations =
          Conversations.mergeRuns(
              typed.stream().map(RunRecord::conversations).toList(),
              MergeSource.sharded(sources) ? turns : null);
      if (conversations != null) {
        record.put(Conversations.KEY, conversations);
      }
      record.remove(AgentSessions.KEY);
      List<AgentSessions> sessions =
          AgentSessions.mergeRuns(typed.stream().map(RunRecord::sessions).toList(), warnings);
      if (sessions != null) {
        record.put(AgentSessions.KEY, sessions);
      }
      mergeClient(record, sources, lag);
      if (MergeSource.sharded(sources)) {
        requests = RequestsFile.byStart(files);
      }
    } else {
      recordedRequests = shape.count();
    }
    record.put("requests_recorded", recordedRequests);
    record.put("metrics", aggregator.summary());
    record.put("cache", cache.summary(parameters));
    return new RunReport(record, requests, shape, List.copyOf(files), List.copyOf(warnings));
  }

  /**
   * What a merge of several folders found amiss: windows that do not overlap, settings that differ,
   * missing or repeated shards and indices.
   *
   * @return one line each; empty for one folder or a clean merge
   */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * The run record, {@code metrics} recomputed.
   *
   * @return the record
   */
  public Map<String, Object> record() {
    return record;
  }

  /**
   * The requests, streamed from the folders' files at each pass: in folder then file order, or for
   * the shards of one test in start order (read through an index of 16 bytes a request).
   *
   * @return the requests
   */
  public RecordedRequests requests() {
    return requests;
  }

  /**
   * Writes {@code llm-run.json} and {@code llm-report.html} (and {@code llm-requests.csv} when
   * asked) into a folder, and {@code llm-requests.jsonl} when the folder is not the only source;
   * links the page from the folder's Gatling {@code index.html} if there is one. One pass over the
   * requests writes the JSON lines, the CSV and the page's figures.
   *
   * @param output the folder, made if missing
   * @param csv whether to write {@code llm-requests.csv}
   * @return the report page's path
   * @throws IOException if a file cannot be written
   */
  public Path write(Path output, boolean csv) throws IOException {
    Files.createDirectories(output);
    Path jsonl = output.resolve(RunRecorder.REQUESTS_FILE);
    boolean sameFolder =
        !record.containsKey(Merge.MERGED_FROM_KEY)
            && Files.isRegularFile(jsonl)
            && Files.isSameFile(jsonl, sources.get(0));
    // Written beside, then moved: the folder may be one of the sources being read.
    Path jsonlTmp = output.resolve(RunRecorder.REQUESTS_FILE + ".tmp");
    Path csvFile = output.resolve(RequestsFile.CSV_FILE);
    Path csvTmp = output.resolve(RequestsFile.CSV_FILE + ".tmp");
    String html;
    try (BufferedWriter lines =
            sameFolder ? null : Files.newBufferedWriter(jsonlTmp, StandardCharsets.UTF_8);
        BufferedWriter csvOut =
            csv ? Files.newBufferedWriter(csvTmp, StandardCharsets.UTF_8) : null;
        RequestsFile.Csv rows = csv ? new RequestsFile.Csv(csvOut) : null) {
      boolean[] written = {false};
      RecordedRequests tee =
          each -> {
            boolean write = !written[0];
            written[0] = true;
            requests.forEach(
                r -> {
                  if (write) {
                    try {
                      if (lines != null) {
                        lines.write(RequestRecordJson.toJson(r, true));
                        lines.write('\n');
                      }
                      if (rows != null) {
                        rows.write(r);
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  }
                  each.accept(r);
                });
          };
      html = ReportPage.render(RunRecord.of(record), tee.withShape(shape));
    }
    if (!sameFolder) {
      Files.move(jsonlTmp, jsonl, StandardCopyOption.REPLACE_EXISTING);
    }
    if (csv) {
      Files.move(csvTmp, csvFile, StandardCopyOption.REPLACE_EXISTING);
    }
    Files.writeString(output.resolve(RunRecorder.RUN_FILE), RunRecordJson.text(record));
    Path page = output.resolve(RunRecorder.REPORT_FILE);
    Files.writeString(page, html);
    IndexLink.inject(output);
    return page;
  }

  /**
   * Sets a merged record's {@code client} ({@link ClientSummary#merge}): the schedule lag of all
   * the folders' requests, their warnings named; none when no folder has one. Each folder's own is
   * in its {@code shards[]} entry.
   */
  static void mergeClient(Map<String, Object> record, List<MergeSource> sources, ScheduleLag lag) {
    List<ClientSummary> clients = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (MergeSource s : sources) {
      clients.add(s.record().client());
      names.add(s.folder().toString());
    }
    ClientSummary client = ClientSummary.merge(clients, names, lag.distribution());
    if (client == null) {
      record.remove(ClientSummary.KEY);
    } else {
      record.put(ClientSummary.KEY, client);
    }
  }

  /** Each workload's phase digests: {@code prompts.phases} (and each {@code workloads[]}'s). */
  static List<Map<String, String>> digests(RunRecord run) {
    List<Map<String, String>> all = new ArrayList<>();
    for (RunInfo.Prompts prompts : run.allPrompts()) {
      all.add(prompts.digests());
    }
    if (all.isEmpty()) {
      all.add(Map.of());
    }
    return all;
  }

  /** The SLO a run record holds, {@link Slo#NONE} without one; a block that is not one throws. */
  private static Slo recordedSlo(RunRecord run) {
    Slo slo = run.slo();
    return slo != null ? slo : Slo.fromRecord(asMap(run.json("slo")));
  }

  /**
   * A folder's run record, {@code llm-run.json}.
   *
   * @param folder a run folder, never null
   * @return the record, in the file's order, its known blocks typed; empty when the folder has none
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException naming the file when it is not a JSON object
   */
  public static RunRecord runRecord(Path folder) throws IOException {
    return RunRecord.load(folder.resolve(RunRecorder.RUN_FILE));
  }

  /** A folder's run record as the ordered maps Jackson reads it into; empty without a file. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> fileMap(Path folder) throws IOException {
    Path file = folder.resolve(RunRecorder.RUN_FILE);
    if (!Files.isRegularFile(file)) {
      return new LinkedHashMap<>();
    }
    try {
      return JSON.readValue(file.toFile(), LinkedHashMap.class);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + " is not a run record: " + e.getMessage(), e);
    }
  }

  private static Map<?, ?> asMap(Object value) {
    return value instanceof Map<?, ?> m ? m : null;
  }
}
