package io.github.gatlingllm.prompt;

import io.github.gatlingllm.token.TokenCount;
import io.github.gatlingllm.token.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prompts of a trace's rows, made from their hash ids: each hash id is one block of exactly
 * {@code blockTokens} tokens of the counter (a row's last block: the rest of its {@code
 * input_length}), a pure function of (seed, hash id, block size, tokenizer), so the same id gives
 * the same text in every row, run and machine.
 *
 * <p>A block is {@code [nonce] filler...}: the nonce is the first 12 hex digits of {@code
 * sha256("{seed}:trace:block:{id}")}, so two different ids diverge from their first tokens and a
 * prefix cache can reuse exactly the blocks two rows share, no more; the filler is the reference
 * generator's words, then as many one-token words as make the block's count exact. A row's prompt
 * is its blocks joined by single spaces, each block counted with the space before it (the first
 * without). Counts add up as long as the tokenizer splits at spaces before words and brackets, as
 * the byte-level BPE and SentencePiece tokenizers of served models do; where a count cannot be made
 * exact the block keeps the fewest words over it, the planned count says so, and a warning is
 * logged once.
 *
 * <p>Memory: the fillers (one a block remainder) and the head counts of recent ids. Thread-safe.
 */
public final class TraceBlocks {

  private static final Logger LOG = LoggerFactory.getLogger(TraceBlocks.class);

  /** Words tried, in order, as the one-token word that makes a block's count exact. */
  private static final String[] ONE_TOKEN_WORDS = {
    "memory", "tokens", "request", "profile", "the", "a", "x"
  };

  private static final int HEADS_KEPT = 1 << 16;

  private record Head(long id, boolean first) {}

  private final TokenCounter counter;
  private final long seed;
  private final int blockTokens;
  private final byte[] label;
  private final Map<Integer, Filler> fillers = new ConcurrentHashMap<>();
  private final Map<Head, Integer> heads = new ConcurrentHashMap<>();
  private volatile String oneTokenWord;
  private volatile boolean warned;

  /**
   * The blocks of one run.
   *
   * @param counter the run's tokenizer, never null
   * @param seed any whole number; the same seed gives the same blocks
   * @param blockTokens the tokens of a hash id's block, at least 1
   * @throws IllegalArgumentException if {@code blockTokens} is below 1
   */
  public TraceBlocks(TokenCounter counter, long seed, int blockTokens) {
    this.counter = Objects.requireNonNull(counter, "counter");
    if (blockTokens < 1) {
      throw new IllegalArgumentException("blockTokens: got " + blockTokens + ", expected >= 1");
    }
    this.seed = seed;
    this.blockTokens = blockTokens;
    this.label = (seed + ":trace:block:").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The nonce opening a hash id's block.
   *
   * @param id the hash id
   * @return 12 lower-case hex digits
   */
  public String nonce(long id) {
    MessageDigest sha = Hashing.sha256();
    sha.update(label);
    sha.update(Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    return Hashing.hex16(Hashing.first8(sha.digest())).substring(0, 12);
  }

  /**
   * A row's prompt: its blocks in order.
   *
   * @param ids the row's hash ids, never empty
   * @param inputLength the row's prompt tokens, from {@code (ids.length - 1) * blockTokens + 1} to
   *     {@code ids.length * blockTokens}
   * @param promptId the prompt's id, never null
   * @return the prompt; its planned count the blocks' counts summed ({@code inputLength} when every
   *     block is exact)
   * @throws IllegalArgumentException if the ids do not fit {@code inputLength}
   */
  public Prompt prompt(long[] ids, int inputLength, String promptId) {
    int n = ids.length;
    if (n == 0
        || inputLength <= (long) (n - 1) * blockTokens
        || inputLength > (long) n * blockTokens) {
      throw new IllegalArgumentException(
          "a row of "
              + n
              + " hash ids cannot hold "
              + inputLength
              + " tokens at "
              + blockTokens
              + " tokens a block");
    }
    StringBuilder text = new StringBuilder(inputLength * 8);
    int planned = 0;
    for (int i = 0; i < n; i++) {
      int tokens = i < n - 1 ? blockTokens : inputLength - (n - 1) * blockTokens;
      if (i > 0) {
        text.append(' ');
      }
      planned += block(text, ids[i], i == 0, tokens);
    }
    String t = text.toString();
    return new Prompt(
        t,
        null,
        promptId,
        counter,
        new TokenCount(planned, counter.source(), false),
        null,
        null,
        Hashing.digest16(t));
  }

  /**
   * The text of one block, as it appears in a prompt.
   *
   * @param id the hash id
   * @param first whether the block opens the prompt (else it follows a space)
   * @param tokens its tokens, at least 1
   * @return the text, without the space before it
   */
  public String blockText(long id, boolean first, int tokens) {
    StringBuilder text = new StringBuilder(tokens * 8);
    block(text, id, first, tokens);
    return text.toString();
  }

  /** Appends a block; returns its count. */
  private int block(StringBuilder text, long id, boolean first, int tokens) {
    String head = "[" + nonce(id) + "]";
    int headTokens = headTokens(id, first, head);
    int rest = tokens - headTokens;
    if (rest < 0) {
      // A remainder shorter than a nonce: one-token words only (a last block of a few tokens).
      String word = oneTokenWord();
      for (int i = 0; i < tokens; i++) {
        if (i > 0) {
          text.append(' ');
        }
        text.append(word);
      }
      return tokens;
    }
    text.append(head);
    if (rest == 0) {
      return headTokens;
    }
    Filler filler = fillers.computeIfAbsent(rest, this::exactFiller);
    text.append(' ').append(filler.text());
    return headTokens + filler.tokens();
  }

  private int headTokens(long id, boolean first, String head) {
    Head key = new Head(id, first);
    Integer known = heads.get(key);
    if (known != null) {
      return known;
    }
    int count = counter.count(first ? head : " " + head);
    if (heads.size() >= HEADS_KEPT) {
      heads.clear();
    }
    heads.put(key, count);
    return count;
  }

  /** The filler words reaching exactly {@code tokens} (counted with the space before them). */
  private Filler exactFiller(int tokens) {
    // The fewest words reaching the count (counts only grow as words are appended; a word is at
    // least one token, so as many words as tokens always reach it).
    int lo = 0;
    int hi = tokens;
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (count(mid) >= tokens) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    int reached = count(hi);
    if (reached == tokens) {
      return Filler.of(Words.cycle(0, hi), tokens);
    }
    // One word fewer falls short: make up the difference with one-token words.
    String base = Words.cycle(0, hi - 1);
    int have = hi - 1 == 0 ? 0 : count(hi - 1);
    String word = oneTokenWord();
    StringBuilder text = new StringBuilder(base);
    for (int i = have; i < tokens; i++) {
      if (text.length() > 0) {
        text.append(' ');
      }
      text.append(word);
    }
    String exact = text.toString();
    int got = counter.count(" " + exact);
    if (got == tokens) {
      return Filler.of(exact, tokens);
    }
    if (!warned) {
      warned = true;
      LOG.warn(
          "trace blocks: the tokenizer {} does not add up at word boundaries: a block filler of {}"
              + " tokens came out at {}; blocks keep the fewest words over their count, so prompts"
              + " may exceed input_length by a few tokens",
          counter,
          tokens,
          got);
    }
    return Filler.of(Words.cycle(0, hi), reached);
  }

  private int count(int words) {
    return words == 0 ? 0 : counter.count(" " + Words.cycle(0, words));
  }

  private String oneTokenWord() {
    String w = oneTokenWord;
    if (w == null) {
      w = ONE_TOKEN_WORDS[ONE_TOKEN_WORDS.length - 1];
      for (String candidate : ONE_TOKEN_WORDS) {
        if (counter.count(" " + candidate) == 1
            && counter.count(" " + candidate + " " + candidate) == 2) {
          w = candidate;
          break;
        }
      }
      oneTokenWord = w;
    }
    return w;
  }

  /**
   * The tokens of a hash id's block.
   *
   * @return at least 1
   */
  public int blockTokens() {
    return blockTokens;
  }

  /**
   * The seed.
   *
   * @return the seed
   */
  public long seed() {
    return seed;
  }

  /**
   * The counter.
   *
   * @return never null
   */
  public TokenCounter counter() {
    return counter;
  }
}
