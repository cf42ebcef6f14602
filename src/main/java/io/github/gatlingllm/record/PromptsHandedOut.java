package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * The run record's {@code prompts_handed_out}: in a record of prompts posted with Gatling's own
 * {@code http()} (no {@code llm(...)} request ran, so nothing is timed), how many prompts the fed
 * workloads handed out in each phase, over every workload. Written by {@code protocol.FedRuns}.
 * Either count is left out when null; keys this version does not know are kept in {@link #extra}.
 *
 * @param warmup prompts handed out in the warmup phase, or null when the file has none
 * @param measured prompts handed out in the measured phase, or null when the file has none
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"warmup", "measured"})
public record PromptsHandedOut(Long warmup, Long measured, @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** The key of the block in {@code llm-run.json}. */
  public static final String KEY = "prompts_handed_out";

  /** Normalises {@code extra} to an ordered map. */
  public PromptsHandedOut {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The counts of one run.
   *
   * @param warmup warmup prompts handed out
   * @param measured measured prompts handed out
   */
  public PromptsHandedOut(long warmup, long measured) {
    this(warmup, measured, null);
  }
}
