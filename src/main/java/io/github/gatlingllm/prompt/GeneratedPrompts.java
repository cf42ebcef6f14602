package io.github.gatlingllm.prompt;

import io.github.gatlingllm.token.TokenCount;
import io.github.gatlingllm.token.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The generated prompts of one case phase ({@link PromptMode#REPEAT}, {@link PromptMode#UNIQUE} or
 * {@link PromptMode#SHARED_PREFIX}): the byte-identical port of the reference generator's {@code
 * PromptSource} ({@code shared/seed/prompts.py.txt}) that {@link PromptSource} hands out, without
 * the hand-out bookkeeping (which prompts are held, their digests).
 *
 * <p>A prompt is a pure function of (seed, case id, phase, request index, tokenizer). Nonces are
 * the first 12 hex digits of {@code sha256("{seed}:{case_id}:{phase}:request:{index}")}; the
 * shared-prefix group of an index is the first 8 bytes of {@code
 * sha256("{seed}:{case_id}:{phase}:group:{index}")}, unsigned, modulo the groups (or the index
 * modulo the groups, round robin, for a source that warms another phase's groups); group prefixes
 * cover {@code max(1, round_half_even(ratio * input_tokens))} tokens of the counter, and are made
 * with the prefix phase's nonces.
 *
 * <p>What is costly is built once and kept: the repeated prompt (shared by every phase of a case),
 * each group prefix with the SHA-256 state after it, the filler of each length, and the markers of
 * recent 64-index blocks. Thread-safe: every cache is a concurrent map, and a value built twice by
 * two threads is the same value.
 */
final class GeneratedPrompts {

  /**
   * One phase of a case, what its prompts are a function of (with the request index).
   *
   * @param spec how prompts share prefixes, never null
   * @param counter counts tokens for planning, never null
   * @param seed any integer; the same seed gives the same prompts
   * @param id the case id, never null
   * @param phase the phase, e.g. {@code measured} or {@code warmup}, never null
   * @param inputTokens the prompt size to aim for, in tokens of {@code counter}, at least 0
   */
  record Case(
      PromptSpec spec, TokenCounter counter, long seed, String id, String phase, int inputTokens) {

    /**
     * Checks the values.
     *
     * @throws NullPointerException if one is null
     * @throws IllegalArgumentException if {@code inputTokens} is negative
     */
    Case {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(counter, "counter");
      Objects.requireNonNull(id, "caseId");
      Objects.requireNonNull(phase, "phase");
      if (inputTokens < 0) {
        throw new IllegalArgumentException("input tokens must be >= 0, got " + inputTokens);
      }
    }
  }

  /** The key of the repeated prompt, shared by every phase of a case. */
  record RepeatKey(long seed, int inputTokens) {}

  private record Prefix(String text, int tokens, MessageDigest stateAfterSpace) {}

  /** The request markers {@code [nonce]} of 64 consecutive indices, and their token counts. */
  private record Markers(String[] markers, int[] counts) {}

  private static final int MARKER_BLOCK_BITS = 6;
  private static final int MARKER_BLOCKS_KEPT = 32;

  private final Case c;
  private final byte[] requestLabel;
  private final byte[] groupLabel;
  private final byte[] prefixLabel;
  private final Map<Integer, Prefix> prefixes = new ConcurrentHashMap<>();
  private final Map<Integer, Filler> fillers = new ConcurrentHashMap<>();
  private final Map<Long, Markers> markerBlocks = new ConcurrentHashMap<>();
  private final Map<RepeatKey, Prompt> repeated;
  private final boolean roundRobinGroups;
  private volatile int[] wordTokens;

  /**
   * The generator of one phase; the arguments were checked by {@link PromptSource}.
   *
   * @param c the case's phase, never null
   * @param repeated the case's repeated prompt, shared with the case's other phases, never null
   * @param prefixPhase the phase whose group prefixes shared-prefix prompts start with, never null
   * @param roundRobinGroups whether index {@code i} takes group {@code i mod groups} rather than a
   *     hashed draw
   */
  GeneratedPrompts(
      Case c, Map<RepeatKey, Prompt> repeated, String prefixPhase, boolean roundRobinGroups) {
    this.c = c;
    this.repeated = Objects.requireNonNull(repeated, "repeated");
    this.roundRobinGroups = roundRobinGroups;
    String namespace = c.seed() + ":" + c.id() + ":" + c.phase();
    this.requestLabel = (namespace + ":request:").getBytes(StandardCharsets.UTF_8);
    this.groupLabel = (namespace + ":group:").getBytes(StandardCharsets.UTF_8);
    this.prefixLabel =
        (c.seed() + ":" + c.id() + ":" + prefixPhase + ":prefix:").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The case's repeated prompt, shared with the generators of its other phases.
   *
   * @return never null
   */
  Map<RepeatKey, Prompt> repeated() {
    return repeated;
  }

  /**
   * Builds the prompt of a request index (a new instance each call, except the repeated prompt).
   *
   * @param index the request index, any value
   * @return the prompt, never null
   */
  Prompt build(long index) {
    switch (c.spec().mode()) {
      case REPEAT:
        return repeat();
      case UNIQUE:
        return unique(index);
      default:
        return shared(index);
    }
  }

  /**
   * Builds the first {@code sample} prompts and every group prefix, and drops the prompts: the
   * one-off work (repeated prompt, prefixes, fillers) is then done.
   *
   * @param sample how many prompts to build, at least 0
   */
  void warm(int sample) {
    for (int index = 0; index < sample; index++) {
      build(index);
    }
    if (c.spec().mode() == PromptMode.SHARED_PREFIX) {
      for (int group = 0; group < c.spec().groups(); group++) {
        prefix(group);
      }
    }
  }

  /**
   * The text of {@link PromptSource#extend(String, int, String)}: the nonce of {@code
   * "{seed}:{case_id}:{phase}:" + label} in brackets, then the fewest filler words that reach
   * {@code tokens}.
   *
   * @param label what follows the phase in the nonce's namespace, never null
   * @param tokens the size to aim for, in tokens of the counter
   * @param idPrefix the prompt id's start, never null
   * @return the text as a prompt
   */
  Prompt extend(String label, int tokens, String idPrefix) {
    String nonce =
        nonce(
            (c.seed() + ":" + c.id() + ":" + c.phase() + ":" + label)
                .getBytes(StandardCharsets.UTF_8));
    String head = "[" + nonce + "]";
    return headAndFiller(head, c.counter().count(head), tokens, idPrefix + nonce);
  }

  private Prompt repeat() {
    return repeated.computeIfAbsent(
        new RepeatKey(c.seed(), c.inputTokens()),
        key -> {
          String text =
              RepeatText.generate(c.inputTokens(), c.counter(), c.seed() + c.inputTokens());
          TokenCount exact = c.counter().countText(text);
          return Prompt.of(text, "repeat", c.counter(), exact, null, null);
        });
  }

  private Prompt unique(long index) {
    Markers block = markers(index);
    int slot = (int) (index & ((1 << MARKER_BLOCK_BITS) - 1));
    String head = block.markers()[slot];
    String nonce = head.substring(1, head.length() - 1);
    return headAndFiller(head, block.counts()[slot], c.inputTokens(), "r-" + nonce);
  }

  /**
   * A prompt of a bracketed nonce and the fewest filler words after it that reach {@code tokens}: a
   * unique prompt, or an {@link #extend} text. Its digest is its text's; no group.
   */
  private Prompt headAndFiller(String head, int headTokens, int tokens, String id) {
    Filler filler = filler(tokens - headTokens);
    MessageDigest sha = Hashing.sha256();
    sha.update(head.getBytes(StandardCharsets.US_ASCII));
    sha.update(filler.spacedUtf8());
    return new Prompt(
        head,
        filler,
        id,
        c.counter(),
        planned(headTokens + filler.tokens()),
        null,
        null,
        Hashing.first8(sha.digest()));
  }

  private Prompt shared(long index) {
    int group = group(index);
    Prefix prefix = prefix(group);
    Markers block = markers(index);
    int slot = (int) (index & ((1 << MARKER_BLOCK_BITS) - 1));
    String marker = block.markers()[slot];
    String nonce = marker.substring(1, marker.length() - 1);
    int used = prefix.tokens() + block.counts()[slot];
    Filler filler = filler(c.inputTokens() - used);
    MessageDigest sha;
    try {
      sha = (MessageDigest) prefix.stateAfterSpace().clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("SHA-256 state cannot be cloned", e);
    }
    sha.update(marker.getBytes(StandardCharsets.US_ASCII));
    sha.update(filler.spacedUtf8());
    return new Prompt(
        prefix.text() + " " + marker,
        filler,
        "g" + group + "-" + nonce,
        c.counter(),
        planned(used + filler.tokens()),
        group,
        prefix.tokens(),
        Hashing.first8(sha.digest()));
  }

  /**
   * The markers of the 64-index block holding {@code index}, built and counted together: one
   * tokenizer call for 64 short texts costs far less than 64 calls. A few recent blocks are kept.
   */
  private Markers markers(long index) {
    long number = index >> MARKER_BLOCK_BITS;
    Markers block = markerBlocks.get(number);
    if (block != null) {
      return block;
    }
    block =
        markerBlocks.computeIfAbsent(
            number,
            n -> {
              String[] markers = new String[1 << MARKER_BLOCK_BITS];
              for (int i = 0; i < markers.length; i++) {
                markers[i] = "[" + nonce(requestLabel, (n << MARKER_BLOCK_BITS) + i) + "]";
              }
              return new Markers(markers, c.counter().countAll(markers));
            });
    if (markerBlocks.size() > MARKER_BLOCKS_KEPT) {
      markerBlocks.keySet().removeIf(n -> Math.abs(n - number) > MARKER_BLOCKS_KEPT / 2);
    }
    return block;
  }

  private Prefix prefix(int group) {
    Prefix prefix = prefixes.get(group);
    if (prefix != null) {
      return prefix;
    }
    return prefixes.computeIfAbsent(
        group,
        g -> {
          double ratio = c.spec().sharedPrefixRatio() == null ? 0.0 : c.spec().sharedPrefixRatio();
          // Python's round() rounds halves to even, as Math.rint does.
          int tokens = (int) Math.max(1, Math.rint(ratio * c.inputTokens()));
          String head = "[" + nonce(prefixLabel, g) + "]";
          int used = c.counter().count(head);
          Filler filler = filler(tokens - used);
          String text = filler.isEmpty() ? head : head + " " + filler.text();
          MessageDigest state = Hashing.newSha256();
          state.update(text.getBytes(StandardCharsets.UTF_8));
          state.update((byte) ' ');
          return new Prefix(text, c.counter().count(text), state);
        });
  }

  private TokenCount planned(int tokens) {
    return new TokenCount(tokens, c.counter().source(), false);
  }

  /** The fewest filler words that reach {@code tokens}, built once per length. */
  private Filler filler(int tokens) {
    if (tokens <= 0) {
      return Filler.NONE;
    }
    Filler filler = fillers.get(tokens);
    if (filler != null) {
      return filler;
    }
    return fillers.computeIfAbsent(tokens, this::buildFiller);
  }

  private Filler buildFiller(int tokens) {
    int words = estimatedWords(tokens, wordTokens());
    // Counted with the space before it, as it follows the head.
    while (words > 1 && c.counter().count(" " + Words.cycle(0, words - 1)) >= tokens) {
      words--;
    }
    while (c.counter().count(" " + Words.cycle(0, words)) < tokens) {
      words++;
    }
    String text = Words.cycle(0, words);
    return Filler.of(text, c.counter().count(" " + text));
  }

  private int[] wordTokens() {
    int[] tokens = wordTokens;
    if (tokens == null) {
      tokens = new int[Words.FILLER.length];
      for (int i = 0; i < tokens.length; i++) {
        tokens[i] = Math.max(1, c.counter().count(" " + Words.FILLER[i]));
      }
      wordTokens = tokens;
    }
    return tokens;
  }

  private static int estimatedWords(int tokens, int[] wordTokens) {
    int words = 0;
    long total = 0;
    while (total < tokens) {
      total += wordTokens[words % wordTokens.length];
      words++;
    }
    return words;
  }

  private int group(long index) {
    if (roundRobinGroups) {
      return (int) Long.remainderUnsigned(index, c.spec().groups());
    }
    MessageDigest sha = Hashing.sha256();
    sha.update(groupLabel);
    sha.update(Long.toString(index).getBytes(StandardCharsets.US_ASCII));
    long draw = Hashing.first8(sha.digest());
    return (int) Long.remainderUnsigned(draw, c.spec().groups());
  }

  /** The first 12 hex digits of {@code sha256(label)}. */
  private static String nonce(byte[] label) {
    return Hashing.hex16(Hashing.first8(Hashing.sha256().digest(label))).substring(0, 12);
  }

  /** The first 12 hex digits of {@code sha256(label + index)}. */
  private static String nonce(byte[] label, long index) {
    MessageDigest sha = Hashing.sha256();
    sha.update(label);
    sha.update(Long.toString(index).getBytes(StandardCharsets.US_ASCII));
    return Hashing.hex16(Hashing.first8(sha.digest())).substring(0, 12);
  }
}
