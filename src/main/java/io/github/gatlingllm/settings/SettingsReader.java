package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.SettingValues.*;

import io.github.gatlingllm.levels.SaturationSettings;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.prompt.PromptMode;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Not API. Reads {@link LlmSettings} from {@code llm.*} properties over a simulation's defaults:
 * refuses unknown names ({@link UnknownSettings}), parses each value (whole numbers, decimals,
 * booleans, durations such as {@code 60s} or {@code 500ms}) and fills in the documented defaults;
 * {@link LlmSettings}' constructor then checks the ranges and how the values go together.
 */
final class SettingsReader {

  private SettingsReader() {}

  /**
   * The settings from properties over defaults.
   *
   * @param properties where {@code llm.*} values are looked up first (stripped), never null
   * @param defaults setting name (without {@code llm.}) to value, used where no property is set; a
   *     {@code llm.promptMode} property other than {@code shared-prefix} drops the defaults of
   *     {@code sharedPrefixRatio}, {@code prefixGroups} and {@code warmGroups}
   * @param environment where {@code OPENAI_API_KEY} is looked up, for an unset or empty {@code
   *     llm.apiKey}
   * @return the settings
   * @throws IllegalArgumentException naming a bad or unknown setting
   */
  static LlmSettings read(
      Properties properties, Map<String, String> defaults, Function<String, String> environment) {
    return read(properties, defaults, environment, true);
  }

  /**
   * The settings from properties over defaults, for a reader that is or is not a source of
   * generated prompts.
   *
   * @param properties as in {@link #read(Properties, Map, Function)}
   * @param defaults as in {@link #read(Properties, Map, Function)}
   * @param environment as in {@link #read(Properties, Map, Function)}
   * @param promptSource whether these settings make generated prompts ({@code prompts()}); when not
   *     (the protocol, {@code trace(...)}, {@code conversations()}), the {@code llm.promptMode},
   *     {@code llm.sharedPrefixRatio}, {@code llm.prefixGroups} and {@code llm.warmGroups}
   *     properties are each checked alone but not applied: they change the {@code prompts()}
   *     feeders' shape, where they are checked with the shape the simulation set
   * @return the settings
   * @throws IllegalArgumentException naming a bad or unknown setting
   */
  static LlmSettings read(
      Properties properties,
      Map<String, String> defaults,
      Function<String, String> environment,
      boolean promptSource) {
    UnknownSettings.check(properties);
    if (!promptSource) {
      checkShapeAlone(properties);
    }
    // A prompt mode set on the command line other than shared-prefix drops the simulation's
    // default shared-prefix ratio and groups: -Dllm.promptMode=unique just works.
    String modeProperty = properties.getProperty(LlmSettings.PREFIX + "promptMode");
    boolean dropSharedDefaults =
        promptSource
            && modeProperty != null
            && !modeProperty.strip().equals(PromptMode.SHARED_PREFIX.wireName());
    Function<String, String> get =
        name -> {
          String value =
              !promptSource && SHAPE.contains(name)
                  ? null
                  : SettingNames.property(properties, name);
          if (value != null) {
            return value;
          }
          if (dropSharedDefaults
              && (name.equals("sharedPrefixRatio")
                  || name.equals("prefixGroups")
                  || name.equals("warmGroups"))) {
            return null;
          }
          return defaults.get(name);
        };
    int concurrency = integer(get, "concurrency", 1);
    int inputTokens = integer(get, "inputTokens", 512);
    int outputTokens = integer(get, "outputTokens", 128);
    String apiKey = get.apply("apiKey");
    if (apiKey == null || apiKey.isEmpty()) {
      apiKey = environment.apply("OPENAI_API_KEY");
    }
    String seedValue = get.apply("seed");
    boolean seedAuto = seedValue != null && seedValue.equalsIgnoreCase(LlmSettings.AUTO_SEED);
    String mode = orDefault(get.apply("promptMode"), "repeat");
    PromptMode promptMode;
    try {
      promptMode = PromptMode.fromWireName(mode);
    } catch (IllegalArgumentException e) {
      throw bad("promptMode", mode, PromptMode.allowed());
    }
    // llm.debug is read by OneLineErrors as Boolean.getBoolean reads it (any word but "true" is
    // false): checked here, so "-Dllm.debug=yes" is refused instead of running without traces.
    bool(get, "debug", false);
    return new LlmSettings(
        emptyToNull(get.apply("baseUrl")),
        apiKey == null || apiKey.isEmpty() ? null : apiKey,
        emptyToNull(get.apply("model")),
        orDefault(get.apply("endpoint"), "chat"),
        promptMode,
        decimal(get, "sharedPrefixRatio"),
        nullableInteger(get, "prefixGroups"),
        inputTokens,
        outputTokens,
        seedAuto ? LlmSettings.autoSeed() : seed(get),
        orDefault(get.apply("tokenizer"), "estimate"),
        integer(get, "warmupRequests", 0),
        integer(get, "requests", 100),
        concurrency,
        bool(get, "stream", true),
        bool(get, "ignoreEos", false),
        duration(get, "timeout", Duration.ofSeconds(60)),
        emptyToNull(get.apply("caseId")),
        emptyToNull(get.apply("resultsFolder")),
        new Slo(
            sloBound(get, "slo.ttftMs"),
            sloBound(get, "slo.itlMs"),
            sloBound(get, "slo.tpotMs"),
            sloBound(get, "slo.e2eMs"),
            sloBound(get, "slo.ttfoMs")),
        decimal(get, "assert.goodputRatio"),
        decimal(get, "temperature"),
        emptyToNull(get.apply("connections")),
        duration(get, "metricsInterval", Duration.ofSeconds(5)),
        bool(get, "warmGroups", false),
        seedAuto,
        nullableInteger(get, "cacheBlockTokens"),
        orDefault(decimal(get, "cacheTolerance"), LlmSettings.DEFAULT_CACHE_TOLERANCE),
        decimal(get, "assert.cacheAsPlanned"),
        new SaturationSettings(
            bool(get, "stopWhenSaturated", SaturationSettings.DEFAULT.stopWhenSaturated()),
            orDefault(
                decimal(get, "saturation.ttftGrowth"), SaturationSettings.DEFAULT.ttftGrowth()),
            orDefault(
                decimal(get, "saturation.throughputGain"),
                SaturationSettings.DEFAULT.throughputGain()),
            orDefault(
                decimal(get, "saturation.errorRatio"), SaturationSettings.DEFAULT.errorRatio()),
            decimal(get, "assert.sloLoadAtLeast"),
            decimal(get, "slo.levelAttainment"),
            orDefault(
                decimal(get, "saturation.minScaling"), SaturationSettings.DEFAULT.minScaling())),
        orDefault(decimal(get, "client.maxLagP99Ms"), LlmSettings.DEFAULT_CLIENT_MAX_LAG_P99_MS),
        orDefault(decimal(get, "client.maxCpuShare"), LlmSettings.DEFAULT_CLIENT_MAX_CPU_SHARE),
        bool(get, "preflight", true),
        bool(get, "endWithProfile", true),
        new BaselineSettings(
            emptyToNull(get.apply("baseline")), decimal(get, "assert.noRegressionPct")),
        new CancelSettings(
            orDefault(decimal(get, "cancelRate"), 0), orDefault(decimal(get, "cancelAfterMs"), 0)),
        bool(get, "figuresAsRequests", false),
        new TargetDownSettings(
            bool(get, "stopWhenTargetDown", TargetDownSettings.DEFAULT.stop()),
            longInteger(get, "targetDown.afterMs", TargetDownSettings.DEFAULT.afterMs()),
            integer(get, "targetDown.minErrors", TargetDownSettings.DEFAULT.minErrors()),
            integer(get, "silentSeconds", TargetDownSettings.DEFAULT.silentSeconds())),
        new LiveSettings(
            nullableInteger(get, "prometheusPort"),
            duration(get, "prometheusLinger", LiveSettings.DEFAULT_LINGER),
            emptyToNull(get.apply("prometheusHost"))),
        AgentSettings.sessionHeaderName(get.apply("sessionHeader")),
        emptyToNull(get.apply("responses.history")));
  }

  /** The settings of a generated prompt's shape. */
  private static final java.util.List<String> SHAPE =
      java.util.List.of("promptMode", "sharedPrefixRatio", "prefixGroups", "warmGroups");

  /** Each shape property on its own: a mode that exists, a ratio and groups in range. */
  private static void checkShapeAlone(Properties properties) {
    Function<String, String> get = name -> SettingNames.property(properties, name);
    String mode = get.apply("promptMode");
    if (mode != null) {
      try {
        PromptMode.fromWireName(mode);
      } catch (IllegalArgumentException e) {
        throw bad("promptMode", mode, PromptMode.allowed());
      }
    }
    Double ratio = decimal(get, "sharedPrefixRatio");
    if (ratio != null && !(ratio > 0 && ratio < 1)) {
      throw bad("sharedPrefixRatio", ratio, "a number between 0 and 1, exclusive");
    }
    Integer groups = nullableInteger(get, "prefixGroups");
    if (groups != null && groups < 1) {
      throw bad("prefixGroups", groups, "a whole number >= 1");
    }
    bool(get, "warmGroups", false);
  }

  private static long seed(Function<String, String> get) {
    try {
      return longInteger(get, "seed", 0);
    } catch (IllegalArgumentException e) {
      throw bad("seed", get.apply("seed"), "a whole number, or auto (a fresh seed from the clock)");
    }
  }

  private static Double sloBound(Function<String, String> get, String name) {
    Double v = decimal(get, name);
    if (v != null && !(v > 0 && Double.isFinite(v))) {
      throw bad(name, v, "a number of milliseconds > 0, or unset");
    }
    return v;
  }
}
