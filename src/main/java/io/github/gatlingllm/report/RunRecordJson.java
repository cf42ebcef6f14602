package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a block of the run record ({@code llm-run.json}) into its typed class. A record in memory
 * holds a block either as that class (written by this run or recomputed by {@link RunReport}) or as
 * the map Jackson read from a file; both read the same. Each class states its own JSON form
 * (Jackson annotations: snake-case names, the file's key order, nulls left out or written as the
 * file has them) and ignores keys it does not know, so files of older and newer versions load.
 */
public final class RunRecordJson {

  private static final Logger LOG = LoggerFactory.getLogger(RunRecordJson.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper PRETTY =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private RunRecordJson() {}

  /**
   * The text of {@code llm-run.json}: the record as Jackson writes it, indented, with a final line
   * break. Blocks held as their classes are written in their JSON form, so a record read back from
   * a file and written again is the same text.
   *
   * @param record the run record, its blocks as classes or as maps
   * @return the file's text
   * @throws JsonProcessingException if a value cannot be written
   */
  public static String text(Map<String, Object> record) throws JsonProcessingException {
    return PRETTY.writeValueAsString(record) + "\n";
  }

  /**
   * A block as its class.
   *
   * @param <T> the class
   * @param value the block as the record holds it (an instance of {@code type}, or its JSON form as
   *     maps, lists and scalars), or null
   * @param type the block's class
   * @return the block, or null when {@code value} is null or does not read as {@code type} (a
   *     hand-edited file: the page shows what it can, as for a missing block)
   */
  public static <T> T read(Object value, Class<T> type) {
    if (value == null) {
      return null;
    }
    if (type.isInstance(value)) {
      return type.cast(value);
    }
    try {
      return JSON.convertValue(value, type);
    } catch (IllegalArgumentException e) {
      LOG.debug("llm-run.json: a {} that does not read: {}", type.getSimpleName(), e.getMessage());
      return null;
    }
  }
}
