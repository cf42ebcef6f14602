package io.github.gatlingllm.metrics;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Per-request service-level objectives: the latency bounds a request must keep to count towards
 * goodput. Any bound may be unset (null); a request meets the SLO when it succeeded ({@link
 * RequestStatus#OK}) and every set bound holds, as vLLM's {@code vllm bench serve --goodput} and
 * AIPerf's {@code --goodput} count "good" requests.
 *
 * <p>Bounds, in milliseconds, each inclusive ({@code value <= bound}):
 *
 * <ul>
 *   <li>{@code ttftMs}: the request's TTFT (vLLM's {@code ttft}, AIPerf's {@code
 *       time_to_first_token}).
 *   <li>{@code itlMs}: <b>every</b> inter-token latency of the request, i.e. its largest gap
 *       between tokens. vLLM's goodput has no ITL bound (only {@code ttft}, {@code tpot}, {@code
 *       e2el}), and AIPerf's {@code inter_token_latency} bound is the per-request average, which is
 *       {@code tpotMs} here; this bound is the stricter "no stall longer than X" a reader sees.
 *   <li>{@code tpotMs}: the request's TPOT, {@code (E2E - TTFT) / (output tokens - 1)} (vLLM's
 *       {@code tpot}, AIPerf's {@code inter_token_latency}).
 *   <li>{@code e2eMs}: the request's end-to-end latency (vLLM's {@code e2el}, AIPerf's {@code
 *       request_latency}).
 *   <li>{@code ttfoMs}: the request's time to first output token, the first answer token after any
 *       reasoning ({@link AnswerTimings#ttfoMs()}; AIPerf's {@code time_to_first_output_token}):
 *       what a user of a reasoning model waits before the answer starts. A reply that never
 *       answered (null TTFO) misses it.
 * </ul>
 *
 * <p>A successful request that lacks a bounded measure misses it (a non-streamed request has no
 * TTFT or ITL to check), except TPOT: a streamed request with fewer than 2 output tokens has none
 * and meets a TPOT bound, as vLLM counts its TPOT as 0. A request with one token has no ITL and
 * meets an ITL bound.
 *
 * <p>Its JSON form in {@code llm-run.json}, written and read by Jackson: {@code ttft_ms, itl_ms,
 * tpot_ms, e2e_ms} (null when unset), and {@code ttfo_ms} when set; unknown keys are ignored.
 *
 * @param ttftMs the TTFT bound, or null
 * @param itlMs the bound on every inter-token latency, or null
 * @param tpotMs the TPOT bound, or null
 * @param e2eMs the E2E bound, or null
 * @param ttfoMs the TTFO bound, or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"ttft_ms", "itl_ms", "tpot_ms", "e2e_ms", "ttfo_ms"})
@JsonIgnoreProperties(ignoreUnknown = true)
public record Slo(
    Double ttftMs,
    Double itlMs,
    Double tpotMs,
    Double e2eMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double ttfoMs) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** No bound set. */
  public static final Slo NONE = new Slo(null, null, null, null, null);

  /**
   * Bounds without a TTFO bound.
   *
   * @param ttftMs the TTFT bound, or null
   * @param itlMs the bound on every inter-token latency, or null
   * @param tpotMs the TPOT bound, or null
   * @param e2eMs the E2E bound, or null
   * @throws IllegalArgumentException if a bound is not a finite number above 0
   */
  public Slo(Double ttftMs, Double itlMs, Double tpotMs, Double e2eMs) {
    this(ttftMs, itlMs, tpotMs, e2eMs, null);
  }

  /** The criterion of a request that did not succeed. */
  public static final String FAILED = "failed";

  /** The criteria, in the order they are checked and reported. */
  public static final List<String> CRITERIA = List.of("ttft", "itl", "tpot", "e2e", "ttfo");

  /**
   * Checks the bounds.
   *
   * @throws IllegalArgumentException if a bound is not a finite number above 0; the message names
   *     the bound and the value
   */
  public Slo {
    positive("ttft_ms", ttftMs);
    positive("itl_ms", itlMs);
    positive("tpot_ms", tpotMs);
    positive("e2e_ms", e2eMs);
    positive("ttfo_ms", ttfoMs);
  }

  /**
   * Whether any bound is set.
   *
   * @return false for {@link #NONE}
   */
  @JsonIgnore
  public boolean isSet() {
    return ttftMs != null || itlMs != null || tpotMs != null || e2eMs != null || ttfoMs != null;
  }

  /**
   * The bound of one criterion.
   *
   * @param criterion one of {@link #CRITERIA}
   * @return the bound in milliseconds, or null when unset
   * @throws IllegalArgumentException for another name
   */
  public Double bound(String criterion) {
    return switch (criterion) {
      case "ttft" -> ttftMs;
      case "itl" -> itlMs;
      case "tpot" -> tpotMs;
      case "e2e" -> e2eMs;
      case "ttfo" -> ttfoMs;
      default -> throw new IllegalArgumentException("unknown SLO criterion " + criterion);
    };
  }

  /**
   * What a request missed.
   *
   * @param r the request, never null
   * @return empty when it meets the SLO; {@code [failed]} when it did not succeed; else the names
   *     of the criteria it missed, in the order of {@link #CRITERIA}
   */
  public List<String> missed(RequestRecord r) {
    if (r.status() != RequestStatus.OK) {
      return List.of(FAILED);
    }
    List<String> missed = new ArrayList<>(2);
    if (ttftMs != null && (r.ttftMs() == null || r.ttftMs() > ttftMs)) {
      missed.add("ttft");
    }
    if (itlMs != null && !itlHolds(r)) {
      missed.add("itl");
    }
    if (tpotMs != null) {
      boolean none = r.tpotMs() == null;
      boolean exempt = none && r.ttftMs() != null; // streamed, fewer than 2 output tokens
      if (none ? !exempt : r.tpotMs() > tpotMs) {
        missed.add("tpot");
      }
    }
    if (e2eMs != null && (r.e2eMs() == null || r.e2eMs() > e2eMs)) {
      missed.add("e2e");
    }
    if (ttfoMs != null && (r.ttfoMs() == null || r.ttfoMs() > ttfoMs)) {
      missed.add("ttfo");
    }
    return missed.isEmpty() ? List.of() : Collections.unmodifiableList(missed);
  }

  private boolean itlHolds(RequestRecord r) {
    if (r.itlMs() == null) {
      return false;
    }
    for (Double v : r.itlMs()) {
      if (v > itlMs) {
        return false;
      }
    }
    return true;
  }

  /**
   * One criterion as text, e.g. {@code ttft<=500ms}.
   *
   * @param criterion one of {@link #CRITERIA}, or {@link #FAILED}
   * @return the text
   */
  public String describe(String criterion) {
    if (FAILED.equals(criterion)) {
      return "failed";
    }
    Double bound = bound(criterion);
    return criterion + "<=" + (bound == null ? "unset" : number(bound) + "ms");
  }

  /**
   * The set bounds as text, e.g. {@code ttft<=500ms, e2e<=2000ms}.
   *
   * @return the text, {@code none} when no bound is set
   */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (String c : CRITERIA) {
      if (bound(c) != null) {
        parts.add(describe(c));
      }
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  /**
   * Reads the JSON form ({@code llm-run.json}'s {@code slo}, as Jackson reads it into a map).
   *
   * @param record the map, or null
   * @return the SLO; {@link #NONE} for null
   * @throws IllegalArgumentException if a value is not a number above 0; the message names it
   */
  public static Slo fromRecord(Map<?, ?> record) {
    if (record == null) {
      return NONE;
    }
    try {
      return JSON.convertValue(record, Slo.class);
    } catch (IllegalArgumentException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      throw new IllegalArgumentException("slo: " + root.getMessage(), e);
    }
  }

  static String number(double v) {
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }

  private static void positive(String field, Double value) {
    if (value != null && !(value > 0 && Double.isFinite(value))) {
      throw new IllegalArgumentException(
          field + " must be a finite number of milliseconds > 0 or unset, got " + value);
    }
  }
}
