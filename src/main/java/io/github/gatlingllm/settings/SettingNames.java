package io.github.gatlingllm.settings;

import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Not API. The name of every {@code llm.*} setting, without the prefix, for {@link
 * LlmSettings#KNOWN}: a property of another name is refused before any load.
 */
final class SettingNames {

  private SettingNames() {}

  /** Every setting name, grouped by what it sets. */
  static final List<String> ALL =
      join(
          List.of(
              "baseUrl",
              "apiKey",
              "model",
              "endpoint",
              "promptMode",
              "sharedPrefixRatio",
              "prefixGroups",
              "inputTokens",
              "outputTokens",
              "seed",
              "tokenizer",
              "warmupRequests",
              "requests",
              "concurrency",
              "stream",
              "ignoreEos",
              "timeout",
              "caseId",
              "resultsFolder",
              "slo.ttftMs",
              "slo.itlMs",
              "slo.tpotMs",
              "slo.e2eMs",
              "slo.ttfoMs",
              "cancelRate",
              "cancelAfterMs",
              "assert.goodputRatio",
              "temperature",
              "connections",
              "warmGroups",
              "cacheBlockTokens",
              "cacheTolerance",
              "assert.cacheAsPlanned",
              "shard",
              "shards",
              "startAt",
              "metricsInterval",
              "stopWhenSaturated",
              "saturation.ttftGrowth",
              "saturation.throughputGain",
              "saturation.errorRatio",
              "saturation.minScaling",
              "assert.sloLoadAtLeast",
              "slo.levelAttainment",
              "sweep.maxConcurrency",
              "sweep.levels",
              "sweep.levelDuration",
              "sweep.ramp",
              // capacitySearch() (CapacitySearchBuilder)
              "search.maxRate",
              "search.maxUsers",
              "search.coarseLevels",
              "search.precision",
              "search.holdSeconds",
              "search.warmupSeconds",
              "search.minRequests",
              "search.minSeconds",
              "search.maxSeconds",
              "search.margin",
              "assert.capacityAtLeast"),
          // conversations() (ConversationSettings)
          ConversationSettings.NAMES,
          List.of(
              "client.maxLagP99Ms",
              "client.maxCpuShare",
              "preflight",
              "endWithProfile",
              // a target that stopped answering (TargetDownSettings)
              "stopWhenTargetDown",
              "targetDown.afterMs",
              "targetDown.minErrors",
              "silentSeconds",
              // the live metrics endpoint (LiveSettings)
              "prometheusPort",
              "prometheusHost",
              "prometheusLinger",
              // trace(path) (TraceSettings)
              "trace",
              "trace.blockTokens",
              "trace.timeScale",
              // prompts().fromFile(...) (PromptFileSettings)
              "promptsFile",
              "promptsColumn",
              "promptsOrder",
              "promptsWrap",
              // images in generated prompts (ImageSettings)
              "images.count",
              "images.shared",
              "images.width",
              "images.height",
              "images.format",
              "images.tokens",
              // the A/B verdict against an earlier run (BaselineSettings)
              "baseline",
              "assert.noRegressionPct",
              // the full stack traces of a run that stops on a bad input (OneLineErrors)
              "debug",
              // the LLM figures in Gatling's statistics (RequestRows)
              "figuresAsRequests",
              // a session's id on each of its requests (conversations' and agent sessions' turns)
              "sessionHeader",
              // where a conversation's history is kept on the Responses API (previous_response_id)
              "responses.history"),
          // agents() (AgentSettings)
          AgentSettings.OWN);

  /** The lists in order, as one unmodifiable list. */
  @SafeVarargs
  static List<String> join(List<String>... lists) {
    return java.util.Arrays.stream(lists).flatMap(List::stream).toList();
  }

  /**
   * The DSL's method names that name one setting of {@link SettingsReader} as they are: {@code
   * -Dllm.maxTokens=10} is {@code -Dllm.outputTokens=10}, as {@code llm().maxTokens(10)} is. Each
   * takes the same value, in the same unit, as the setting it names.
   */
  static final Map<String, String> ALIASES =
      Map.ofEntries(
          Map.entry("maxTokens", "outputTokens"),
          Map.entry("sloTtftMs", "slo.ttftMs"),
          Map.entry("sloItlMs", "slo.itlMs"),
          Map.entry("sloTpotMs", "slo.tpotMs"),
          Map.entry("sloE2eMs", "slo.e2eMs"),
          Map.entry("sloTtfoMs", "slo.ttfoMs"),
          Map.entry("goodputRatio", "assert.goodputRatio"),
          Map.entry("cacheAsPlanned", "assert.cacheAsPlanned"),
          Map.entry("sloLoadAtLeast", "assert.sloLoadAtLeast"),
          Map.entry("noRegressionPct", "assert.noRegressionPct"),
          Map.entry("clientMaxLagP99Ms", "client.maxLagP99Ms"),
          Map.entry("clientMaxCpuShare", "client.maxCpuShare"),
          Map.entry("saturationMinScaling", "saturation.minScaling"));

  /**
   * DSL names that are not settings as they are (another unit, another reader, or several settings
   * at once), with the settings to use instead: an unknown {@code -Dllm.NAME} of one of them is
   * answered with these.
   */
  static final Map<String, List<String>> DSL_HINTS =
      Map.ofEntries(
          Map.entry("warmup", List.of("warmupRequests", "warmupConversations")),
          Map.entry("sharedPrefix", List.of("promptMode", "sharedPrefixRatio", "prefixGroups")),
          Map.entry("fromFile", List.of("promptsFile")),
          Map.entry("column", List.of("promptsColumn")),
          Map.entry("shuffle", List.of("promptsOrder")),
          Map.entry("wrap", List.of("promptsWrap")),
          Map.entry("cancelAfter", List.of("cancelAfterMs")),
          Map.entry("thinkTime", List.of("thinkTimeMs")),
          Map.entry("systemPrompt", List.of("systemTokens", "systemGroups")),
          Map.entry("blockTokens", List.of("trace.blockTokens")),
          Map.entry("timeScale", List.of("trace.timeScale")),
          Map.entry("maxConcurrency", List.of("sweep.maxConcurrency")),
          Map.entry("levels", List.of("sweep.levels")),
          Map.entry("levelDuration", List.of("sweep.levelDuration")),
          Map.entry("ramp", List.of("sweep.ramp")),
          Map.entry(
              "saturationThresholds",
              List.of(
                  "saturation.ttftGrowth", "saturation.throughputGain", "saturation.errorRatio")));

  /**
   * The value of a setting's property, under its own name or a DSL name of {@link #ALIASES} that
   * stands for it.
   *
   * @param properties where {@code llm.*} values are looked up, never null
   * @param name the setting's name without {@code llm.}, e.g. {@code outputTokens}
   * @return the value, stripped, or null when neither name is set
   * @throws IllegalArgumentException when both names are set to different values
   */
  static String property(Properties properties, String name) {
    String own = properties.getProperty(LlmSettings.PREFIX + name);
    for (Map.Entry<String, String> alias : ALIASES.entrySet()) {
      if (!alias.getValue().equals(name)) {
        continue;
      }
      String other = properties.getProperty(LlmSettings.PREFIX + alias.getKey());
      if (other == null) {
        continue;
      }
      if (own != null && !own.strip().equals(other.strip())) {
        throw new IllegalArgumentException(
            LlmSettings.PREFIX
                + alias.getKey()
                + " and "
                + LlmSettings.PREFIX
                + name
                + ": two names of one setting, got \""
                + other.strip()
                + "\" and \""
                + own.strip()
                + "\"; expected one of them");
      }
      own = other;
    }
    return own == null ? null : own.strip();
  }
}
