package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.gatlingllm.metrics.Slo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code llm-run.json} says of a run besides its metrics (which {@code report.RunRecorder}
 * adds): the product, the prompts of each workload, the target, the decoding settings, the load and
 * the SLO. Field names are snake case in the file; users' scripts read them, so fields are only
 * ever added, never renamed or dropped. In the record its fields are top-level keys ({@link
 * RunRecord#with(RunInfo)} puts each in turn), and its parts are typed blocks of their own ({@link
 * RunRecord#prompts()}, {@link RunRecord#target()}...). A part's numbers are boxed and left out
 * when null, so a file of an older version that lacks one is written again without it; keys of
 * newer versions are kept in each part's {@code extra} map and written after the others.
 *
 * @param product always {@code gatling-llm}
 * @param version the product's version, or {@code development build}
 * @param gatlingVersion the Gatling version the run ran on
 * @param simulation the simulation's class name, or null when not known
 * @param prompts the first workload's prompts (the only one in most runs)
 * @param workloads every workload, when there are several; else null (absent)
 * @param target where requests went
 * @param decoding what every request asked for
 * @param load how the load was made
 * @param slo the SLO ({@link Slo}'s JSON form), or null (absent) when none is set
 * @param assertions the goodput assertion's ratio, or null (absent) when no SLO is set
 * @param note a remark on what was not measured, or null (absent)
 * @param shard which shard of a test run on several machines this run was, and its start barrier;
 *     null (absent) for a run on one machine without {@code llm.startAt}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunInfo(
    String product,
    String version,
    String gatlingVersion,
    String simulation,
    Prompts prompts,
    List<Prompts> workloads,
    Target target,
    Decoding decoding,
    Load load,
    Slo slo,
    Assertions assertions,
    String note,
    Shard shard) {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * One workload's prompts.
   *
   * @param workload its name
   * @param spec the prompt spec's record ({@code mode}, and for shared-prefix {@code
   *     shared_prefix_ratio}, {@code prefix_groups} and, when the warmup warms the measured groups,
   *     {@code warm_groups: true})
   * @param generatorVersion the prompt generator's version
   * @param seed the seed
   * @param caseId the case id
   * @param inputTokens the prompt size aimed for, in tokens
   * @param tokenizer the tokenizer's identity
   * @param phases {@code warmup} and {@code measured}, each with its requests and digest
   * @param plannedSharedShare the shared-prefix ratio, or null (written as null, as every field but
   *     the last two)
   * @param requestNames the names of the LLM requests that sent its prompts, in first-use order
   * @param seedAuto true when the seed was picked from the clock ({@code llm.seed=auto}); null
   *     (absent) otherwise
   * @param trace for a trace replay ({@code trace(path)}): {@code path}, {@code rows}, the file's
   *     {@code sha256}, {@code block_tokens}, {@code time_scale}, {@code timed}, {@code
   *     duration_ms}, {@code rows_sent}, {@code rows_skipped}, {@code infinite_cache_hit_ratio},
   *     {@code seed}, {@code case_id}, {@code digest} (the measured phase's) and the rows' {@code
   *     input_length_min}, {@code input_length_max}, {@code output_length_min} and {@code
   *     output_length_max} (tokens, over every row of the file); null (absent) otherwise
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "workload",
    "spec",
    "generator_version",
    "seed",
    "case_id",
    "input_tokens",
    "tokenizer",
    "phases",
    "planned_shared_share",
    "request_names",
    "seed_auto",
    "trace"
  })
  public record Prompts(
      String workload,
      Map<String, Object> spec,
      Integer generatorVersion,
      Long seed,
      String caseId,
      Integer inputTokens,
      Map<String, Object> tokenizer,
      Map<String, Phase> phases,
      Double plannedSharedShare,
      List<String> requestNames,
      @JsonInclude(JsonInclude.Include.NON_NULL) Boolean seedAuto,
      @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> trace,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Prompts {
      extra = KeepsNewerKeys.ordered(extra);
    }

    /**
     * A workload's prompts as this version writes them (no other keys).
     *
     * @param workload its name
     * @param spec the prompt spec's record
     * @param generatorVersion the generator's version
     * @param seed the seed
     * @param caseId the case id
     * @param inputTokens the prompt size aimed for, tokens
     * @param tokenizer the tokenizer's identity
     * @param phases each phase's requests and digest
     * @param plannedSharedShare the shared-prefix ratio, or null
     * @param requestNames the requests that sent its prompts
     * @param seedAuto true with {@code llm.seed=auto}, else null
     * @param trace the trace replay's facts, or null
     */
    public Prompts(
        String workload,
        Map<String, Object> spec,
        int generatorVersion,
        long seed,
        String caseId,
        int inputTokens,
        Map<String, Object> tokenizer,
        Map<String, Phase> phases,
        Double plannedSharedShare,
        List<String> requestNames,
        Boolean seedAuto,
        Map<String, Object> trace) {
      this(
          workload,
          spec,
          generatorVersion,
          seed,
          caseId,
          inputTokens,
          tokenizer,
          phases,
          plannedSharedShare,
          requestNames,
          seedAuto,
          trace,
          null);
    }

    /**
     * The prompt spec's {@code mode} ({@code shared-prefix}, {@code file}, {@code trace}...).
     *
     * @return the mode, or null when the spec does not say
     */
    public String mode() {
      return spec != null && spec.get("mode") instanceof String m ? m : null;
    }

    /**
     * Each phase's digest, by phase name, in the file's order: what two runs compare to know they
     * sent the same prompts.
     *
     * @return phase name to digest (null when the phase sent none); empty without phases
     */
    public Map<String, String> digests() {
      Map<String, String> out = new LinkedHashMap<>();
      if (phases != null) {
        phases.forEach((name, phase) -> out.put(name, phase == null ? null : phase.digest()));
      }
      return out;
    }
  }

  /**
   * One phase of a workload.
   *
   * @param requests prompts handed out
   * @param digest the phase digest over them, in index order
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Phase(long requests, String digest) {}

  /**
   * Where requests went.
   *
   * @param baseUrl the base URL without credentials
   * @param embeddedSimulator whether it was the embedded simulator
   * @param model the model sent, or null (absent)
   * @param endpoint the protocol's default endpoint ({@code chat}, {@code completions}...)
   * @param server what the server said about itself, or null (absent) for the simulator
   * @param simulator the embedded simulator's settings ({@code base_ttft_ms}, {@code
   *     prefill_us_per_token}, {@code decode_ms_per_token}, {@code max_concurrent}, {@code
   *     tokens_per_chunk}, {@code block_size}, {@code cache_blocks}, {@code context_length}, {@code
   *     reasoning_tokens}), so a comparison can name a difference; null (absent) for a server and
   *     in runs before it was recorded
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"base_url", "embedded_simulator", "model", "endpoint", "server", "simulator"})
  public record Target(
      String baseUrl,
      Boolean embeddedSimulator,
      String model,
      String endpoint,
      Map<String, Object> server,
      Map<String, Object> simulator,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Target {
      extra = KeepsNewerKeys.ordered(extra);
    }

    /**
     * The target as this version writes it.
     *
     * @param baseUrl the base URL without credentials
     * @param embeddedSimulator whether it was the embedded simulator
     * @param model the model sent
     * @param endpoint the protocol's default endpoint
     * @param server what the server said about itself, or null
     * @param simulator the embedded simulator's settings, or null for a server
     */
    public Target(
        String baseUrl,
        boolean embeddedSimulator,
        String model,
        String endpoint,
        Map<String, Object> server,
        Map<String, Object> simulator) {
      this(baseUrl, embeddedSimulator, model, endpoint, server, simulator, null);
    }
  }

  /**
   * What every request asked for.
   *
   * @param maxTokens the protocol's {@code max_tokens}
   * @param ignoreEos whether {@code ignore_eos: true} was sent
   * @param temperature the temperature sent, or null (written as null)
   * @param stream whether answers were streamed
   * @param includeUsage whether {@code stream_options.include_usage} was sent
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"max_tokens", "ignore_eos", "temperature", "stream", "include_usage"})
  public record Decoding(
      Integer maxTokens,
      Boolean ignoreEos,
      @JsonInclude(JsonInclude.Include.ALWAYS) Double temperature,
      Boolean stream,
      Boolean includeUsage,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Decoding {
      extra = KeepsNewerKeys.ordered(extra);
    }

    /**
     * The decoding settings as this version writes them.
     *
     * @param maxTokens the protocol's {@code max_tokens}
     * @param ignoreEos whether {@code ignore_eos: true} was sent
     * @param temperature the temperature, or null
     * @param stream whether answers were streamed
     * @param includeUsage whether usage was asked for in the stream
     */
    public Decoding(
        int maxTokens,
        boolean ignoreEos,
        Double temperature,
        boolean stream,
        boolean includeUsage) {
      this(maxTokens, ignoreEos, temperature, stream, includeUsage, null);
    }
  }

  /**
   * How the load was made.
   *
   * @param concurrency the most LLM requests in flight at once, as seen by the action
   * @param warmupRequests warmup requests handed out, over all workloads
   * @param requests measured requests handed out, over all workloads
   * @param timeoutMs {@code llm.timeout}, ms
   * @param connections {@code shared}, {@code per-user} or {@code per-request}
   * @param usersEndedByBudget virtual users that ended because their workload's budget was spent
   * @param staleConnectionResends requests sent once more on a new connection because the pooled
   *     connection they were first written to closed before any answer
   * @param profiles descriptions of the injection, when known (empty otherwise)
   * @param injection Gatling's injection read back, one entry per scenario ({@code levels}' {@code
   *     InjectionRecords}), or null (absent) when not read
   * @param peakConcurrency the most requests in flight at once over the run, or null (absent)
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({
    "concurrency",
    "warmup_requests",
    "requests",
    "timeout_ms",
    "connections",
    "users_ended_by_budget",
    "stale_connection_resends",
    "profiles",
    "injection",
    "peak_concurrency"
  })
  public record Load(
      Long concurrency,
      Long warmupRequests,
      Long requests,
      Long timeoutMs,
      @JsonInclude(JsonInclude.Include.ALWAYS) String connections,
      Long usersEndedByBudget,
      Long staleConnectionResends,
      List<String> profiles,
      List<Object> injection,
      Long peakConcurrency,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Load {
      extra = KeepsNewerKeys.ordered(extra);
    }

    /**
     * The load as the run's end first writes it, before the injection is read back.
     *
     * @param concurrency the most LLM requests in flight at once
     * @param warmupRequests warmup requests handed out
     * @param requests measured requests handed out
     * @param timeoutMs {@code llm.timeout}, ms
     * @param connections the connection mode
     * @param usersEndedByBudget users ended by their budget
     * @param staleConnectionResends requests sent again on a new connection
     * @param profiles descriptions of the injection, or empty
     */
    public Load(
        long concurrency,
        long warmupRequests,
        long requests,
        long timeoutMs,
        String connections,
        long usersEndedByBudget,
        long staleConnectionResends,
        List<String> profiles) {
      this(
          concurrency,
          warmupRequests,
          requests,
          timeoutMs,
          connections,
          usersEndedByBudget,
          staleConnectionResends,
          profiles,
          null,
          null,
          null);
    }

    /**
     * The load as the ordered map its JSON is, for the writers that add to it by key ({@code
     * protocol.LevelWatch} adds {@code profiles}, {@code injection} and {@code peak_concurrency}).
     *
     * @return a new mutable map, in the file's key order
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap() {
      return MAPPER.convertValue(this, LinkedHashMap.class);
    }

    /**
     * The load from its JSON form.
     *
     * @param json the load as maps, lists and scalars (or a {@code Load}), never null
     * @return the load
     * @throws IllegalArgumentException if it does not read as a load
     */
    public static Load of(Object json) {
      return json instanceof Load load ? load : MAPPER.convertValue(json, Load.class);
    }
  }

  /**
   * The run's assertions in force: the {@code llm.assert.*} settings, each null when not set, and
   * the failure-percentage bounds found among the simulation's Gatling assertions.
   *
   * @param goodputRatio {@code llm.assert.goodputRatio}: the least share of measured requests that
   *     must meet the SLO, in (0, 1], or null
   * @param cacheAsPlanned {@code llm.assert.cacheAsPlanned}: the least share of measured requests
   *     whose cache outcome must be the planned one, in (0, 1], or null
   * @param sloLoadAtLeast {@code llm.assert.sloLoadAtLeast}: the least load (users, or users/s in
   *     an open loop) that must meet the SLO, or null
   * @param failedPercentBelow request name to the percentage of failed requests to stay under, from
   *     each {@code details(name).failedRequests().percent().lt(bound)} ({@code
   *     llm.assertions(bound, names...)} adds one per name), or null when there is none
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Assertions(
      @JsonProperty("goodput_ratio") Double goodputRatio,
      @JsonProperty("cache_as_planned") Double cacheAsPlanned,
      @JsonProperty("slo_load_at_least") Double sloLoadAtLeast,
      @JsonProperty("failed_percent_below") Map<String, Number> failedPercentBelow) {

    /**
     * The assertions of a run, or null when it has none to record: with an SLO set the record has
     * them all (as before, {@code goodput_ratio} null when not set), without one only when a cache
     * or SLO-load assertion is set.
     *
     * @param sloSet whether the run has an SLO
     * @param goodputRatio {@code llm.assert.goodputRatio}, or null
     * @param cacheAsPlanned {@code llm.assert.cacheAsPlanned}, or null
     * @param sloLoadAtLeast {@code llm.assert.sloLoadAtLeast}, or null
     * @param failedPercentBelow request name to failure-percentage bound, empty or null for none
     * @return the assertions, or null
     */
    public static Assertions inForce(
        boolean sloSet,
        Double goodputRatio,
        Double cacheAsPlanned,
        Double sloLoadAtLeast,
        Map<String, Double> failedPercentBelow) {
      Map<String, Number> failed =
          failedPercentBelow == null || failedPercentBelow.isEmpty()
              ? null
              : java.util.Collections.unmodifiableMap(
                  new java.util.LinkedHashMap<>(failedPercentBelow));
      if (!sloSet
          && goodputRatio == null
          && cacheAsPlanned == null
          && sloLoadAtLeast == null
          && failed == null) {
        return null;
      }
      return new Assertions(goodputRatio, cacheAsPlanned, sloLoadAtLeast, failed);
    }
  }

  /**
   * The record as ordered, JSON-ready maps.
   *
   * @return the maps, in field order
   */
  @SuppressWarnings("unchecked")
  public Map<String, Object> toMap() {
    return MAPPER.convertValue(this, java.util.LinkedHashMap.class);
  }
}
