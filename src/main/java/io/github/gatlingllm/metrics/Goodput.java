package io.github.gatlingllm.metrics;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SLO attainment and goodput of a set of requests (one group, or the measured phase overall).
 *
 * <p>Goodput as vLLM's {@code vllm bench serve} ({@code request_goodput}: requests that met every
 * bound, per second of the benchmark) and AIPerf ({@code goodput}: completed requests that meet the
 * constraints, per second): here per second of the group's window (first request start to last
 * request end, as {@link GroupSummary#requestsPerS()}), and also as output tokens per second of the
 * requests that met it.
 *
 * <p>Its JSON form in {@code llm-run.json}, written and read by Jackson: {@code slo} ({@link Slo}'s
 * form), {@code offered}, {@code met}, {@code failed}, {@code missed} (criterion to count), {@code
 * attainment}, {@code goodput_requests_per_s}, {@code goodput_output_tokens_per_s}; nulls written.
 *
 * @param slo the objectives; {@link Slo#NONE} when null (a record that lacks them)
 * @param offered every request of the group, whatever its status
 * @param met the requests that met the SLO (see {@link Slo#missed})
 * @param failed the requests that did not succeed
 * @param missed per criterion of {@link Slo#CRITERIA}, the successful requests that missed it (one
 *     request may miss several); every set criterion present; unmodifiable
 * @param attainment {@code met / offered}, or null when nothing was offered
 * @param requestsPerS {@code met} per second of the window, or null when the window is empty
 * @param outputTokensPerS output tokens of the requests that met the SLO per second of the window,
 *     or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
  "slo",
  "offered",
  "met",
  "failed",
  "missed",
  "attainment",
  "goodput_requests_per_s",
  "goodput_output_tokens_per_s"
})
@JsonIgnoreProperties(ignoreUnknown = true)
public record Goodput(
    Slo slo,
    long offered,
    long met,
    long failed,
    Map<String, Long> missed,
    Double attainment,
    @JsonProperty("goodput_requests_per_s") Double requestsPerS,
    @JsonProperty("goodput_output_tokens_per_s") Double outputTokensPerS) {

  /**
   * Checks the counts and copies {@code missed} (null: none).
   *
   * @throws IllegalArgumentException if a count is negative or {@code met + failed > offered}
   */
  public Goodput {
    slo = slo == null ? Slo.NONE : slo;
    if (offered < 0 || met < 0 || failed < 0 || met + failed > offered) {
      throw new IllegalArgumentException(
          "goodput counts must be >= 0 with met + failed <= offered, got offered "
              + offered
              + ", met "
              + met
              + ", failed "
              + failed);
    }
    missed = Collections.unmodifiableMap(new LinkedHashMap<>(missed == null ? Map.of() : missed));
  }

  /**
   * Why the attainment is below a minimum, for a failed assertion.
   *
   * @param minRatio the least attainment allowed, in (0, 1]
   * @return null when {@code attainment >= minRatio}; else one line such as {@code goodput ratio
   *     0.82 < 0.95 (slo ttft<=500ms, e2e<=2000ms): 14 of 100 requests missed ttft<=500ms, 3 missed
   *     e2e<=2000ms, 1 failed}
   */
  public String shortfall(double minRatio) {
    if (attainment != null && attainment >= minRatio) {
      return null;
    }
    StringBuilder text =
        new StringBuilder("goodput ratio ")
            .append(attainment == null ? "unknown" : ratio(attainment))
            .append(" < ")
            .append(Slo.number(minRatio))
            .append(" (slo ")
            .append(slo)
            .append("): ");
    if (offered == 0) {
      return text.append("no requests were measured").toString();
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Long> e : missed.entrySet()) {
      if (e.getValue() > 0) {
        parts.add(
            e.getValue()
                + (parts.isEmpty() ? " of " + offered + " requests" : "")
                + " missed "
                + slo.describe(e.getKey()));
      }
    }
    if (failed > 0) {
      parts.add(failed + (parts.isEmpty() ? " of " + offered + " requests" : "") + " failed");
    }
    return text.append(String.join(", ", parts)).toString();
  }

  /**
   * One line for the console, e.g. {@code SLO ttft<=500ms: 182 of 200 requests met it (attainment
   * 0.91); goodput 12.30 requests/s, 394.00 output tokens/s}.
   *
   * <p>With no request judged (every one was cut by the run's end, or none was sent), the line says
   * so: {@code SLO ttft<=500ms: no request was judged against it (requests cut by the run's end
   * never are)}.
   *
   * @return the line
   */
  public String describe() {
    if (offered == 0) {
      return "SLO "
          + slo
          + ": no request was judged against it (requests cut by the run's end never are)";
    }
    return String.format(
        Locale.ROOT,
        "SLO %s: %d of %d requests met it (attainment %s); goodput %s requests/s, %s output"
            + " tokens/s",
        slo,
        met,
        offered,
        attainment == null ? "unknown" : ratio(attainment),
        requestsPerS == null ? "unknown" : String.format(Locale.ROOT, "%.2f", requestsPerS),
        outputTokensPerS == null
            ? "unknown"
            : String.format(Locale.ROOT, "%.2f", outputTokensPerS));
  }

  private static String ratio(double v) {
    return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", ".0");
  }
}
