package io.github.gatlingllm.settings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Not API. Which parts of the DSL a run is made of, so that a {@code -Dllm.*} setting that none of
 * them reads is said once instead of being ignored in silence: {@code -Dllm.concurrency=4} on an
 * open loop, {@code -Dllm.requests=50} on a run of conversations (which take {@code
 * llm.conversations}), {@code -Dllm.simulator.maxConcurrent=8} beside {@code -Dllm.baseUrl}.
 *
 * <p>Every setting belongs to the parts that read it ({@link Part}); each part says it is in the
 * run when it is made (the protocol in the simulation's {@code setUp}, a feeder's workload when
 * Gatling builds its feed, the users when {@code concurrency(n)} is called, the simulator when it
 * starts). A setting set as a property that no part of the run reads is {@link #unused unused}. A
 * setting of no named part (a new one) belongs to the protocol, so it is never said to be unused by
 * mistake.
 *
 * <p>{@link #RUN} is process-wide, as the run's feeders are: Gatling hands a feeder nothing of its
 * run. Thread-safe.
 */
public final class SettingUse {

  /** The parts of a run that read settings, each with the settings it reads. */
  public enum Part {
    /** {@code llm()}, the protocol: every setting no other part names. */
    PROTOCOL("llm()"),
    /** {@code prompts()} generating its prompts: their shape, budget and seed. */
    PROMPTS("prompts()"),
    /** {@code prompts()} replaying a prompts file: its rows, budget and seed. */
    PROMPT_FILE("prompts().fromFile(...) or llm.promptsFile"),
    /** {@code conversations()}. */
    CONVERSATIONS("conversations()"),
    /** {@code agents()}. */
    AGENTS("agents()"),
    /** {@code trace(path)}. */
    TRACE("trace(...)"),
    /** {@code sweep()}. */
    SWEEP("sweep()"),
    /** {@code capacitySearch()}. */
    SEARCH("capacitySearch()"),
    /** The virtual users of an injection profile, {@code concurrency(n)}. */
    USERS("the users of a closed loop, concurrency(n)"),
    /** The embedded simulator, started when {@code llm.baseUrl} is not set. */
    SIMULATOR("the embedded simulator, which runs only without llm.baseUrl");

    private final String reader;

    Part(String reader) {
      this.reader = reader;
    }

    /**
     * Who reads this part's settings, in the DSL's words.
     *
     * @return e.g. {@code prompts()}
     */
    public String reader() {
      return reader;
    }
  }

  /** The settings each part reads besides the protocol, without {@code llm.}. */
  private static final Map<Part, Set<String>> NAMES =
      Map.of(
          Part.PROMPTS,
          set(
              List.of(
                  "promptMode",
                  "sharedPrefixRatio",
                  "prefixGroups",
                  "inputTokens",
                  "seed",
                  "tokenizer",
                  "warmupRequests",
                  "requests",
                  "caseId",
                  "warmGroups",
                  "promptsFile",
                  "promptsOrder",
                  "promptsWrap"),
              ImageSettings.NAMES),
          Part.PROMPT_FILE,
          set(
              List.of("seed", "tokenizer", "warmupRequests", "requests", "caseId", "images.tokens"),
              PromptFileSettings.NAMES),
          Part.CONVERSATIONS,
          set(
              ConversationSettings.NAMES,
              ConversationSettings.SHARED,
              List.of("sessionHeader", "responses.history")),
          Part.AGENTS,
          set(AgentSettings.NAMES, List.of("seed", "caseId", "tokenizer", "responses.history")),
          Part.TRACE,
          set(TraceSettings.NAMES, TraceSettings.SHARED, List.of("images.tokens", "images.format")),
          Part.SWEEP,
          set(List.of("sweep.maxConcurrency", "sweep.levels", "sweep.levelDuration", "sweep.ramp")),
          Part.SEARCH,
          set(
              List.of(
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
                  "assert.capacityAtLeast")),
          Part.USERS,
          set(List.of("concurrency")),
          Part.SIMULATOR,
          SimulatorSettings.NAMES.stream()
              .map(n -> "simulator." + n)
              .collect(Collectors.toCollection(TreeSet::new)));

  /**
   * The settings that only parts other than the protocol read: the protocol reads the tokenizer
   * (its token counts) and the seed (which requests {@code llm.cancelRate} cancels) too.
   */
  private static final Set<String> NOT_PROTOCOL =
      NAMES.values().stream()
          .flatMap(Set::stream)
          .filter(n -> !n.equals("tokenizer") && !n.equals("seed"))
          .collect(Collectors.toSet());

  /** This JVM's run. */
  public static final SettingUse RUN = new SettingUse();

  private final Set<Part> parts = java.util.Collections.synchronizedSet(EnumSet.noneOf(Part.class));
  private final Set<String> read = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final AtomicBoolean said = new AtomicBoolean();

  /**
   * A part is in the run: every setting it reads is read.
   *
   * @param part never null
   */
  public void made(Part part) {
    parts.add(part);
  }

  /**
   * One setting is read by a part whose other settings are not (the default case id of {@code
   * prompts()} names {@code llm.concurrency}).
   *
   * @param name the setting, without {@code llm.}
   */
  public void read(String name) {
    read.add(name);
  }

  /**
   * The virtual users a simulation takes from {@code llm.concurrency}: the property when set, else
   * the simulation's own number; the users are then in the run ({@link Part#USERS}).
   *
   * @param properties where {@code llm.concurrency} is looked up, never null
   * @param fallback the simulation's users, at least 1
   * @return the users of the whole test, at least 1
   * @throws IllegalArgumentException naming {@code llm.concurrency}, its value and what is allowed
   *     (a whole number >= 1)
   */
  public int concurrency(Properties properties, int fallback) {
    String value = SettingNames.property(properties, "concurrency");
    int users = SettingValues.integer(n -> value, "concurrency", fallback);
    SettingValues.atLeast("concurrency", users, 1);
    made(Part.USERS);
    return users;
  }

  /**
   * The parts that read a setting.
   *
   * @param name the setting, without {@code llm.}, an alias ({@code maxTokens}) resolved
   * @return the parts, the protocol for a setting of no other part
   */
  static Set<Part> readers(String name) {
    Set<Part> readers = EnumSet.noneOf(Part.class);
    for (Map.Entry<Part, Set<String>> e : NAMES.entrySet()) {
      if (e.getValue().contains(name)) {
        readers.add(e.getKey());
      }
    }
    if (!NOT_PROTOCOL.contains(name)) {
      readers.add(Part.PROTOCOL);
    }
    return readers;
  }

  /**
   * The {@code llm.*} properties set that no part of the run reads.
   *
   * @param properties the properties, never null; those without the {@code llm.} prefix, and
   *     unknown names (refused before the run), are passed over
   * @return the property names, e.g. {@code llm.concurrency}, sorted; empty when every one is read
   */
  public List<String> unused(Properties properties) {
    List<String> unused = new ArrayList<>();
    for (String property : new TreeSet<>(properties.stringPropertyNames())) {
      if (!property.startsWith(LlmSettings.PREFIX)) {
        continue;
      }
      String bare = canonical(property.substring(LlmSettings.PREFIX.length()));
      if (read.contains(bare)) {
        continue;
      }
      Set<Part> readers = readers(bare);
      synchronized (parts) {
        if (readers.stream().noneMatch(parts::contains)) {
          unused.add(property);
        }
      }
    }
    return unused;
  }

  /**
   * The warning for the unused properties, once per instance.
   *
   * @param properties the properties, never null
   * @return one line naming each unused property, its value and what would read it, e.g. {@code
   *     -Dllm.concurrency=4 (read by the users of a closed loop, concurrency(n)) is set, but
   *     nothing in this run reads it: it changes nothing (every setting and what reads it:
   *     docs/settings.md)}; null when every one is read, or after the first call (the run is
   *     checked once, when its load starts: every part of it is made by then)
   */
  public String unusedLineOnce(Properties properties) {
    if (!said.compareAndSet(false, true)) {
      return null;
    }
    List<String> unused = unused(properties);
    return unused.isEmpty() ? null : line(unused, properties);
  }

  /**
   * The warning for properties no part of the run reads.
   *
   * @param unused the property names, never empty
   * @param properties where their values are, never null
   * @return the line
   */
  static String line(List<String> unused, Properties properties) {
    List<String> named = new ArrayList<>();
    for (String property : unused) {
      String bare = canonical(property.substring(LlmSettings.PREFIX.length()));
      String readers = readers(bare).stream().map(Part::reader).collect(Collectors.joining(" or "));
      String value = property.equals("llm.apiKey") ? "..." : properties.getProperty(property);
      named.add("-D" + property + "=" + value + " (read by " + readers + ")");
    }
    boolean one = named.size() == 1;
    return String.join(", ", named)
        + (one ? " is set, but nothing in this run reads it: it changes nothing" : "")
        + (one ? "" : " are set, but nothing in this run reads them: they change nothing")
        + " (every setting and what reads it: docs/settings.md)";
  }

  /** A setting's own name for a DSL alias ({@code maxTokens}), else the name. */
  private static String canonical(String bare) {
    return SettingNames.ALIASES.getOrDefault(bare, bare);
  }

  @SafeVarargs
  private static Set<String> set(Collection<String>... lists) {
    Set<String> all = new LinkedHashSet<>();
    for (Collection<String> l : lists) {
      all.addAll(l);
    }
    return java.util.Collections.unmodifiableSet(all);
  }
}
