package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A block that keeps the keys a newer version wrote and this one does not know, so that a file
 * loaded and saved again loses nothing: its record reads them with {@code @JsonAnySetter} on its
 * {@code extra} component into {@link #ordered an ordered map}, and writes them back after its own
 * keys, in the order read ({@link #extra()}, or its block's writer). (A block read through a
 * delegating creator keeps them with {@link NewerKeys} instead.)
 */
interface KeepsNewerKeys {

  /**
   * The keys of newer versions, as read.
   *
   * @return key to value, in the order read; never null, empty for a file of this version
   */
  @JsonAnyGetter
  Map<String, Object> extra();

  /**
   * {@code extra} as a block's compact constructor keeps it.
   *
   * @param extra the keys read, or null
   * @return a new ordered map of them, empty for null
   */
  static Map<String, Object> ordered(Map<String, Object> extra) {
    return extra == null ? new LinkedHashMap<>() : new LinkedHashMap<>(extra);
  }
}
