package io.github.gatlingllm.settings;

/**
 * Not API. The name of every {@code llm.*} setting, without the prefix, for {@link
 * LlmSettings#KNOWN}: a property of another name is refused before any load.
 */
final class SettingNames {

  private SettingNames() {}

  /** Every setting name, grouped by what it sets. */
  static final java.util.List<String> ALL =
      java.util.List.of(
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
          "assert.sloLoadAtLeast",
          "slo.levelAttainment",
          "sweep.maxConcurrency",
          "sweep.levels",
          "sweep.levelDuration",
          "sweep.ramp",
          // conversations() (ConversationSettings)
          "conversations",
          "warmupConversations",
          "turns",
          "userTokens",
          "systemTokens",
          "systemGroups",
          "thinkTimeMs",
          "maxContextTokens",
          "client.maxLagP99Ms",
          "client.maxCpuShare",
          "preflight",
          "endWithProfile",
          // trace(path) (TraceSettings)
          "trace",
          "trace.blockTokens",
          "trace.timeScale",
          // prompts().fromFile(...) (PromptFileSettings)
          "promptsFile",
          "promptsColumn",
          "promptsOrder",
          "promptsWrap",
          // the A/B verdict against an earlier run (BaselineSettings)
          "baseline",
          "assert.noRegressionPct");
}
