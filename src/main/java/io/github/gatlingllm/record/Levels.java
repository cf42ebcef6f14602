package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's load levels as the run record holds them, in five top-level keys of {@code
 * llm-run.json}, in this order: {@code levels} (one {@link LevelEntry} per level), {@code
 * levels_note} (which measured requests the levels hold, in a sentence), {@code levels_left_out}
 * ({@link LeftOut}), {@code levels_anchor} ({@link Anchor}, when the root scenarios' start is
 * known) and {@code levels_warnings} (when a level was too short to trust). Written by {@code
 * levels.LevelTracker#toRecord} and {@code protocol.LevelWatch} at the run's end; a run without a
 * level has none of the keys.
 *
 * @param entries the levels in start order, never null
 * @param note the sentence of {@code levels_note}, or null (absent) in a file without it
 * @param leftOut the measured requests in no level, or null (absent) in a file without it
 * @param anchor where the root scenarios' profiles start, or null (absent) when not known
 * @param warnings one line per level too short to trust, or null (absent) when none is
 */
public record Levels(
    List<LevelEntry> entries, String note, LeftOut leftOut, Anchor anchor, List<String> warnings) {

  /** The key of {@link #entries()}. */
  static final String LEVELS_KEY = "levels";

  /** The key of {@link #note()}. */
  static final String NOTE_KEY = "levels_note";

  /** The key of {@link #leftOut()}. */
  static final String LEFT_OUT_KEY = "levels_left_out";

  /** The key of {@link #anchor()}. */
  static final String ANCHOR_KEY = "levels_anchor";

  /** The key of {@link #warnings()}. */
  static final String WARNINGS_KEY = "levels_warnings";

  /**
   * Copies the lists.
   *
   * @throws IllegalArgumentException naming {@code entries} when it is null
   */
  public Levels {
    if (entries == null) {
      throw new IllegalArgumentException("entries is null: a run with levels has a list of them");
    }
    entries = List.copyOf(entries);
    warnings = warnings == null ? null : List.copyOf(warnings);
  }

  /**
   * The same levels with the warnings about levels too short to trust.
   *
   * @param lines one line per level, or empty for none
   * @return the levels, {@link #warnings()} null when {@code lines} is empty
   */
  public Levels withWarnings(List<String> lines) {
    return new Levels(entries, note, leftOut, anchor, lines.isEmpty() ? null : lines);
  }

  /**
   * Whether some measured requests are in no level.
   *
   * @return true when {@link #leftOut()} counts some, or when the record does not say
   */
  public boolean leftOutAny() {
    return leftOut == null || leftOut.any();
  }

  /**
   * The record's keys of these levels, in the file's order: {@code levels}, {@code levels_note},
   * {@code levels_left_out}, {@code levels_anchor}, {@code levels_warnings}, each when set.
   *
   * @return a new ordered map of the typed values, Jackson-ready
   */
  public Map<String, Object> fields() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(LEVELS_KEY, entries);
    putSet(out, NOTE_KEY, note);
    putSet(out, LEFT_OUT_KEY, leftOut);
    putSet(out, ANCHOR_KEY, anchor);
    putSet(out, WARNINGS_KEY, warnings);
    return out;
  }

  private static void putSet(Map<String, Object> out, String key, Object value) {
    if (value != null) {
      out.put(key, value);
    }
  }

  /**
   * {@code levels_left_out}: the measured requests in no level, by why, and what the levels and
   * these add up to. Keys of newer versions are kept in {@link #extra} and written after the
   * others.
   *
   * @param ramps started during a ramp between levels
   * @param outside started outside the profile (before its first level or after its last)
   * @param unplaced started in a scenario without levels
   * @param notSent handed out and never sent (cut by the run's end); null (absent) in older files
   * @param measuredTotal the requests in levels plus all of these: the run's measured requests
   * @param extra keys of newer versions, in the file's order; never null (empty for none)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"ramps", "outside", "unplaced", "not_sent", "measured_total"})
  public record LeftOut(
      long ramps,
      long outside,
      long unplaced,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long notSent,
      long measuredTotal,
      @JsonIgnore Map<String, Object> extra) {

    /** Keeps the keys of newer versions in their order, unmodifiable. */
    public LeftOut {
      extra = NewerKeys.copy(extra);
    }

    /**
     * Read from the file: the keys of newer versions kept in their order.
     *
     * @param m the block as Jackson read it
     * @return the block
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static LeftOut of(Map<String, Object> m) {
      LeftOut own = NewerKeys.read(m, LeftOut.class);
      return new LeftOut(
          own.ramps,
          own.outside,
          own.unplaced,
          own.notSent,
          own.measuredTotal,
          NewerKeys.of(m, LeftOut.class));
    }

    /**
     * Keys of newer versions, written last.
     *
     * @return the keys in their order, never null
     */
    @JsonAnyGetter
    public Map<String, Object> extraFields() {
      return extra;
    }

    /**
     * Whether any measured request is in no level.
     *
     * @return true when any count is above 0
     */
    public boolean any() {
      return ramps + outside + unplaced + (notSent == null ? 0 : notSent) > 0;
    }
  }

  /**
   * {@code levels_anchor}: where the root scenarios' injection profiles start, from which every
   * level's start and end are counted. Keys of newer versions are kept in {@link #extra}.
   *
   * @param epochMs the start, epoch milliseconds
   * @param source how it was found, in words (Gatling's injector start, or an estimate)
   * @param extra keys of newer versions, in the file's order; never null (empty for none)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"epoch_ms", "source"})
  public record Anchor(long epochMs, String source, @JsonIgnore Map<String, Object> extra) {

    /** Keeps the keys of newer versions in their order, unmodifiable. */
    public Anchor {
      extra = NewerKeys.copy(extra);
    }

    /**
     * Read from the file: the keys of newer versions kept in their order.
     *
     * @param m the block as Jackson read it
     * @return the block
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Anchor of(Map<String, Object> m) {
      Anchor own = NewerKeys.read(m, Anchor.class);
      return new Anchor(own.epochMs, own.source, NewerKeys.of(m, Anchor.class));
    }

    /**
     * Keys of newer versions, written last.
     *
     * @return the keys in their order, never null
     */
    @JsonAnyGetter
    public Map<String, Object> extraFields() {
      return extra;
    }
  }
}
