package io.github.gatlingllm;

import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.internal.GatlingFeeds;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.PromptFile;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.protocol.FedRuns;
import io.github.gatlingllm.settings.ImageSettings;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.settings.PromptFileSettings;
import io.github.gatlingllm.token.TokenCounter;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Gatling feeder of deterministic prompts: {@code feed(prompts().unique().inputTokens(1024))}.
 * Immutable, so all methods return a new instance. Works wherever Gatling takes a feeder.
 *
 * <p>One builder instance is one workload, whatever the number of {@code feed(...)} steps it is
 * given to: its prompts are handed out in index order across all virtual users, first {@link
 * #warmup(int)} warmup prompts (phase {@code warmup}, their own nonces), then {@link
 * #requests(long)} measured ones. Several builders in one simulation are several workloads, each
 * with its own case id, digests and report section. Measured requests wait until every warmup
 * request has ended, in closed and open loops alike.
 *
 * <p>When the budget is spent, a virtual user fed again ends cleanly before its next LLM request:
 * no request without a prompt reaches the wire or the record, and the run says once that the
 * injection outlasts the budget. Once every workload of the run is spent and every scenario of the
 * simulation was fed one, the run stops its injection (as Gatling's {@code stopLoadGenerator}
 * does), so a closed loop of {@code constantConcurrentUsers(8).during(600)} over 200 prompts ends
 * after the 200th. A spent budget stops only what it governs: when a scenario has no budget of its
 * own ({@code .prompt(session -> ...)} requests, Gatling {@code http()} requests), the run says so
 * once and goes on until that scenario's injection ends, the budgeted scenarios' users ending
 * without a request meanwhile (Gatling stops injection for the whole run only).
 *
 * <p>Every value can be set by a {@code -Dllm.*} system property of the same name, which wins
 * ({@code llm.promptMode}, {@code llm.sharedPrefixRatio}, {@code llm.prefixGroups}, {@code
 * llm.inputTokens}, {@code llm.seed}, {@code llm.caseId}, {@code llm.requests}, {@code
 * llm.warmupRequests}, {@code llm.warmGroups}, {@code llm.tokenizer}, and for a prompts file {@code
 * llm.promptsFile}, {@code llm.promptsColumn}, {@code llm.promptsOrder}, {@code llm.promptsWrap}:
 * see {@link #fromFile(String)}); each value is checked when it is set, with the properties over
 * it, so a bad one fails the simulation's construction with a message naming the setting, the value
 * and what is allowed.
 *
 * <p>The records' session keys ({@code llm.text}, {@code llm.digest}, {@code llm.index}, {@code
 * llm.phase}, {@code llm.done}, ...) are API, for simulations that post the prompts with Gatling's
 * own {@code http()}: {@code docs/gatling-http.md} lists them.
 *
 * <p>In a test run on several machines ({@code -Dllm.shard=I/N}, or a Kubernetes Indexed Job's
 * {@code JOB_COMPLETION_INDEX} with {@code -Dllm.shards=N}), the feeder of shard {@code I} hands
 * out only the request indices {@code I, I + N, I + 2N, ...} of each phase; {@link #requests} and
 * {@link #warmup} are the whole test's budgets. See {@link LlmDsl#shardUsers(int)}.
 */
public final class PromptFeederBuilder extends WorkloadBuilder<PromptFeederBuilder, Workload> {

  PromptFeederBuilder(Map<String, String> values, String name) {
    super(values, name);
    // A prompts file is read (and refused) while the simulation is constructed, before Gatling
    // builds anything: the same file is read once per JVM.
    PromptFileSettings files = PromptFileSettings.fromSystemProperties(this.values);
    if (files.file() != null) {
      promptFile(files);
    }
  }

  /** Prompts files read in this JVM, by path, column, size and modification time. */
  private static final Map<String, PromptFile> FILES =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Reads a prompts file, or returns it as read before when it has not changed since.
   *
   * @throws IllegalArgumentException naming the file, the line and what is expected
   */
  private static PromptFile promptFile(PromptFileSettings files) {
    java.nio.file.Path path = files.file().toAbsolutePath().normalize();
    String key;
    try {
      key =
          path
              + "\n"
              + files.column()
              + "\n"
              + java.nio.file.Files.size(path)
              + "\n"
              + java.nio.file.Files.getLastModifiedTime(path).toMillis();
    } catch (java.io.IOException e) {
      // Missing or unreadable: read() says which, in its own words.
      return PromptFile.read(path, files.column());
    }
    return FILES.computeIfAbsent(key, k -> PromptFile.read(path, files.column()));
  }

  @Override
  void check(Map<String, String> values) {
    LlmSettings.fromSystemProperties(overFile(values));
    PromptFileSettings.fromSystemProperties(values);
    ImageSettings.fromSystemProperties(values);
  }

  /**
   * The generated prompts' settings that a {@code -Dllm.promptsFile} drops from a {@code prompts()}
   * that names no file of its own: the file replaces the prompts they shape (the budget, warmup,
   * seed and tokenizer stay).
   */
  static final List<String> GENERATED =
      List.of(
          "promptMode",
          "sharedPrefixRatio",
          "prefixGroups",
          "warmGroups",
          "inputTokens",
          "caseId",
          "images.count",
          "images.shared");

  /**
   * A builder's values as a {@code -Dllm.promptsFile} leaves them: without {@link #GENERATED} when
   * the property is set and the builder has no file of its own (the property replaces the
   * simulation's generated prompts, its settings the user did not give on the command line with
   * them), else as they are.
   *
   * @param values the builder's values, never null
   * @return the values to read the settings over
   */
  static Map<String, String> overFile(Map<String, String> values) {
    String file = System.getProperty(LlmSettings.PREFIX + "promptsFile");
    if (file == null || file.isBlank() || values.containsKey("promptsFile")) {
      return values;
    }
    Map<String, String> kept = new java.util.LinkedHashMap<>(values);
    GENERATED.forEach(kept::remove);
    return kept;
  }

  @Override
  PromptFeederBuilder copy(Map<String, String> values, String name) {
    return new PromptFeederBuilder(values, name);
  }

  @Override
  String dslCall() {
    return "prompts()";
  }

  /**
   * {@code repeat} mode: one prompt for every request, warmup included (the default).
   *
   * @return a new builder
   */
  public PromptFeederBuilder repeat() {
    return without("sharedPrefixRatio", "prefixGroups", "warmGroups").with("promptMode", "repeat");
  }

  /**
   * {@code unique} mode: each request starts with its own 12-hex nonce, so a prefix cache can reuse
   * nothing beyond the chat template.
   *
   * @return a new builder
   */
  public PromptFeederBuilder unique() {
    return without("sharedPrefixRatio", "prefixGroups", "warmGroups").with("promptMode", "unique");
  }

  /**
   * {@code shared-prefix} mode: one of {@code groups} seeded group prefixes covering {@code ratio}
   * of each prompt's tokens, then the request's nonce and filler.
   *
   * @param ratio the share of each prompt in its group prefix, in (0, 1)
   * @param groups the number of group prefixes, at least 1
   * @return a new builder
   * @throws IllegalArgumentException naming a bad value and what is allowed
   */
  public PromptFeederBuilder sharedPrefix(double ratio, int groups) {
    return with("promptMode", "shared-prefix", "sharedPrefixRatio", ratio, "prefixGroups", groups);
  }

  /**
   * The prompt size to aim for, in tokens of the tokenizer (default 512).
   *
   * @param tokens at least 1
   * @return a new builder
   */
  public PromptFeederBuilder inputTokens(int tokens) {
    return with("inputTokens", tokens);
  }

  /**
   * Each prompt carries {@code count} seeded images ({@code llm.images.count}), none of them shared
   * with its group: each request's images are its own. See {@link #images(int, int)}.
   *
   * @param count images a prompt, 0 (text only, the default) to 64
   * @return a new builder
   */
  public PromptFeederBuilder images(int count) {
    return with("images.count", count, "images.shared", 0);
  }

  /**
   * Each prompt carries {@code count} seeded images ({@code llm.images.count}), the first {@code
   * shared} of them its prefix group's ({@code llm.images.shared}): the same bytes for every
   * request of the group, placed before the text in the group's shared prefix; the others after the
   * text, unique to the request. Repeat prompts carry the same images on every request; unique
   * prompts share none ({@code shared} must be 0). Each image's SHA-256 goes into the prompt's
   * digest. Sizes and format: {@link #imageSize(int, int)}, {@link #imageFormat(String)}; their
   * tokens in the cache plan: {@link #imageTokens(String)}. See {@code docs/images.md}.
   *
   * @param count images a prompt, 0 to 64
   * @param shared how many of them are the group's, 0 to {@code count}
   * @return a new builder
   */
  public PromptFeederBuilder images(int count, int shared) {
    return with("images.count", count, "images.shared", shared);
  }

  /**
   * The images' size in pixels ({@code llm.images.width}, {@code llm.images.height}; default
   * 512x512; a property may give a seeded range {@code MIN-MAX}).
   *
   * @param width pixels, 1 to 8192
   * @param height pixels, 1 to 8192
   * @return a new builder
   */
  public PromptFeederBuilder imageSize(int width, int height) {
    return with("images.width", width, "images.height", height);
  }

  /**
   * The images' format ({@code llm.images.format}).
   *
   * @param format {@code png} (the default) or {@code jpeg}
   * @return a new builder
   */
  public PromptFeederBuilder imageFormat(String format) {
    return with("images.format", Objects.requireNonNull(format, "format"));
  }

  /**
   * How the cache plan counts an image's prompt tokens ({@code llm.images.tokens}): {@code
   * qwen2-vl} ({@code ceil(h/28) * ceil(w/28)}), {@code qwen3-vl} ({@code ceil(h/32) *
   * ceil(w/32)}), {@code llava} (576), {@code gemma3} (256), a number, or {@code server} (the
   * default: learnt from the server's {@code prompt_tokens} after the first request with images).
   *
   * @param tokens the rule
   * @return a new builder
   */
  public PromptFeederBuilder imageTokens(String tokens) {
    return with("images.tokens", Objects.requireNonNull(tokens, "tokens"));
  }

  /**
   * A fresh seed from the clock ({@code -Dllm.seed=auto}): the clock's epoch milliseconds when the
   * first feeder of the JVM is built, the same for every feeder of the run. The seed is recorded
   * with the run's prompts ({@code llm-run.json} {@code prompts.seed}, with {@code seed_auto:
   * true}), so the run can be repeated with {@code -Dllm.seed=<that seed>}, while a new run sends
   * prompts no server's cache has seen.
   *
   * @return a new builder
   */
  public PromptFeederBuilder autoSeed() {
    return with("seed", LlmSettings.AUTO_SEED);
  }

  /**
   * The measured requests' budget (default 100).
   *
   * @param requests at least 1
   * @return a new builder
   */
  public PromptFeederBuilder requests(long requests) {
    return with("requests", requests);
  }

  /**
   * Warmup requests sent before the measured ones, with prompts of their own (phase {@code warmup};
   * in repeat mode the measured prompt); their rows are in Gatling's group {@code warmup} and they
   * are left out of the run's figures. Default 0.
   *
   * @param requests at least 0
   * @return a new builder
   */
  public PromptFeederBuilder warmup(int requests) {
    return with("warmupRequests", requests);
  }

  /**
   * Warms the measured phase's prefix groups in the warmup phase ({@code llm.warmGroups}):
   * shared-prefix mode only, with warmup requests (otherwise ignored, with a warning). Warmup
   * request {@code i} sends the group prefix of the measured phase's group {@code i mod groups},
   * followed by its own warmup nonce and filler (never a measured prompt), so with at least as many
   * warmup requests as groups every measured group is in the server's cache when the measured phase
   * starts, and each measured request is planned as a hit. Deterministic: the warmup digest covers
   * these prompts, and the spec records {@code warm_groups: true}.
   *
   * @return a new builder
   */
  public PromptFeederBuilder warmGroups() {
    return with("warmGroups", true);
  }

  /**
   * Replays a prompts file instead of generating prompts ({@code llm.promptsFile}): JSONL lines
   * with {@code prompt} (text) or {@code messages} (chat) and optionally {@code output_tokens} or
   * {@code max_tokens}; a CSV with a header and a {@link #column(String) prompt column}; or a JSON
   * array of such objects or of ShareGPT conversations (the first human turn is the prompt). See
   * {@code docs/prompt-files.md}.
   *
   * <p>Measured request {@code i} sends the row at position {@code i} of the hand-out order (file
   * order, or {@link #shuffle()}), warmup request {@code i} the row at position {@code rows - 1 -
   * i}; the measured budget defaults to the rows the warmup leaves, and a budget needing more rows
   * than the file has is refused unless {@link #wrap()} is set. Each request's digest is the
   * SHA-256 (16 hex digits) of its text, its planned tokens the text's count with {@link
   * #tokenizer(String)}; no prefix sharing is planned, so the cache outcome is judged against no
   * plan. The file is read now (once per JVM while it is unchanged), before any load: a file that
   * is missing, empty or not UTF-8, a row without a prompt or a CSV without the column stops the
   * simulation's construction with one line naming the file, the line and what is expected; a
   * budget needing more rows than the file has is refused when Gatling builds the feeder.
   *
   * @param path the file's path, relative to the working folder or absolute
   * @return a new builder
   * @throws IllegalArgumentException naming the file, the line and what is expected
   */
  public PromptFeederBuilder fromFile(String path) {
    return with("promptsFile", Objects.requireNonNull(path, "path"));
  }

  /**
   * As {@link #fromFile(String)}.
   *
   * @param path the file, never null
   * @return a new builder
   */
  public PromptFeederBuilder fromFile(java.nio.file.Path path) {
    return fromFile(Objects.requireNonNull(path, "path").toString());
  }

  /**
   * The CSV column of a prompts file that holds the prompts ({@code llm.promptsColumn}, default
   * {@code prompt}); in a JSONL or JSON file, the object field that holds the text ({@code
   * messages} rows and ShareGPT entries are read as they are).
   *
   * @param column the header's name of the column, or the field's name
   * @return a new builder
   */
  public PromptFeederBuilder column(String column) {
    return with("promptsColumn", Objects.requireNonNull(column, "column"));
  }

  /**
   * Hands a prompts file's rows out in a shuffle seeded by {@link #seed(long)} ({@code
   * llm.promptsOrder=shuffle}) rather than in file order: the same seed gives the same order.
   *
   * @return a new builder
   */
  public PromptFeederBuilder shuffle() {
    return with("promptsOrder", "shuffle");
  }

  /**
   * Starts again from a prompts file's first row once every row is handed out ({@code
   * llm.promptsWrap=true}), so a budget may exceed the file's rows. Off by default: a budget that
   * needs more rows than the file has is refused before any load.
   *
   * @return a new builder
   */
  public PromptFeederBuilder wrap() {
    return with("promptsWrap", true);
  }

  /**
   * The feeder: made once per builder instance (the tokenizer loaded, the first prompts warmed, a
   * prompts file read); later calls return feeders over the same workload. When Gatling builds it
   * for a run and no {@code llm(...)} request of the run sends its prompts (they are posted with
   * Gatling's own {@code http()}), the run still records them: see {@code docs/gatling-http.md}.
   *
   * @return the feeder
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  @Override
  public Iterator<Map<String, Object>> get() {
    Workload w = workload();
    if (GatlingFeeds.buildingFeedAction()) {
      // Recorded at the run's end even when the prompts are posted with Gatling's own http().
      FedRuns.feederBuilt(w);
    }
    return new PromptFeeder(w);
  }

  /**
   * The settings of this builder as resolved now: system properties over its values.
   *
   * @throws IllegalArgumentException naming a bad setting
   */
  LlmSettings settings() {
    return LlmSettings.fromSystemProperties(overFile(values));
  }

  @Override
  Workload build() {
    LlmSettings s = settings();
    PromptFileSettings files = PromptFileSettings.fromSystemProperties(values);
    if (files.file() == null && (files.shuffle() || files.wrap())) {
      throw new IllegalArgumentException(
          (files.shuffle() ? "llm.promptsOrder=shuffle" : "llm.promptsWrap=true")
              + ": goes with a prompts file, and none is set; expected prompts().fromFile(path)"
              + " or -Dllm.promptsFile=PATH");
    }
    TokenCounter counter = counter(s.tokenizer());
    if (files.file() != null) {
      io.github.gatlingllm.settings.SettingUse.RUN.made(
          io.github.gatlingllm.settings.SettingUse.Part.PROMPT_FILE);
      return fileWorkload(s, files, counter);
    }
    io.github.gatlingllm.settings.SettingUse.RUN.made(
        io.github.gatlingllm.settings.SettingUse.Part.PROMPTS);
    if (!isSet("caseId")) {
      // The default case id, c{concurrency}_in{inputTokens}_out{outputTokens}, names the prompts.
      io.github.gatlingllm.settings.SettingUse.RUN.read("concurrency");
    }
    PromptSource source =
        new PromptSource(
            s.promptSpec(),
            counter,
            s.seed(),
            s.caseId(),
            Phase.MEASURED.wireName(),
            s.inputTokens());
    ImageSettings images = ImageSettings.fromSystemProperties(values);
    source = source.withImages(images.spec(), images.tokenRule());
    String workloadName = Workload.claimName(name, s.promptMode().wireName(), "prompts()");
    return new Workload(
        workloadName,
        source,
        s.requests(),
        s.warmupRequests(),
        Shard.current(),
        s.warmGroups(),
        s.seedAuto(),
        null);
  }

  /** Whether a setting is set, on this builder or as a system property. */
  private boolean isSet(String name) {
    return overFile(values).containsKey(name)
        || System.getProperty(LlmSettings.PREFIX + name) != null;
  }

  private Workload fileWorkload(LlmSettings s, PromptFileSettings files, TokenCounter counter) {
    for (String generated : java.util.List.of("promptMode", "sharedPrefixRatio", "prefixGroups")) {
      if (isSet(generated)) {
        throw new IllegalArgumentException(
            "llm."
                + generated
                + ": goes with generated prompts, not with the prompts file "
                + files.file()
                + " (llm.promptsFile); expected one or the other");
      }
    }
    if (ImageSettings.fromSystemProperties(overFile(values)).spec().any()) {
      throw new IllegalArgumentException(
          "llm.images.count: goes with generated prompts, not with the prompts file "
              + files.file()
              + " (llm.promptsFile), whose rows name their own images; expected one or the other");
    }
    PromptFile file = promptFile(files);
    long warmup = s.warmupRequests();
    long requests = isSet("requests") ? s.requests() : Math.max(1, file.size() - warmup);
    if (!files.wrap() && warmup + requests > file.size()) {
      throw new IllegalArgumentException(
          "prompts file "
              + file.path()
              + ": "
              + requests
              + " measured and "
              + warmup
              + " warmup requests need "
              + (warmup + requests)
              + " rows, it has "
              + file.size()
              + "; expected fewer requests (llm.requests, llm.warmupRequests) or wrap-around"
              + " (.wrap(), llm.promptsWrap=true)");
    }
    String caseId = isSet("caseId") ? s.caseId() : file.path().getFileName().toString();
    PromptSource source =
        PromptSource.ofFile(
            file,
            counter,
            s.seed(),
            caseId,
            Phase.MEASURED.wireName(),
            files.shuffle(),
            files.wrap());
    // A row's own images are counted by llm.images.tokens.
    source =
        source.withImages(ImageSpec.NONE, ImageSettings.fromSystemProperties(values).tokenRule());
    String workloadName =
        Workload.claimName(name, file.path().getFileName().toString(), "prompts().fromFile");
    return new Workload(
        workloadName, source, requests, warmup, Shard.current(), false, s.seedAuto(), null);
  }
}
