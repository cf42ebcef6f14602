package io.github.gatlingllm.settings;

import io.github.gatlingllm.feeder.ConversationWorkload;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * The settings of a {@link ConversationFeederBuilder}, resolved: each {@code -Dllm.*} property over
 * the builder's value, each checked with a message naming the setting, the value and what is
 * allowed. {@code llm.seed}, {@code llm.caseId} and {@code llm.tokenizer} are {@link
 * LlmSettings}'s, shared with {@code prompts()}.
 *
 * @param conversations measured conversations, at least 1 ({@code llm.conversations}, default 10)
 * @param warmupConversations warmup conversations, at least 0 ({@code llm.warmupConversations},
 *     default 0)
 * @param minTurns the fewest turns ({@code llm.turns}: {@code N} or {@code MIN-MAX}, default 4)
 * @param maxTurns the most turns, at least {@code minTurns}
 * @param userTokens each new user message's tokens, at least 1 ({@code llm.userTokens}, default
 *     128)
 * @param systemTokens the group system prompt's tokens, 0 for none ({@code llm.systemTokens},
 *     default 0)
 * @param systemGroups the number of system prompts, at least 1 ({@code llm.systemGroups}, default
 *     1)
 * @param minThinkMs the shortest think time between turns, ms ({@code llm.thinkTimeMs}: {@code N}
 *     or {@code MIN-MAX}, default 0)
 * @param maxThinkMs the longest, at least {@code minThinkMs}
 * @param maxContextTokens the context window a turn's prompt and {@code max_tokens} must fit, or
 *     null for none ({@code llm.maxContextTokens})
 * @param caseId the case id: {@code llm.caseId} when set, else {@code conv_t{turns}_u{userTokens}}
 * @param seed the seed ({@code llm.seed}, {@code auto} from the clock)
 * @param seedAuto whether the seed came from the clock
 * @param tokenizer {@code estimate} or a tokenizer path ({@code llm.tokenizer})
 */
public record ConversationSettings(
    long conversations,
    int warmupConversations,
    int minTurns,
    int maxTurns,
    int userTokens,
    int systemTokens,
    int systemGroups,
    long minThinkMs,
    long maxThinkMs,
    Integer maxContextTokens,
    String caseId,
    long seed,
    boolean seedAuto,
    String tokenizer) {

  /** The setting names a conversation builder holds, without {@code llm.}. */
  static final List<String> NAMES =
      List.of(
          "conversations",
          "warmupConversations",
          "turns",
          "userTokens",
          "systemTokens",
          "systemGroups",
          "thinkTimeMs",
          "maxContextTokens");

  /** The shared settings a conversation builder also holds. */
  static final List<String> SHARED = List.of("seed", "caseId", "tokenizer");

  /**
   * The settings from system properties over a builder's values.
   *
   * @param values setting name (without {@code llm.}) to value
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public static ConversationSettings fromSystemProperties(Map<String, String> values) {
    return from(System.getProperties(), values);
  }

  /**
   * The settings from properties over a builder's values.
   *
   * @param properties where {@code llm.*} values are looked up first
   * @param values setting name (without {@code llm.}) to value
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  static ConversationSettings from(Properties properties, Map<String, String> values) {
    Function<String, String> get =
        name -> {
          String v = properties.getProperty(LlmSettings.PREFIX + name);
          return v != null ? v.strip() : values.get(name);
        };
    java.util.Map<String, String> shared = new java.util.LinkedHashMap<>();
    for (String name : SHARED) {
      if (values.containsKey(name)) {
        shared.put(name, values.get(name));
      }
    }
    LlmSettings llm = LlmSettings.fromBesidePrompts(properties, shared, System::getenv);
    long conversations = whole(get, "conversations", 10, 1);
    int warmup = (int) whole(get, "warmupConversations", 0, 0);
    long[] turns = range(get, "turns", 4, 1, "a whole number of turns >= 1, or MIN-MAX (2-6)");
    int userTokens = (int) whole(get, "userTokens", 128, 1);
    int systemTokens = (int) whole(get, "systemTokens", 0, 0);
    int systemGroups = (int) whole(get, "systemGroups", 1, 1);
    long[] think =
        range(
            get,
            "thinkTimeMs",
            0,
            0,
            "milliseconds >= 0, or MIN-MAX milliseconds (1000-3000) drawn uniformly");
    String window = get.apply("maxContextTokens");
    Integer maxContext =
        window == null || window.isEmpty() ? null : (int) whole(get, "maxContextTokens", 0, 1);
    String caseId = get.apply("caseId");
    if (caseId == null || caseId.isEmpty()) {
      caseId =
          "conv_t"
              + (turns[0] == turns[1] ? turns[0] : turns[0] + "-" + turns[1])
              + "_u"
              + userTokens;
    }
    return new ConversationSettings(
        conversations,
        warmup,
        (int) turns[0],
        (int) turns[1],
        userTokens,
        systemTokens,
        systemGroups,
        think[0],
        think[1],
        maxContext,
        caseId,
        llm.seed(),
        llm.seedAuto(),
        llm.tokenizer());
  }

  /**
   * Checks the settings together, once they are final (when the feeder is made): the first turn
   * (system prompt, user message and {@link
   * io.github.gatlingllm.cache.ConversationPlan#TURN_TEMPLATE_TOKENS} of template) and at least one
   * token of reply must fit {@code maxContextTokens}. The run checks again with the request's
   * {@code max_tokens} before the first turn ({@link ConversationWorkload#contextMisfit}).
   *
   * @return these settings
   * @throws IllegalArgumentException naming {@code llm.maxContextTokens}, its value and the minimum
   */
  public ConversationSettings checked() {
    String misfit =
        ConversationWorkload.contextMisfit(maxContextTokens, systemTokens, userTokens, null);
    if (misfit != null) {
      throw new IllegalArgumentException(misfit);
    }
    return this;
  }

  private static long whole(Function<String, String> get, String name, long fallback, long min) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    long v;
    try {
      v = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw bad(name, value, "a whole number >= " + min);
    }
    if (v < min || v > Integer.MAX_VALUE && !name.equals("conversations")) {
      throw bad(name, value, "a whole number >= " + min);
    }
    return v;
  }

  /** {@code N} or {@code MIN-MAX}, each at least {@code min}, MIN at most MAX. */
  private static long[] range(
      Function<String, String> get, String name, long fallback, long min, String allowed) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return new long[] {fallback, fallback};
    }
    int dash = value.indexOf('-', 1);
    try {
      long lo = Long.parseLong((dash < 0 ? value : value.substring(0, dash)).strip());
      long hi = dash < 0 ? lo : Long.parseLong(value.substring(dash + 1).strip());
      if (lo < min || hi < lo || hi > Integer.MAX_VALUE) {
        throw bad(name, value, allowed);
      }
      return new long[] {lo, hi};
    } catch (NumberFormatException e) {
      throw bad(name, value, allowed);
    }
  }

  private static IllegalArgumentException bad(String name, String value, String allowed) {
    return new IllegalArgumentException(
        LlmSettings.PREFIX + name + ": got \"" + value + "\", expected " + allowed);
  }
}
