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
          Map.entry(ClientSummary.KEY, JSON.constructType(ClientSummary.class)),
          Map.entry(Shard.KEY, JSON.constructType(Shard.class)),
          Map.entry(PromptsHandedOut.KEY, JSON.constructType(PromptsHandedOut.class)),
          Map.entry(
              Merge.MERGED_FROM_KEY, JSON.constructType(new TypeReference<List<String>>() {})),
          Map.entry(
              Merge.SHARDS_KEY, JSON.constructType(new TypeReference<List<Merge.Folder>>() {})),
          Map.entry(Merge.WARNINGS_KEY, JSON.constructType(new TypeReference<List<String>>() {})));

  /** Each top-level key in the file's order: a typed block, or the file's JSON tree. */
  private final LinkedHashMap<String, Object> blocks = new LinkedHashMap<>();

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
      record.blocks.put(e.getKey(), typed(e.getKey(), e.getValue()));
    }
    return record;
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

  private static Object typed(String key, JsonNode value) {
    JavaType type = BLOCKS.get(key);
    if (type == null || value == null || value.isNull()) {
      return value;
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
    blocks.forEach(
        (key, value) ->
            tree.set(key, value instanceof JsonNode node ? node : JSON.valueToTree(value)));
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
}
