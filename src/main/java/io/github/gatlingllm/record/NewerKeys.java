package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the keys of newer versions of a block in the file's order. A block type reads itself with a
 * delegating {@code of(Map)} creator: its own fields through {@link #read} (its canonical
 * constructor, unknown keys ignored), the others through {@link #of}. (Jackson hands a record's
 * {@code @JsonAnySetter} creator field over as a {@link java.util.HashMap}, in no set order, and
 * cannot fill it beside an unwrapped field.)
 */
final class NewerKeys {

  /** Reads a type's own fields with its canonical constructor, its {@code of(Map)} turned off. */
  private static final ObjectMapper FIELDS =
      new ObjectMapper()
          .addMixIn(LevelEntry.class, Own.class)
          .addMixIn(CacheSummary.class, Own.class)
          .addMixIn(SaturationBlock.class, Own.class)
          .addMixIn(Levels.LeftOut.class, Own.class)
          .addMixIn(Levels.Anchor.class, Own.class);

  private NewerKeys() {}

  /**
   * A block's own fields.
   *
   * @param <T> the block's type, one of those {@link #FIELDS} knows
   * @param m the block as Jackson read it
   * @param type its type
   * @return the block without its newer keys
   * @throws IllegalArgumentException if a value does not read as its field's type
   */
  static <T> T read(Map<String, Object> m, Class<T> type) {
    return FIELDS.convertValue(m, type);
  }

  /**
   * The keys no type of a block knows, in the file's order.
   *
   * @param m the block as Jackson read it
   * @param types the block's type and the types it unwraps, each with a {@link JsonPropertyOrder}
   *     of every key it writes
   * @return a new ordered map
   */
  static Map<String, Object> of(Map<String, Object> m, Class<?>... types) {
    Set<String> known = new HashSet<>();
    for (Class<?> type : types) {
      known.addAll(Arrays.asList(type.getAnnotation(JsonPropertyOrder.class).value()));
    }
    Map<String, Object> extra = new LinkedHashMap<>(m);
    extra.keySet().removeAll(known);
    return extra;
  }

  /**
   * An ordered, unmodifiable copy.
   *
   * @param extra the keys, or null for none
   * @return the copy, never null
   */
  static Map<String, Object> copy(Map<String, Object> extra) {
    return extra == null
        ? Map.of()
        : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(extra));
  }

  /** Turns a type's {@code of(Map)} off for {@link #FIELDS}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  private abstract static class Own {
    @JsonCreator(mode = JsonCreator.Mode.DISABLED)
    static Object of(Map<String, Object> m) {
      throw new UnsupportedOperationException("a mix-in");
    }
  }
}
