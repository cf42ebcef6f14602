package io.github.gatlingllm.prompt;

import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.token.TokenCounter;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prompts of one case phase, generated on demand: a byte-identical port of the reference
 * generator's {@code PromptSource} ({@code shared/seed/prompts.py.txt}, generator version {@value
 * #GENERATOR_VERSION}).
 *
 * <p>A prompt is a pure function of (seed, case id, phase, request index, tokenizer). Nonces are
 * the first 12 hex digits of {@code sha256("{seed}:{case_id}:{phase}:request:{index}")}; the
 * shared-prefix group of an index is the first 8 bytes of {@code
 * sha256("{seed}:{case_id}:{phase}:group:{index}")}, unsigned, modulo the groups; group prefixes
 * cover {@code max(1, round_half_even(ratio * input_tokens))} tokens.
 *
 * <p>Use {@link #take(long)} for the prompt a request is about to send and {@link #forget(long)}
 * once it is sent: the source then keeps only the prompt's 64-bit digest for {@link #digest()}. All
 * methods are safe to call concurrently from several threads.
 *
 * <p>This class hands prompts out and keeps their digests ({@link PhaseDigests}); what a request
 * index sends is made by {@link GeneratedPrompts} (the generator), {@link FileRows} (a prompts
 * file) or the rows function of a trace ({@link #ofRows}).
 */
public final class PromptSource {

  /** Bumped when the generated text changes, so digests of older runs are not mistaken. */
  public static final int GENERATOR_VERSION = 2;

  /**
   * The smallest input for unique and shared-prefix prompts to hold their plan: a nonce takes about
   * eight subword tokens, so shorter prompts overshoot their target and cannot hold a set prefix
   * share. Smaller inputs are allowed, with a warning, as in the reference.
   */
  public static final int MIN_CONTROLLED_TOKENS = 32;

  /** How many prompts {@link #warm()} builds. */
  public static final int DEFAULT_WARM_SAMPLE = 64;

  private static final Logger LOG = LoggerFactory.getLogger(PromptSource.class);

  private final Map<Long, Prompt> prompts = new ConcurrentHashMap<>();
  private final PhaseDigests digests = new PhaseDigests();
  private final GeneratedPrompts.Case c;
  private final String prefixPhase;
  private final java.util.function.LongFunction<Prompt> rows;
  private final FileRows file;
  private final GeneratedPrompts generator;
  private final PromptLookahead lookahead;
  private final PromptImaging imaging;

  /**
   * Prompts built ahead of use for generated prompts and prompt files ({@link PromptLookahead}).
   */
  static final int LOOKAHEAD = 16;

  /**
   * Prompts built ahead of use for a trace's rows: more than the 10-20 rows a burst of a Mooncake
   * trace has due at once.
   */
  static final int TRACE_LOOKAHEAD = 32;

  /**
   * The prompts of one phase.
   *
   * @param spec how prompts share prefixes, never null
   * @param counter counts tokens for planning, never null
   * @param seed any integer; the same seed gives the same prompts
   * @param caseId the case, any Unicode text, never null (the {@code prompts} command and the
   *     settings default it to {@code c{concurrency}_in{input}_out{output}})
   * @param phase the phase, e.g. {@code measured} or {@code warmup}, never null
   * @param inputTokens the prompt size to aim for, in tokens of {@code counter}, at least 0
   * @throws IllegalArgumentException if {@code inputTokens} is negative
   * @throws NullPointerException if an argument is null
   */
  public PromptSource(
      PromptSpec spec,
      TokenCounter counter,
      long seed,
      String caseId,
      String phase,
      int inputTokens) {
    this(
        new GeneratedPrompts.Case(spec, counter, seed, caseId, phase, inputTokens),
        new ConcurrentHashMap<>(),
        phase,
        false,
        null,
        null,
        null);
  }

  /**
   * The prompts of a trace's rows ({@link PromptMode#TRACE}): request index {@code i} sends what
   * {@code rows} makes of row {@code i} (see {@link TraceBlocks}), and the source keeps its digests
   * as for generated prompts.
   *
   * @param counter the rows' tokenizer, never null
   * @param seed the seed the rows were made with
   * @param caseId the case, e.g. the trace's name, never null
   * @param phase the phase, never null
   * @param rows the prompt of a row index, never null
   * @return the source
   */
  public static PromptSource ofRows(
      TokenCounter counter,
      long seed,
      String caseId,
      String phase,
      java.util.function.LongFunction<Prompt> rows) {
    Objects.requireNonNull(rows, "rows");
    return new PromptSource(
        new GeneratedPrompts.Case(PromptSpec.trace(), counter, seed, caseId, phase, 0),
        new ConcurrentHashMap<>(),
        phase,
        false,
        rows,
        null,
        null);
  }

  /**
   * The prompts of one phase of a run that replays a prompts file. Request index {@code i} of the
   * {@code measured} phase (any phase but {@code warmup}) sends the file's row at position {@code
   * i} of the hand-out order; index {@code i} of the {@code warmup} phase sends the row at position
   * {@code size - 1 - i}, so warmup and measured requests send different rows as long as together
   * they need no more rows than the file has. The hand-out order is the file's, or with {@code
   * shuffle} a Fisher-Yates shuffle drawn from {@code java.util.Random(seed)} (specified by the
   * JDK, so the same on every JVM). Past the last position, {@code wrap} starts again from the
   * first; without it, such an index is refused.
   *
   * <p>Each prompt's digest is the reference generator's digest of its text (the first 16 hex
   * digits of the SHA-256 of its UTF-8 bytes), its id {@code row-<n>} (the 0-based row of the
   * file), its planned count the exact count of its text with {@code counter} (for a {@code
   * messages} row, the sum of its contents' counts). The spec is {@link PromptSpec#unique()}: no
   * prefix sharing is planned; {@link #specRecord()} describes the file.
   *
   * @param file the prompts file, never null
   * @param counter counts each prompt's tokens, never null
   * @param seed the shuffle's seed
   * @param caseId the case id, never null
   * @param phase the phase, never null
   * @param shuffle whether rows are handed out in a seeded shuffle rather than in file order
   * @param wrap whether indices past the file's end start again from its first row
   * @return the source
   */
  public static PromptSource ofFile(
      PromptFile file,
      TokenCounter counter,
      long seed,
      String caseId,
      String phase,
      boolean shuffle,
      boolean wrap) {
    FileRows rows = FileRows.of(file, seed, shuffle, wrap);
    return new PromptSource(
        new GeneratedPrompts.Case(PromptSpec.unique(), counter, seed, caseId, phase, 0),
        new ConcurrentHashMap<>(),
        phase,
        false,
        null,
        rows,
        null);
  }

  /**
   * A phase of a case; a first phase ({@link #PromptSource(PromptSpec, TokenCounter, long, String,
   * String, int)}, {@link #ofRows}, {@link #ofFile}) has its own repeated prompt, its own group
   * prefixes and hashed groups.
   */
  private PromptSource(
      GeneratedPrompts.Case c,
      Map<GeneratedPrompts.RepeatKey, Prompt> repeated,
      String prefixPhase,
      boolean roundRobinGroups,
      java.util.function.LongFunction<Prompt> rows,
      FileRows file,
      PromptImaging imaging) {
    this.imaging = imaging;
    this.rows = rows;
    this.file = file;
    this.prefixPhase = Objects.requireNonNull(prefixPhase, "prefixPhase");
    this.c = c;
    this.generator = new GeneratedPrompts(c, repeated, prefixPhase, roundRobinGroups);
    this.lookahead = new PromptLookahead(this::build, rows != null ? TRACE_LOOKAHEAD : LOOKAHEAD);
    if (file == null
        && c.spec().mode() != PromptMode.REPEAT
        && c.spec().mode() != PromptMode.TRACE
        && c.inputTokens() < MIN_CONTROLLED_TOKENS
        && imaging == null) {
      LOG.warn(
          "input tokens {} is below {}: {} prompts will overshoot their target and cannot hold"
              + " their planned prefix sharing",
          c.inputTokens(),
          MIN_CONTROLLED_TOKENS,
          c.spec().mode().wireName());
    }
  }

  /**
   * The same case in another phase. In repeat mode both send the one repeated prompt, built once,
   * as the reference's warmup does.
   *
   * @param otherPhase the other phase's name, never null
   * @return a new source with its own digests
   */
  public PromptSource forPhase(String otherPhase) {
    return inPhase(otherPhase, otherPhase, false);
  }

  /**
   * The same case in another phase whose shared-prefix prompts start with this phase's group
   * prefixes, to warm them: request {@code i} of that phase takes group {@code i mod groups} (round
   * robin, so the first {@code groups} requests cover every group) and this phase's prefix of that
   * group, then its own phase's nonce and filler. Not part of the reference generator: its prompts
   * differ from {@link #forPhase(String)}'s, and so does its digest. In other modes, the same as
   * {@link #forPhase(String)}.
   *
   * @param otherPhase the other phase's name, e.g. {@code warmup}, never null
   * @return a new source with its own digests
   */
  public PromptSource forPhaseWarmingGroups(String otherPhase) {
    if (c.spec().mode() != PromptMode.SHARED_PREFIX) {
      return forPhase(otherPhase);
    }
    return inPhase(otherPhase, prefixPhase, true);
  }

  /** The same case in another phase, with the repeated prompt shared and its own digests. */
  private PromptSource inPhase(String otherPhase, String prefixPhase, boolean roundRobinGroups) {
    return new PromptSource(
        new GeneratedPrompts.Case(
            c.spec(), c.counter(), c.seed(), c.id(), otherPhase, c.inputTokens()),
        generator.repeated(),
        prefixPhase,
        roundRobinGroups,
        rows,
        file,
        imaging == null ? null : imaging.inPhase(c.seed(), c.id(), otherPhase, prefixPhase));
  }

  /**
   * This phase's generated prompts with images ({@link PromptImaging}: each prompt carries {@code
   * spec.count()} images, {@code spec.shared()} of them its group's); the phases made from it carry
   * theirs. Call before any prompt is handed out.
   *
   * @param spec what each prompt carries; {@link ImageSpec#NONE} (or a count of 0) for none
   * @param tokens the images' token rule, never null
   * @return a new source, or this one for no images (a prompts file's source with its rows' own
   *     images counted by {@code tokens})
   * @throws IllegalArgumentException if this source takes no such images (a prompts file, whose
   *     rows carry their own; a trace's rows; unique prompts with shared images)
   */
  public PromptSource withImages(ImageSpec spec, ImageTokens tokens) {
    if (spec == null || !spec.any()) {
      if (file != null && tokens != null) {
        // a prompts file's rows carry their own images: they are counted by this rule
        return new PromptSource(
            c, generator.repeated(), prefixPhase, false, rows, file.withImageTokens(tokens), null);
      }
      return this;
    }
    if (file != null) {
      throw new IllegalArgumentException(
          "llm.images.count: a prompts file's rows carry the images they name, not"
              + " llm.images.count; expected one or the other");
    }
    return new PromptSource(
        c,
        generator.repeated(),
        prefixPhase,
        false,
        rows,
        null,
        new PromptImaging(spec, tokens, c.spec().mode(), c.seed(), c.id(), c.phase(), prefixPhase));
  }

  /**
   * What each generated prompt carries ({@link #withImages}).
   *
   * @return the spec, {@link ImageSpec#NONE} when none
   */
  public ImageSpec imageSpec() {
    return imaging == null ? ImageSpec.NONE : imaging.spec();
  }

  /**
   * The images' token rule.
   *
   * @return the rule, or null when the prompts carry no generated images
   */
  public ImageTokens imageTokens() {
    return imaging == null ? null : imaging.tokens();
  }

  /**
   * The phase whose group prefixes this source's shared-prefix prompts start with: its own phase,
   * or for a {@link #forPhaseWarmingGroups} source, the phase it warms.
   *
   * @return never null
   */
  public String prefixPhase() {
    return prefixPhase;
  }

  /**
   * Builds, or returns the built, prompt for one request, and records its digest. The next prompts
   * are built ahead of use on another thread ({@link PromptLookahead}: the same prompts, their
   * digests recorded only when handed out here).
   *
   * @param index the request index, any value (0, 1, 2, ... in a run)
   * @return the prompt, never null
   */
  public Prompt prompt(long index) {
    Prompt prompt = prompts.get(index);
    if (prompt == null) {
      prompt = lookahead.take(index);
      if (prompt == null) {
        prompt = build(index);
      }
      Prompt raced = prompts.putIfAbsent(index, prompt);
      if (raced != null) {
        prompt = raced;
      }
      digests.put(index, prompt.digestBits());
    }
    return prompt;
  }

  /**
   * The prompt a request is about to send; {@link #forget(long)} it once sent.
   *
   * @param index the request index
   * @return the prompt, never null
   */
  public Prompt take(long index) {
    return prompt(index);
  }

  /**
   * Drops a used prompt; its digest stays for {@link #digest()}.
   *
   * @param index the request index
   */
  public void forget(long index) {
    prompts.remove(index);
  }

  /**
   * Does the phase's one-off prompt work before its clock starts: the repeated prompt, every group
   * prefix, and the filler for each length that the first {@value #DEFAULT_WARM_SAMPLE} nonces
   * leave room for; and starts building the first prompts ahead (of a file or a trace too). The
   * sample prompts are not handed out, so they are not part of {@link #digest()}.
   */
  public void warm() {
    warm(DEFAULT_WARM_SAMPLE);
  }

  /**
   * As {@link #warm()}, with a sample of {@code sample} prompts.
   *
   * @param sample how many prompts to build and drop, at least 0
   */
  public void warm(int sample) {
    lookahead.start(0);
    if (rows != null || file != null) {
      return;
    }
    generator.warm(sample);
  }

  /**
   * Builds prompts ahead of use; each counts as handed out.
   *
   * @param indices the request indices, never null
   */
  public void prepare(Iterable<Long> indices) {
    for (long index : indices) {
      prompt(index);
    }
  }

  /**
   * One digest over every prompt handed out, in ascending index order: the first 16 hex digits of
   * the SHA-256 of the prompts' digests joined by newlines.
   *
   * @return 16 hex digits, or null when no prompt was handed out
   */
  public String digest() {
    return digests.phaseDigest();
  }

  /**
   * The phase digest of prompts known by their digests, as {@link #digest()} computes it over the
   * prompts handed out: what a merge of several machines' records (each sending some indices of one
   * phase) recomputes to compare with the one-machine run's.
   *
   * @param digestsByIndex request index to prompt digest (16 hex digits), never null
   * @return 16 hex digits, or null when the map is empty
   * @throws IllegalArgumentException if a digest is not 16 hex digits
   */
  public static String phaseDigest(Map<Long, String> digestsByIndex) {
    return PhaseDigests.fromHex(digestsByIndex).phaseDigest();
  }

  /**
   * How many distinct indices were handed out.
   *
   * @return the number of prompts {@link #digest()} covers
   */
  public long handedOut() {
    return digests.size();
  }

  /**
   * The spec.
   *
   * @return never null
   */
  public PromptSpec spec() {
    return c.spec();
  }

  /**
   * The counter.
   *
   * @return never null
   */
  public TokenCounter counter() {
    return c.counter();
  }

  /**
   * The seed.
   *
   * @return the seed
   */
  public long seed() {
    return c.seed();
  }

  /**
   * The case id.
   *
   * @return never null
   */
  public String caseId() {
    return c.id();
  }

  /**
   * The phase.
   *
   * @return never null
   */
  public String phase() {
    return c.phase();
  }

  /**
   * The input size aimed for.
   *
   * @return tokens
   */
  public int inputTokens() {
    return c.inputTokens();
  }

  /**
   * A text made as the reference generator's {@code _extend(f"[{self._nonce(label)}]", tokens)}:
   * the nonce of {@code "{seed}:{case_id}:{phase}:" + label} in brackets, then the fewest filler
   * words that reach {@code tokens} (counted with the space before them), as a unique prompt is
   * made with the label {@code request:{index}}. Used for the texts that are not prompts of an
   * index: a conversation's user messages and system prompts ({@link ConversationSource}).
   * Deterministic; the digest is the text's, as a prompt's.
   *
   * @param label what follows the phase in the nonce's namespace, e.g. {@code
   *     conversation:3:turn:2}, never null
   * @param tokens the size to aim for, in tokens of this source's counter, at least 0 (the nonce
   *     alone when it already reaches it)
   * @param idPrefix the prompt id's start; the id is {@code idPrefix + nonce}, never null
   * @return the text as a prompt, its planned count the nonce's tokens plus the filler's
   * @throws NullPointerException if {@code label} or {@code idPrefix} is null
   */
  public Prompt extend(String label, int tokens, String idPrefix) {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(idPrefix, "idPrefix");
    return generator.extend(label, tokens, idPrefix);
  }

  /**
   * The prompts file this source replays.
   *
   * @return the file, or null for generated prompts
   */
  public PromptFile file() {
    return file == null ? null : file.file();
  }

  /**
   * The spec's record for the run record: {@link PromptSpec#toRecord()} for generated prompts; for
   * a prompts file {@code mode: file}, {@code file} (its absolute path), {@code format}, {@code
   * column} (CSV only), {@code sha256} (of its bytes), {@code rows}, {@code order} ({@code index}
   * or {@code shuffle}) and {@code wrap}.
   *
   * @return an ordered, unmodifiable map of JSON-ready values
   */
  public Map<String, Object> specRecord() {
    if (file == null) {
      if (imaging == null) {
        return c.spec().toRecord();
      }
      Map<String, Object> record = new java.util.LinkedHashMap<>(c.spec().toRecord());
      Map<String, Object> images = new java.util.LinkedHashMap<>(imaging.spec().toRecord());
      images.put("tokens", imaging.tokens().name());
      record.put("images", java.util.Collections.unmodifiableMap(images));
      return java.util.Collections.unmodifiableMap(record);
    }
    return file.specRecord();
  }

  /**
   * The file row a request index of this phase sends (see {@link #ofFile}).
   *
   * @param index the request index, at least 0
   * @return the 0-based row of the file
   * @throws IllegalStateException if this source replays no file
   * @throws IllegalArgumentException if the index is past the file's end without wrap
   */
  public int fileRow(long index) {
    if (file == null) {
      throw new IllegalStateException("not a prompts file's source");
    }
    return file.row(index, c.phase());
  }

  private Prompt build(long index) {
    if (rows != null) {
      return rows.apply(index);
    }
    if (file != null) {
      return file.prompt(index, c.phase(), c.counter());
    }
    Prompt prompt = generator.build(index);
    if (imaging == null) {
      return prompt;
    }
    return prompt.withImages(imaging.images(index, prompt.prefixGroup()));
  }

  @Override
  public String toString() {
    return "PromptSource["
        + c.spec()
        + ", seed "
        + c.seed()
        + ", case "
        + c.id()
        + ", phase "
        + c.phase()
        + ", "
        + c.inputTokens()
        + " tokens, "
        + c.counter()
        + ", "
        + handedOut()
        + " handed out]";
  }
}
