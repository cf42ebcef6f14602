package io.github.gatlingllm.record;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gatlingllm.metrics.MetricsSummary;
import io.github.gatlingllm.metrics.Slo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole run record, {@code llm-run.json}, as one value read and written with Jackson.
 *
 * <p>The file is one JSON object of blocks. The blocks with a type of their own ({@link #BLOCKS}:
 * {@code metrics}, {@code slo}, {@code cache}, the levels ({@link Levels}), the saturation ({@link
 * SaturationBlock}), {@code server_metrics}...) are read into that type and reached through a typed
 * accessor; every other block is kept as the JSON tree the file holds, in its place, until it gets
 * its type. Every block is optional (null when the file has none), so files of older versions load;
 * keys of newer versions are kept, so a file read and written again is the same text, byte for
 * byte, in the file's key order. A block whose JSON does not read as its type (a hand-edited file)
 * is kept as the file has it and its accessor answers null, as for a missing block.
 *
 * <p>Not thread-safe; a record is built once and then read.
 */
public final class RunRecord {

  private static final Logger LOG = LoggerFactory.getLogger(RunRecord.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper PRETTY =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** The top-level blocks read into a type of their own: the key, then the type. */
  static final Map<String, JavaType> BLOCKS =
      Map.ofEntries(
          Map.entry("metrics", JSON.constructType(MetricsSummary.class)),
          Map.entry("slo", JSON.constructType(Slo.class)),
          Map.entry("cache", JSON.constructType(CacheSummary.class)),
          Map.entry(
              Levels.LEVELS_KEY, JSON.constructType(new TypeReference<List<LevelEntry>>() {})),
          Map.entry(Levels.NOTE_KEY, JSON.constructType(String.class)),
          Map.entry(Levels.LEFT_OUT_KEY, JSON.constructType(Levels.LeftOut.class)),
          Map.entry(Levels.ANCHOR_KEY, JSON.constructType(Levels.Anchor.class)),
          Map.entry(Levels.WARNINGS_KEY, JSON.constructType(new TypeReference<List<String>>() {})),
          Map.entry(SaturationBlock.SATURATION_KEY, JSON.constructType(SaturationBlock.Run.class)),
          Map.entry(
              SaturationBlock.SATURATIONS_KEY,
              JSON.constructType(new TypeReference<List<SaturationBlock>>() {})),
          Map.entry("server_metrics", JSON.constructType(ServerMetrics.class)),
          Map.entry("baseline", JSON.constructType(Baseline.class)),
          Map.entry("machine", JSON.constructType(Machine.class)),
          Map.entry(Capacity.KEY, JSON.constructType(Capacity.class)),
          Map.entry(
              "working_set_sweep",
              JSON.constructType(new TypeReference<List<WorkingSetSweep>>() {})),
          Map.entry(
              Assertions.RESULTS_KEY,
              JSON.constructType(new TypeReference<List<Assertions.Result>>() {})),
          Map.entry(
              Conversations.KEY, JSON.constructType(new TypeReference<List<Conversations>>() {})),
          Map.entry(
              AgentSessions.KEY, JSON.constructType(new TypeReference<List<AgentSessions>>() {})),
          // The run's own description: RunInfo's fields, the run's end and what it recorded.
          Map.entry(Run.PRODUCT, JSON.constructType(String.class)),
          Map.entry(Run.VERSION, JSON.constructType(String.class)),
          Map.entry(Run.GATLING_VERSION, JSON.constructType(String.class)),
          Map.entry(Run.SIMULATION, JSON.constructType(String.class)),
          Map.entry(Run.PROMPTS, JSON.constructType(RunInfo.Prompts.class)),
          Map.entry(
              Run.WORKLOADS, JSON.constructType(new TypeReference<List<RunInfo.Prompts>>() {})),
          Map.entry(Run.TARGET, JSON.constructType(RunInfo.Target.class)),
          Map.entry(Run.DECODING, JSON.constructType(RunInfo.Decoding.class)),
          Map.entry(Run.LOAD, JSON.constructType(RunInfo.Load.class)),
          Map.entry(Run.ASSERTIONS, JSON.constructType(RunInfo.Assertions.class)),
          Map.entry(Run.NOTE, JSON.constructType(String.class)),
          Map.entry(Run.END_REASON, JSON.constructType(String.class)),
          Map.entry(Run.CUT_BY_RUN_END, JSON.constructType(Long.class)),
          Map.entry(Run.CUT_BEFORE_SENT, JSON.constructType(Long.class)),
          Map.entry(Run.TARGET_DOWN, JSON.constructType(TargetDown.class)),
          Map.entry(Run.TARGET_SILENT, JSON.constructType(TargetSilent.class)),
          Map.entry(Run.INTERRUPTED, JSON.constructType(Boolean.class)),
          Map.entry(Run.STARTED_AT, JSON.constructType(String.class)),
          Map.entry(Run.ENDED_AT, JSON.constructType(String.class)),
          Map.entry(Run.REQUESTS_RECORDED, JSON.constructType(Long.class)),
          Map.entry(Run.REQUESTS_SENT_BY, JSON.constructType(String.class)),
          Map.entry(ClientSummary.KEY, JSON.constructType(ClientSummary.class)),
          Map.entry(ImagesSummary.KEY, JSON.constructType(ImagesSummary.class)),
          Map.entry(Shard.KEY, JSON.constructType(Shard.class)),
          Map.entry(PromptsHandedOut.KEY, JSON.constructType(PromptsHandedOut.class)),
          Map.entry(
              Merge.MERGED_FROM_KEY, JSON.constructType(new TypeReference<List<String>>() {})),
          Map.entry(
              Merge.SHARDS_KEY, JSON.constructType(new TypeReference<List<Merge.Folder>>() {})),
          Map.entry(Merge.WARNINGS_KEY, JSON.constructType(new TypeReference<List<String>>() {})));

  /** The keys of the run's own description, in the order a run's end writes them. */
  static final class Run {
    static final String PRODUCT = "product";
    static final String VERSION = "version";
    static final String GATLING_VERSION = "gatling_version";
    static final String SIMULATION = "simulation";
    static final String PROMPTS = "prompts";
    static final String WORKLOADS = "workloads";
    static final String TARGET = "target";
    static final String DECODING = "decoding";
    static final String LOAD = "load";
    static final String SLO = "slo";
    static final String ASSERTIONS = "assertions";
    static final String NOTE = "note";
    static final String END_REASON = "end_reason";
    static final String CUT_BY_RUN_END = "requests_cut_by_run_end";
    static final String CUT_BEFORE_SENT = "requests_cut_before_sent";
    static final String TARGET_DOWN = "target_down";
    static final String TARGET_SILENT = "target_silent";
    static final String INTERRUPTED = "interrupted";
    static final String STARTED_AT = "started_at";
    static final String ENDED_AT = "ended_at";
    static final String REQUESTS_RECORDED = "requests_recorded";
    static final String REQUESTS_SENT_BY = "requests_sent_by";

    private Run() {}
  }

  /** Each top-level key in the file's order: a typed block, or the file's JSON tree. */
  private final LinkedHashMap<String, Object> blocks = new LinkedHashMap<>();

  /** The typed blocks whose type writes them otherwise than the file did, with the file's JSON. */
  private final Map<String, AsRead> asRead = new HashMap<>();

  private RunRecord() {}

  /**
   * Reads a run record file.
   *
   * @param file {@code llm-run.json}, never null
   * @return the record; empty when the file does not exist
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException naming the file when it is not a JSON object
   */
  public static RunRecord load(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      return new RunRecord();
    }
    JsonNode tree;
    try {
      tree = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(file + " is not a run record: " + e.getMessage(), e);
    }
    if (!(tree instanceof ObjectNode object)) {
      throw new IllegalArgumentException(file + " is not a run record: not a JSON object");
    }
    return of(object);
  }

  /**
   * A run record from its JSON tree.
   *
   * @param tree the file's object, never null
   * @return the record, its known blocks typed
   */
  public static RunRecord of(ObjectNode tree) {
    RunRecord record = new RunRecord();
    for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      Object value = typed(e.getKey(), e.getValue());
      record.blocks.put(e.getKey(), value);
      if (!(value instanceof JsonNode) && !sameText(JSON.valueToTree(value), e.getValue())) {
        // Its type writes it otherwise than the file (e.g. a newer version's keys, which Jackson
        // hands a record's creator as a HashMap): the file's own text is kept for as long as the
        // block is this value.
        record.asRead.put(e.getKey(), new AsRead(value, e.getValue()));
      }
    }
    return record;
  }

  private static boolean sameText(JsonNode a, JsonNode b) {
    return a.toString().equals(b.toString());
  }

  /** The file's own JSON of a typed block, kept while the block is {@code typed}. */
  private record AsRead(Object typed, JsonNode node) {}

  /** The block's JSON: the file's own while the block is still what was read, else its type's. */
  private JsonNode node(String key, Object value) {
    if (value instanceof JsonNode node) {
      return node;
    }
    AsRead read = asRead.get(key);
    return read != null && read.typed() == value ? read.node() : JSON.valueToTree(value);
  }

  /**
   * A run record from the ordered map a writer filled (its values JSON-ready: maps, lists, scalars
   * and the blocks' types).
   *
   * @param map the record, in the file's key order, never null
   * @return the record
   */
  public static RunRecord of(Map<String, ?> map) {
    return of((ObjectNode) JSON.valueToTree(map));
  }

  /**
   * An empty record, to be filled block by block ({@link #with(RunInfo)}, {@link #withEnd}...) in
   * the file's key order.
   *
   * @return a new record with no block
   */
  public static RunRecord create() {
    return new RunRecord();
  }

  /**
   * Adds (or replaces, in its place) one top-level block as given: the way in for the blocks that
   * have no typed setter yet, written as today's maps are. A typed accessor answers a block given
   * as another value than its type (a map a writer built) only in the record read back ({@link
   * #typed()}).
   *
   * @param key the block's key in the file, never null
   * @param block the block: its type, or any JSON-ready value; null is written as null
   * @return this record
   */
  public RunRecord with(String key, Object block) {
    blocks.put(key, block == null ? JSON.nullNode() : block);
    return this;
  }

  /**
   * The record as it reads back from its text: every block of {@link #BLOCKS} its type.
   *
   * @return a new record
   */
  public RunRecord typed() {
    return of(toTree());
  }

  /**
   * Adds the blocks of an ordered map a writer filled, in its order ({@link #with(String, Object)}
   * each).
   *
   * @param map the blocks, never null
   * @return this record
   */
  public RunRecord withAll(Map<String, ?> map) {
    map.forEach(this::with);
    return this;
  }

  /**
   * Removes a block, so that it can be written again at the end.
   *
   * @param key the block's key
   * @return this record
   */
  public RunRecord without(String key) {
    blocks.remove(key);
    return this;
  }

  /**
   * Whether the record has a block, null or not.
   *
   * @param key the block's key
   * @return true when the file has the key
   */
  public boolean has(String key) {
    return blocks.containsKey(key);
  }

  /**
   * Adds the run's description, {@link RunInfo}'s fields unwrapped as top-level blocks in its
   * order, each left out when null: {@code product}, {@code version}, {@code gatling_version},
   * {@code simulation}, {@code prompts}, {@code workloads}, {@code target}, {@code decoding},
   * {@code load}, {@code slo}, {@code assertions}, {@code note}, {@code shard}.
   *
   * @param info the run's description, never null
   * @return this record
   */
  public RunRecord with(RunInfo info) {
    put(Run.PRODUCT, info.product());
    put(Run.VERSION, info.version());
    put(Run.GATLING_VERSION, info.gatlingVersion());
    put(Run.SIMULATION, info.simulation());
    put(Run.PROMPTS, info.prompts());
    put(Run.WORKLOADS, info.workloads());
    put(Run.TARGET, info.target());
    put(Run.DECODING, info.decoding());
    put(Run.LOAD, info.load());
    put(Run.SLO, info.slo());
    put(Run.ASSERTIONS, info.assertions());
    put(Run.NOTE, info.note());
    put(Shard.KEY, info.shard());
    return this;
  }

  /**
   * Adds how the run ended: {@code end_reason}, {@code requests_cut_by_run_end} and {@code
   * requests_cut_before_sent}.
   *
   * @param reason {@code end_reason}'s words (e.g. {@code budget_spent}), never null
   * @param cut the requests recorded as cut by the run's end, at least 0; null (left out) in the
   *     records of versions before it was counted
   * @param cutBeforeSent of those, the prompts handed out and never sent, at least 0; null (left
   *     out) in the records of versions before it was counted
   * @return this record
   */
  public RunRecord withEnd(String reason, Long cut, Long cutBeforeSent) {
    blocks.put(Run.END_REASON, reason);
    put(Run.CUT_BY_RUN_END, cut);
    put(Run.CUT_BEFORE_SENT, cutBeforeSent);
    return this;
  }

  /**
   * Adds or replaces {@code target} in its place.
   *
   * @param target where requests went, never null
   * @return this record
   */
  public RunRecord withTarget(RunInfo.Target target) {
    blocks.put(Run.TARGET, target);
    return this;
  }

  /**
   * Whether the record has no block at all (a folder without {@code llm-run.json}).
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return blocks.isEmpty();
  }

  /**
   * Replaces {@code load} in its place (or adds it at the end).
   *
   * @param load the load, never null
   * @return this record
   */
  public RunRecord withLoad(RunInfo.Load load) {
    blocks.put(Run.LOAD, load);
    return this;
  }

  /**
   * Adds what the record of prompts posted with Gatling's own {@code http()} says instead of
   * figures: {@code prompts_handed_out} (per phase) and {@code requests_sent_by: gatling-http}.
   *
   * @param handedOut the prompts handed out in each phase, never null
   * @return this record
   */
  public RunRecord withGatlingHttp(PromptsHandedOut handedOut) {
    blocks.put(PromptsHandedOut.KEY, handedOut);
    blocks.put(Run.REQUESTS_SENT_BY, "gatling-http");
    return this;
  }

  /**
   * Adds {@code target_down}, when the target went down.
   *
   * @param down the block, or null to add nothing
   * @return this record
   */
  public RunRecord withTargetDown(TargetDown down) {
    put(Run.TARGET_DOWN, down);
    return this;
  }

  /**
   * Adds {@code capacity}, when the run searched for its capacity.
   *
   * @param capacity the block, or null to add nothing
   * @return this record
   */
  public RunRecord withCapacity(Capacity capacity) {
    put(Capacity.KEY, capacity);
    return this;
  }

  /**
   * The answer of a capacity search, {@code capacity}.
   *
   * @return the block, or null when the run did not search (or it does not read)
   */
  public Capacity capacity() {
    return block(Capacity.KEY, Capacity.class);
  }

  /**
   * Adds {@code target_silent}, when the target went silent.
   *
   * @param silent the block, or null to add nothing
   * @return this record
   */
  public RunRecord withTargetSilent(TargetSilent silent) {
    put(Run.TARGET_SILENT, silent);
    return this;
  }

  /**
   * Adds what the recorder knows at the end (or replaces it in place, as a merge does): {@code
   * interrupted}, {@code started_at}, {@code ended_at} and {@code requests_recorded}, each left out
   * when null.
   *
   * @param interrupted whether the run was stopped before it ended, or null
   * @param startedAt ISO-8601 instant, or null
   * @param endedAt ISO-8601 instant, or null
   * @param requestsRecorded the requests recorded, or null
   * @return this record
   */
  public RunRecord withRecorded(
      Boolean interrupted, String startedAt, String endedAt, Long requestsRecorded) {
    put(Run.INTERRUPTED, interrupted);
    put(Run.STARTED_AT, startedAt);
    put(Run.ENDED_AT, endedAt);
    put(Run.REQUESTS_RECORDED, requestsRecorded);
    return this;
  }

  /**
   * Adds the run's figures, {@code metrics}, or replaces them in place.
   *
   * @param metrics the figures, never null
   * @return this record
   */
  public RunRecord withMetrics(MetricsSummary metrics) {
    blocks.put("metrics", metrics);
    return this;
  }

  /**
   * Adds the split of the measured requests by whether they carried images, {@code images}, or
   * replaces it in place.
   *
   * @param images the split, never null
   * @return this record
   */
  public RunRecord withImages(ImagesSummary images) {
    blocks.put(ImagesSummary.KEY, java.util.Objects.requireNonNull(images, "images"));
    return this;
  }

  /**
   * Adds or replaces the objectives, {@code slo}, in place; null removes them.
   *
   * @param slo the objectives, or null
   * @return this record
   */
  public RunRecord withSlo(Slo slo) {
    if (slo == null) {
      blocks.remove(Run.SLO);
    } else {
      blocks.put(Run.SLO, slo);
    }
    return this;
  }

  private void put(String key, Object value) {
    if (value != null) {
      blocks.put(key, value);
    }
  }

  private static Object typed(String key, JsonNode value) {
    JavaType type = BLOCKS.get(key);
    if (type == null || value == null || value.isNull()) {
      return value;
    }
    // A scalar is typed only as the file has it: a "true" string stays a string, 20.5 stays 20.5.
    Class<?> raw = type.getRawClass();
    if (raw == String.class) {
      return value.isTextual() ? value.asText() : value;
    }
    if (raw == Boolean.class) {
      return value.isBoolean() ? value.asBoolean() : value;
    }
    if (raw == Long.class) {
      return value.isIntegralNumber() && value.canConvertToLong() ? value.asLong() : value;
    }
    try {
      return JSON.convertValue(value, type);
    } catch (IllegalArgumentException e) {
      LOG.debug("llm-run.json: a {} that does not read: {}", key, e.getMessage());
      return value;
    }
  }

  /**
   * The record as one JSON tree, in the file's key order.
   *
   * @return a new tree
   */
  public ObjectNode toTree() {
    ObjectNode tree = JSON.createObjectNode();
    blocks.forEach((key, value) -> tree.set(key, node(key, value)));
    return tree;
  }

  /**
   * The typed blocks alone, each written by its type: for tests that hold each type to the file.
   *
   * @return a new tree of the blocks of {@link #BLOCKS} that read as their type
   */
  ObjectNode typedTree() {
    ObjectNode tree = JSON.createObjectNode();
    blocks.forEach(
        (key, value) -> {
          if (BLOCKS.containsKey(key) && !(value instanceof JsonNode)) {
            tree.set(key, JSON.valueToTree(value));
          }
        });
    return tree;
  }

  /**
   * The text of {@code llm-run.json}: indented, with a final line break.
   *
   * @return the text
   * @throws JsonProcessingException if a block cannot be written
   */
  public String text() throws JsonProcessingException {
    return PRETTY.writeValueAsString(toTree()) + "\n";
  }

  /**
   * Writes {@code llm-run.json}.
   *
   * @param file where, replaced if it exists
   * @throws IOException if it cannot be written
   */
  public void save(Path file) throws IOException {
    Files.writeString(file, text());
  }

  /**
   * The record as the ordered maps, lists and scalars Jackson reads the file into: for the readers
   * that have no typed block yet.
   *
   * @return a new mutable map, in the file's key order
   */
  @SuppressWarnings("unchecked")
  public Map<String, Object> asMap() {
    return JSON.convertValue(toTree(), LinkedHashMap.class);
  }

  private <T> T block(String key, Class<T> type) {
    Object value = blocks.get(key);
    return type.isInstance(value) ? type.cast(value) : null;
  }

  /**
   * The run's figures, {@code metrics}.
   *
   * @return the block, or null when the file has none (or it does not read)
   */
  public MetricsSummary metrics() {
    return block("metrics", MetricsSummary.class);
  }

  /**
   * The objectives the run was judged by, {@code slo}.
   *
   * @return the block, or null when the run had none
   */
  public Slo slo() {
    return block("slo", Slo.class);
  }

  /**
   * The prefix cache against its plan, {@code cache}.
   *
   * @return the block, or null
   */
  public CacheSummary cache() {
    return block("cache", CacheSummary.class);
  }

  /**
   * The load levels, {@code levels}.
   *
   * @return the entries, or null when the run recorded none
   */
  public List<LevelEntry> levels() {
    return list(Levels.LEVELS_KEY);
  }

  /**
   * The load levels with what the record says of them: {@code levels}, {@code levels_note}, {@code
   * levels_left_out}, {@code levels_anchor} and {@code levels_warnings}.
   *
   * @return the block, or null when the run recorded no level
   */
  public Levels levelsBlock() {
    List<LevelEntry> entries = levels();
    return entries == null
        ? null
        : new Levels(
            entries,
            block(Levels.NOTE_KEY, String.class),
            block(Levels.LEFT_OUT_KEY, Levels.LeftOut.class),
            block(Levels.ANCHOR_KEY, Levels.Anchor.class),
            list(Levels.WARNINGS_KEY));
  }

  /**
   * The run's saturation verdict, {@code saturation}: its first stepped scenario's.
   *
   * @return the block, or null when no scenario had levels enough to judge
   */
  public SaturationBlock.Run saturation() {
    return block(SaturationBlock.SATURATION_KEY, SaturationBlock.Run.class);
  }

  /**
   * Every stepped scenario's saturation verdict, {@code saturations}.
   *
   * @return the verdicts in the order judged, or null when the record has none
   */
  public List<SaturationBlock> saturations() {
    return list(SaturationBlock.SATURATIONS_KEY);
  }

  /** A block held as a list of its type, or null. */
  @SuppressWarnings("unchecked")
  private <T> List<T> list(String key) {
    return blocks.get(key) instanceof List<?> list ? (List<T>) list : null;
  }

  /**
   * What the server's Prometheus {@code /metrics} said over the run, {@code server_metrics}.
   *
   * @return the block, or null when the server was not scraped
   */
  public ServerMetrics serverMetrics() {
    return block("server_metrics", ServerMetrics.class);
  }

  /**
   * This run against the run folder of {@code llm.baseline}, {@code baseline}.
   *
   * @return the block, or null when the run had no baseline
   */
  public Baseline baseline() {
    return block("baseline", Baseline.class);
  }

  /**
   * Where the run ran and how busy the machine was with other work, {@code machine}.
   *
   * @return the block, or null when the run recorded none (runs before it was added)
   */
  public Machine machine() {
    return block("machine", Machine.class);
  }

  /**
   * The run's Gatling assertions: {@code assertions_verdict}, {@code assertions_not_checked} and
   * {@code assertion_results}.
   *
   * @return the assertions, or null when the run had none (no verdict)
   */
  @SuppressWarnings("unchecked")
  public Assertions assertions() {
    if (!(blocks.get(Assertions.VERDICT_KEY) instanceof JsonNode verdict) || !verdict.isTextual()) {
      return null;
    }
    JsonNode why = blocks.get(Assertions.NOT_CHECKED_KEY) instanceof JsonNode n ? n : null;
    return new Assertions(
        verdict.asText(),
        why == null || why.isNull() ? null : why.asText(),
        blocks.get(Assertions.RESULTS_KEY) instanceof List<?> list
            ? (List<Assertions.Result>) list
            : null);
  }

  /**
   * The run's working-set sweeps, {@code working_set_sweep}.
   *
   * @return one per sweep, or null when the run had none
   */
  public List<WorkingSetSweep> workingSetSweeps() {
    return list("working_set_sweep");
  }

  /**
   * How late the client sent and how busy it was, {@code client}.
   *
   * @return the block, or null when the file has none (a record of prompts posted with Gatling's
   *     {@code http()}, or a merge of folders without one)
   */
  public ClientSummary client() {
    return block(ClientSummary.KEY, ClientSummary.class);
  }

  /**
   * The measured requests split by whether they carried images, {@code images} (issue 45).
   *
   * @return the block, or null for a run that sent no image (and for older files)
   */
  public ImagesSummary images() {
    return block(ImagesSummary.KEY, ImagesSummary.class);
  }

  /**
   * Which shard of a test run on several machines the run was, {@code shard}.
   *
   * @return the block, or null for a run on one machine without a start barrier (and for a merged
   *     record)
   */
  public Shard shard() {
    return block(Shard.KEY, Shard.class);
  }

  /**
   * The prompts handed out by the fed workloads of a record of prompts posted with Gatling's {@code
   * http()}, {@code prompts_handed_out}.
   *
   * @return the block, or null when the run sent its prompts with {@code llm(...)} requests
   */
  public PromptsHandedOut promptsHandedOut() {
    return block(PromptsHandedOut.KEY, PromptsHandedOut.class);
  }

  /**
   * What a merge of several run folders added: {@code merged_from}, {@code shards} and {@code
   * merge_warnings}.
   *
   * @return the merge, or null when the record has none of the three (it is not a merge)
   */
  @SuppressWarnings("unchecked")
  public Merge merge() {
    Object from = blocks.get(Merge.MERGED_FROM_KEY);
    if (!(from instanceof List<?>)
        && !(blocks.get(Merge.SHARDS_KEY) instanceof List<?>)
        && !(blocks.get(Merge.WARNINGS_KEY) instanceof List<?>)) {
      return null;
    }
    return new Merge(
        from instanceof List<?> list ? (List<String>) list : null,
        blocks.get(Merge.SHARDS_KEY) instanceof List<?> shards ? (List<Merge.Folder>) shards : null,
        blocks.get(Merge.WARNINGS_KEY) instanceof List<?> warnings
            ? (List<String>) warnings
            : null);
  }

  /**
   * The run's conversation workloads, {@code conversations}.
   *
   * @return one per workload, or null when the run had none
   */
  @SuppressWarnings("unchecked")
  public List<Conversations> conversations() {
    return blocks.get(Conversations.KEY) instanceof List<?> list
        ? (List<Conversations>) list
        : null;
  }

  /**
   * The run's agent sessions, {@code sessions}.
   *
   * @return one per {@code agents()} workload, or null when the run had none
   */
  @SuppressWarnings("unchecked")
  public List<AgentSessions> sessions() {
    return blocks.get(AgentSessions.KEY) instanceof List<?> list
        ? (List<AgentSessions>) list
        : null;
  }

  private String text(String key) {
    return block(key, String.class);
  }

  /**
   * {@code product}: always {@code gatling-llm} in a file this product wrote.
   *
   * @return the product, or null when the file has none
   */
  public String product() {
    return text(Run.PRODUCT);
  }

  /**
   * {@code version}: the product's version, or {@code development build}.
   *
   * @return the version, or null
   */
  public String version() {
    return text(Run.VERSION);
  }

  /**
   * {@code gatling_version}: the Gatling version the run ran on.
   *
   * @return the version, or null
   */
  public String gatlingVersion() {
    return text(Run.GATLING_VERSION);
  }

  /**
   * {@code simulation}: the simulation's class name.
   *
   * @return the name, or null when not known
   */
  public String simulation() {
    return text(Run.SIMULATION);
  }

  /**
   * {@code prompts}: the first workload's prompts (the only one in most runs).
   *
   * @return the prompts, or null
   */
  public RunInfo.Prompts prompts() {
    return block(Run.PROMPTS, RunInfo.Prompts.class);
  }

  /**
   * {@code workloads}: every workload, when there are several.
   *
   * @return the workloads, or null when there is one (or none)
   */
  @SuppressWarnings("unchecked")
  public List<RunInfo.Prompts> workloads() {
    return blocks.get(Run.WORKLOADS) instanceof List<?> list ? (List<RunInfo.Prompts>) list : null;
  }

  /**
   * Each workload's prompts: {@code workloads} when there are several, else {@code prompts}.
   *
   * @return one per workload, in the file's order; empty when the record has none
   */
  public List<RunInfo.Prompts> allPrompts() {
    List<RunInfo.Prompts> workloads = workloads();
    if (workloads != null && !workloads.isEmpty()) {
      return workloads;
    }
    RunInfo.Prompts prompts = prompts();
    return prompts == null ? List.of() : List.of(prompts);
  }

  /**
   * {@code target}: where requests went.
   *
   * @return the target, or null
   */
  public RunInfo.Target target() {
    return block(Run.TARGET, RunInfo.Target.class);
  }

  /**
   * {@code decoding}: what every request asked for.
   *
   * @return the decoding settings, or null
   */
  public RunInfo.Decoding decoding() {
    return block(Run.DECODING, RunInfo.Decoding.class);
  }

  /**
   * {@code load}: how the load was made.
   *
   * @return the load, or null
   */
  public RunInfo.Load load() {
    return block(Run.LOAD, RunInfo.Load.class);
  }

  /**
   * {@code assertions}: the {@code llm.assert.*} settings in force and the failure-percentage
   * bounds (not their verdict: {@link #assertions()}).
   *
   * @return the settings, or null when the run had none
   */
  public RunInfo.Assertions assertionsInForce() {
    return block(Run.ASSERTIONS, RunInfo.Assertions.class);
  }

  /**
   * {@code note}: a remark on what was not measured.
   *
   * @return the note, or null
   */
  public String note() {
    return text(Run.NOTE);
  }

  /**
   * {@code end_reason}: why the run ended, e.g. {@code budget_spent}, {@code target_down}.
   *
   * @return the reason, or null in files of older versions
   */
  public String endReason() {
    return text(Run.END_REASON);
  }

  /**
   * {@code requests_cut_by_run_end}: requests recorded as cut by the run's end.
   *
   * @return the count, or null in files of older versions
   */
  public Long requestsCutByRunEnd() {
    return block(Run.CUT_BY_RUN_END, Long.class);
  }

  /**
   * {@code requests_cut_before_sent}: of the requests cut by the run's end, the prompts handed out
   * and never sent.
   *
   * @return the count, or null in files of older versions
   */
  public Long requestsCutBeforeSent() {
    return block(Run.CUT_BEFORE_SENT, Long.class);
  }

  /**
   * {@code target_down}: the target stopped answering.
   *
   * @return the block, or null when it never went down
   */
  public TargetDown targetDown() {
    return block(Run.TARGET_DOWN, TargetDown.class);
  }

  /**
   * {@code target_silent}: the target went silent with requests in flight.
   *
   * @return the block, or null when it never did
   */
  public TargetSilent targetSilent() {
    return block(Run.TARGET_SILENT, TargetSilent.class);
  }

  /**
   * {@code interrupted}: whether the run was stopped before it ended (or, in a merge, any of its
   * runs was).
   *
   * @return true or false, or null when the file does not say
   */
  public Boolean interrupted() {
    return block(Run.INTERRUPTED, Boolean.class);
  }

  /**
   * Whether the record says the run was interrupted.
   *
   * @return true only when {@code interrupted} is true
   */
  public boolean wasInterrupted() {
    return Boolean.TRUE.equals(interrupted());
  }

  /**
   * {@code started_at}: when the recorder started, ISO-8601 instant.
   *
   * @return the instant's text, or null
   */
  public String startedAt() {
    return text(Run.STARTED_AT);
  }

  /**
   * {@code ended_at}: when the record was written, ISO-8601 instant.
   *
   * @return the instant's text, or null
   */
  public String endedAt() {
    return text(Run.ENDED_AT);
  }

  /**
   * {@code requests_recorded}: the lines of {@code llm-requests.jsonl}.
   *
   * @return the count, or null
   */
  public Long requestsRecorded() {
    return block(Run.REQUESTS_RECORDED, Long.class);
  }

  /**
   * {@code requests_sent_by}: {@code gatling-http} in the record of prompts posted with Gatling's
   * own {@code http()}, where nothing is timed.
   *
   * @return the sender, or null for a run of {@code llm(...)} requests
   */
  public String requestsSentBy() {
    return text(Run.REQUESTS_SENT_BY);
  }

  /**
   * A block as the maps, lists and scalars Jackson reads its JSON into: for the readers of blocks
   * without a type of their own yet.
   *
   * @param key the block's key
   * @return the block's JSON form, or null when the record has none (or it is null)
   */
  public Object json(String key) {
    JsonNode tree = tree(key);
    return tree == null || tree.isNull() ? null : JSON.convertValue(tree, Object.class);
  }

  /**
   * A block as the JSON tree the file has (or would have) at that key: for the settings tables and
   * the readers of blocks without a type of their own.
   *
   * @param key the block's key
   * @return a new tree, or null when the record has no such key
   */
  public JsonNode tree(String key) {
    if (!blocks.containsKey(key)) {
      return null;
    }
    return node(key, blocks.get(key));
  }
}
