package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's Gatling assertions as the run record holds them, in three top-level keys of {@code
 * llm-run.json}: {@code assertions_verdict}, then {@code assertions_not_checked} (why they were not
 * checked) or {@code assertion_results} (each assertion's verdict). Written by {@code
 * protocol.AssertionCheck} at the run's end; a run without assertions has none of the keys.
 *
 * @param verdict {@value #PASSED}, {@value #FAILED} or {@value #NOT_CHECKED}, never null
 * @param notChecked why the assertions were not checked, one line; null when checked
 * @param results each assertion's verdict in Gatling's order; null when not checked
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Assertions(String verdict, String notChecked, List<Result> results) {

  /** Every assertion passed. */
  public static final String PASSED = "passed";

  /** Some assertion failed: Gatling fails the build. */
  public static final String FAILED = "failed";

  /** The assertions could not be checked; {@link #notChecked()} says why. */
  public static final String NOT_CHECKED = "not_checked";

  /** The key of {@link #verdict()}. */
  static final String VERDICT_KEY = "assertions_verdict";

  /** The key of {@link #notChecked()}. */
  static final String NOT_CHECKED_KEY = "assertions_not_checked";

  /** The key of {@link #results()}. */
  static final String RESULTS_KEY = "assertion_results";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Checks the verdict.
   *
   * @throws IllegalArgumentException naming {@code verdict} when it is null
   */
  public Assertions {
    if (verdict == null) {
      throw new IllegalArgumentException(
          "verdict is null: it is one of passed, failed, not_checked");
    }
  }

  /**
   * Assertions that could not be checked.
   *
   * @param why why, one line
   * @return the value
   */
  public static Assertions notChecked(String why) {
    return new Assertions(NOT_CHECKED, why, null);
  }

  /**
   * Assertions checked.
   *
   * @param results each assertion's verdict, in Gatling's order
   * @return the value, {@value #PASSED} when every one passed
   */
  public static Assertions checked(List<Result> results) {
    boolean all = results.stream().allMatch(Result::passed);
    return new Assertions(all ? PASSED : FAILED, null, List.copyOf(results));
  }

  /**
   * The failed assertions.
   *
   * @return how many of {@link #results()} did not pass; 0 when not checked
   */
  public int failed() {
    return results == null ? 0 : (int) results.stream().filter(r -> !r.passed()).count();
  }

  /**
   * The record's keys of these assertions, in the file's order: {@code assertions_verdict}, then
   * {@code assertions_not_checked} or {@code assertion_results}.
   *
   * @return a new ordered map, Jackson-ready
   */
  public Map<String, Object> fields() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(VERDICT_KEY, verdict);
    if (notChecked != null) {
      out.put(NOT_CHECKED_KEY, notChecked);
    }
    if (results != null) {
      out.put(
          RESULTS_KEY,
          JSON.convertValue(results, new TypeReference<List<Map<String, Object>>>() {}));
    }
    return out;
  }

  /**
   * One assertion's verdict, every field written (null when not known).
   *
   * @param assertion the assertion as Gatling words it, e.g. {@code chat E2E: percentage of failed
   *     events is less than 1.0}
   * @param passed whether it held
   * @param actual the figure Gatling checked it against, or null when it could not
   * @param error why there is no figure (e.g. the request name matched none), or null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({"assertion", "passed", "actual", "error"})
  public record Result(String assertion, boolean passed, Double actual, String error) {}
}
