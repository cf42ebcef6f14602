package io.github.gatlingllm.settings;

import io.github.gatlingllm.prompt.AgentSpec;
import io.github.gatlingllm.prompt.ToolCatalog;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

/**
 * The settings of agent sessions (issue 32), resolved: each {@code -Dllm.agent.*} property over a
 * builder's value, each checked with one line naming the setting, the value and what is allowed;
 * and {@code llm.sessionHeader}, the header that carries a session's id on each of its requests.
 * The {@code llm.agent.*} names are not yet registered among {@link LlmSettings#KNOWN}: the {@code
 * agents()} workload that reads them is not in the DSL yet, and a setting that would do nothing is
 * refused as unknown until it is; {@code llm.sessionHeader} is ({@link
 * LlmSettings#sessionHeader()}: conversations' turns carry it).
 *
 * @param sessions measured sessions, at least 1 ({@code llm.agent.sessions}, default 10)
 * @param warmupSessions warmup sessions, at least 0 ({@code llm.agent.warmupSessions}, default 0)
 * @param spec what a session is made of: {@code llm.agent.tools} (4), {@code
 *     llm.agent.toolDescriptionTokens} (48), {@code llm.agent.taskTokens} (128), {@code
 *     llm.agent.systemTokens} (0), {@code llm.agent.systemGroups} (1), {@code
 *     llm.agent.toolResultTokens} (256), {@code llm.agent.toolCalls} (4), {@code
 *     llm.agent.toolLatencyMs} ({@code N} or {@code MIN-MAX}, 0), {@code llm.agent.toolChoice}
 *     ({@code auto}), {@code llm.maxContextTokens} (unset)
 * @param sessionHeader the header carrying the session id ({@code llm.sessionHeader}, default
 *     {@value #DEFAULT_SESSION_HEADER}); null when set empty: no header
 */
public record AgentSettings(
    long sessions, int warmupSessions, AgentSpec spec, String sessionHeader) {

  /** The default session header, as AIPerf sends it. */
  public static final String DEFAULT_SESSION_HEADER = "X-Session-Affinity";

  /** The agents' own setting names, without {@code llm.}. */
  static final List<String> OWN =
      List.of(
          "agent.sessions",
          "agent.warmupSessions",
          "agent.tools",
          "agent.toolDescriptionTokens",
          "agent.taskTokens",
          "agent.systemTokens",
          "agent.systemGroups",
          "agent.toolResultTokens",
          "agent.toolCalls",
          "agent.toolLatencyMs",
          "agent.toolChoice");

  /** The setting names an agents builder holds, without {@code llm.}. */
  static final List<String> NAMES =
      SettingNames.join(OWN, List.of("maxContextTokens", "sessionHeader"));

  /** Headers the request sets itself, or HTTP owns: never a session header. */
  private static final Set<String> RESERVED =
      Set.of(
          "accept",
          "authorization",
          "connection",
          "content-length",
          "content-type",
          "host",
          "transfer-encoding",
          "x-request-id");

  /**
   * The settings from properties over a builder's values.
   *
   * @param properties where {@code llm.*} values are looked up first, never null
   * @param values setting name (without {@code llm.}) to value, never null
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public static AgentSettings from(Properties properties, Map<String, String> values) {
    Function<String, String> get =
        name -> {
          String v = properties.getProperty(LlmSettings.PREFIX + name);
          return v != null ? v.strip() : values.get(name);
        };
    long sessions = whole(get, "agent.sessions", 10, 1, Long.MAX_VALUE);
    int warmup = (int) whole(get, "agent.warmupSessions", 0, 0, Integer.MAX_VALUE);
    int tools = (int) whole(get, "agent.tools", 4, 0, ToolCatalog.MAX_TOOLS);
    int description = (int) whole(get, "agent.toolDescriptionTokens", 48, 1, Integer.MAX_VALUE);
    int task = (int) whole(get, "agent.taskTokens", 128, 1, Integer.MAX_VALUE);
    int system = (int) whole(get, "agent.systemTokens", 0, 0, Integer.MAX_VALUE);
    int groups = (int) whole(get, "agent.systemGroups", 1, 1, Integer.MAX_VALUE);
    int result = (int) whole(get, "agent.toolResultTokens", 256, 1, Integer.MAX_VALUE);
    int loops = (int) whole(get, "agent.toolCalls", 4, 0, Integer.MAX_VALUE);
    long[] latency = latency(get);
    String choice = get.apply("agent.toolChoice");
    choice = choice == null || choice.isEmpty() ? "auto" : choice.strip().toLowerCase(Locale.ROOT);
    if (!choice.equals("auto") && !choice.equals("required") && !choice.equals("none")) {
      throw bad("agent.toolChoice", get.apply("agent.toolChoice"), AgentSpec.TOOL_CHOICES);
    }
    if (choice.equals("required") && tools == 0) {
      throw bad(
          "agent.toolChoice",
          "required",
          "auto or none with llm.agent.tools=0 (no tool to require)");
    }
    String window = get.apply("maxContextTokens");
    Integer maxContext =
        window == null || window.isEmpty()
            ? null
            : (int) whole(get, "maxContextTokens", 0, 1, Integer.MAX_VALUE);
    AgentSpec spec =
        new AgentSpec(
            tools,
            description,
            task,
            system,
            groups,
            result,
            loops,
            latency[0],
            latency[1],
            choice,
            maxContext);
    return new AgentSettings(sessions, warmup, spec, sessionHeader(properties, values));
  }

  /**
   * {@code llm.sessionHeader} from properties over a builder's value: the default when unset, none
   * when set empty, else a header name (an RFC 9110 token: letters, digits and {@code
   * !#$%&'*+-.^_`|~}) that the request does not set itself.
   *
   * @param properties where {@code llm.sessionHeader} is looked up first, never null
   * @param values {@code sessionHeader} to the builder's value, never null
   * @return the header name, or null for none
   * @throws IllegalArgumentException naming the setting, the value and what is allowed
   */
  public static String sessionHeader(Properties properties, Map<String, String> values) {
    String raw = properties.getProperty(LlmSettings.PREFIX + "sessionHeader");
    return sessionHeaderName(raw != null ? raw : values.get("sessionHeader"));
  }

  /**
   * A {@code llm.sessionHeader} value checked: the default when null, none when empty, else the
   * name as {@link #sessionHeader(Properties, Map)} allows it.
   *
   * @param raw the value, or null when unset
   * @return the header name, or null for none
   * @throws IllegalArgumentException naming the setting, the value and what is allowed
   */
  static String sessionHeaderName(String raw) {
    if (raw == null) {
      return DEFAULT_SESSION_HEADER;
    }
    String name = raw.strip();
    if (name.isEmpty()) {
      return null;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean token =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!token) {
        throw bad(
            "sessionHeader",
            raw,
            "an HTTP header name (letters, digits and !#$%&'*+-.^_`|~, e.g. X-Session-Affinity),"
                + " or empty for none");
      }
    }
    if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
      throw bad(
          "sessionHeader",
          raw,
          "a header the request does not set itself (not Accept, Authorization, Connection,"
              + " Content-Length, Content-Type, Host, Transfer-Encoding or X-Request-Id)");
    }
    return name;
  }

  private static long[] latency(Function<String, String> get) {
    String value = get.apply("agent.toolLatencyMs");
    String allowed = "milliseconds >= 0, or MIN-MAX milliseconds (100-800) drawn uniformly";
    if (value == null || value.isEmpty()) {
      return new long[] {0, 0};
    }
    int dash = value.indexOf('-', 1);
    try {
      long lo = Long.parseLong((dash < 0 ? value : value.substring(0, dash)).strip());
      long hi = dash < 0 ? lo : Long.parseLong(value.substring(dash + 1).strip());
      if (lo < 0 || hi < lo) {
        throw bad("agent.toolLatencyMs", value, allowed);
      }
      return new long[] {lo, hi};
    } catch (NumberFormatException e) {
      throw bad("agent.toolLatencyMs", value, allowed);
    }
  }

  private static long whole(
      Function<String, String> get, String name, long fallback, long min, long max) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    String allowed =
        max == Long.MAX_VALUE || max == Integer.MAX_VALUE
            ? "a whole number >= " + min
            : "a whole number from " + min + " to " + max;
    long v;
    try {
      v = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw bad(name, value, allowed);
    }
    if (v < min || v > max) {
      throw bad(name, value, allowed);
    }
    return v;
  }

  private static IllegalArgumentException bad(String name, String value, String allowed) {
    return new IllegalArgumentException(
        LlmSettings.PREFIX + name + ": got \"" + value + "\", expected " + allowed);
  }
}
