package io.github.gatlingllm.stats;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.type.MapType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON form of a Jackson-annotated record (such as {@link Distribution}) as an ordered map, for
 * the blocks of {@code llm-run.json} that are still assembled as maps: Jackson writes the record
 * and reads it back into a map, so the keys, their order and the values are those Jackson writes
 * for the record itself (whole numbers as {@link Long}, as the record's {@code long} fields).
 */
public final class JsonForm {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_LONG_FOR_INTS);
  private static final MapType MAP =
      JSON.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, Object.class);

  private JsonForm() {}

  /**
   * The map form of a record.
   *
   * @param record a Jackson-serializable object whose JSON form is an object, never null
   * @return an ordered, mutable map of its JSON form (nested objects as maps, arrays as lists)
   * @throws IllegalArgumentException if its JSON form is not an object
   */
  public static Map<String, Object> of(Object record) {
    return JSON.convertValue(record, MAP);
  }
}
