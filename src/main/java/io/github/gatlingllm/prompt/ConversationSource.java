package io.github.gatlingllm.prompt;

import io.github.gatlingllm.token.TokenCounter;
import java.util.List;

/**
 * The conversations of one case phase, generated on demand: how many turns each has, which group
 * system prompt it starts with, its user messages and the think time after each turn. A pure
 * function of (seed, case id, phase, conversation index, turn, tokenizer), built from the reference
 * generator's pieces ({@link PromptSource#extend}: a nonce in brackets and filler words):
 *
 * <ul>
 *   <li>the user message of turn {@code t} (from 1) of conversation {@code c}: the nonce of {@code
 *       "{seed}:{case_id}:{phase}:conversation:{c}:turn:{t}"} and filler up to {@code userTokens},
 *       id {@code c{c}-t{t}-{nonce}};
 *   <li>the system prompt of group {@code g} (when {@code systemTokens > 0}): the nonce of {@code
 *       "...:system:{g}"} and filler up to {@code systemTokens}, id {@code s{g}-{nonce}}; shared by
 *       every conversation of the group, as a shared-prefix group prefix is;
 *   <li>draws (turns, group, think time): the first 8 bytes of {@code
 *       sha256("{seed}:{case_id}:{phase}:conversation:{c}:" + what)}, unsigned, modulo the range,
 *       {@code what} being {@code turns}, {@code group} or {@code think:{t}}.
 * </ul>
 *
 * <p>Digests: each user message has the 16-hex digest of its text; a conversation's digest is the
 * first 16 hex digits of the SHA-256 of its sent user messages' digests joined by newlines; the
 * phase digest is that of the ended conversations' digests in index order, as {@link
 * PromptSource#digest()} is of prompts. Replies are the server's and are not part of any digest.
 *
 * <p>Thread-safe.
 */
public final class ConversationSource extends SessionSource {

  /** One conversation's plan. */
  public record Script(long index, int turns, Integer group, Prompt system) {}

  private final int userTokens;
  private final int systemTokens;
  private final int systemGroups;
  private final int minTurns;
  private final int maxTurns;
  private final long minThinkMs;
  private final long maxThinkMs;

  /**
   * The conversations of one phase.
   *
   * @param counter counts tokens for planning, never null
   * @param seed any integer; the same seed gives the same conversations
   * @param caseId the case, never null
   * @param phase the phase, e.g. {@code measured} or {@code warmup}, never null
   * @param userTokens each new user message's size, in tokens of {@code counter}, at least 1
   * @param systemTokens the group system prompt's size in tokens, 0 for none
   * @param systemGroups the number of system prompts, at least 1
   * @param minTurns the fewest turns of a conversation, at least 1
   * @param maxTurns the most turns, at least {@code minTurns} (equal: a fixed count)
   * @param minThinkMs the shortest think time between turns, milliseconds, at least 0
   * @param maxThinkMs the longest, at least {@code minThinkMs}
   * @throws IllegalArgumentException naming a value out of range
   */
  public ConversationSource(
      TokenCounter counter,
      long seed,
      String caseId,
      String phase,
      int userTokens,
      int systemTokens,
      int systemGroups,
      int minTurns,
      int maxTurns,
      long minThinkMs,
      long maxThinkMs) {
    super(
        new PromptSource(
            PromptSpec.unique(),
            counter,
            seed,
            caseId,
            phase,
            userTokens(
                userTokens,
                systemTokens,
                systemGroups,
                minTurns,
                maxTurns,
                minThinkMs,
                maxThinkMs)),
        "conversation");
    this.userTokens = userTokens;
    this.systemTokens = systemTokens;
    this.systemGroups = systemGroups;
    this.minTurns = minTurns;
    this.maxTurns = maxTurns;
    this.minThinkMs = minThinkMs;
    this.maxThinkMs = maxThinkMs;
  }

  /**
   * The user messages' size, once the sizes, turns and think times are checked, in that order.
   *
   * @throws IllegalArgumentException naming a value out of range
   */
  private static int userTokens(
      int user, int system, int groups, int fewest, int most, long shortest, long longest) {
    check("userTokens", user, 1);
    check("systemTokens", system, 0);
    check("systemGroups", groups, 1);
    check("turns", fewest, 1);
    if (most < fewest) {
      throw new IllegalArgumentException(
          "turns: got " + fewest + "-" + most + ", expected min <= max");
    }
    if (shortest < 0 || longest < shortest) {
      throw new IllegalArgumentException(
          "thinkTimeMs: got "
              + shortest
              + "-"
              + longest
              + ", expected 0 <= min <= max milliseconds");
    }
    return user;
  }

  private static void check(String name, int value, int least) {
    if (value < least) {
      throw new IllegalArgumentException(name + ": got " + value + ", expected >= " + least);
    }
  }

  /**
   * The same case in another phase, with its own nonces, system prompts and digests.
   *
   * @param otherPhase the other phase's name, never null
   * @return a new source
   */
  public ConversationSource forPhase(String otherPhase) {
    return new ConversationSource(this, otherPhase);
  }

  /** The same conversations' shape in another phase: its values were checked for {@code base}. */
  private ConversationSource(ConversationSource base, String otherPhase) {
    super(
        new PromptSource(
            PromptSpec.unique(),
            base.counter(),
            base.seed(),
            base.caseId(),
            otherPhase,
            base.userTokens),
        "conversation");
    this.userTokens = base.userTokens;
    this.systemTokens = base.systemTokens;
    this.systemGroups = base.systemGroups;
    this.minTurns = base.minTurns;
    this.maxTurns = base.maxTurns;
    this.minThinkMs = base.minThinkMs;
    this.maxThinkMs = base.maxThinkMs;
  }

  /**
   * A conversation's plan: its turns, its system prompt's group and the system prompt.
   *
   * @param conversation the conversation index, from 0
   * @return the plan; {@code group} and {@code system} null without a system prompt
   */
  public Script script(long conversation) {
    int turns = (int) (minTurns + draw(conversation, "turns", maxTurns - minTurns + 1L));
    if (systemTokens == 0) {
      return new Script(conversation, turns, null, null);
    }
    int group = (int) draw(conversation, "group", systemGroups);
    return new Script(conversation, turns, group, system(group));
  }

  /**
   * The system prompt of a group, built once.
   *
   * @param group the group, from 0
   * @return the prompt, its {@link Prompt#prefixGroup()} the group
   */
  public Prompt system(int group) {
    return system(group, "system:" + group, systemTokens, "s" + group + "-");
  }

  /**
   * The user message of a turn.
   *
   * @param conversation the conversation index, from 0
   * @param turn the turn, from 1
   * @return the message, its planned count the tokens aimed for
   */
  public Prompt userMessage(long conversation, int turn) {
    return text.extend(
        "conversation:" + conversation + ":turn:" + turn,
        userTokens,
        "c" + conversation + "-t" + turn + "-");
  }

  /**
   * The think time after a turn, before the next one.
   *
   * @param conversation the conversation index
   * @param turn the turn just answered, from 1
   * @return milliseconds, in [min, max]
   */
  public long thinkMs(long conversation, int turn) {
    if (maxThinkMs == minThinkMs) {
      return minThinkMs;
    }
    return minThinkMs + draw(conversation, "think:" + turn, maxThinkMs - minThinkMs + 1);
  }

  /**
   * A conversation's digest: the first 16 hex digits of the SHA-256 of its user messages' digests
   * joined by newlines.
   *
   * @param userDigests 16-hex digests, in turn order, never null
   * @return 16 hex digits
   */
  public static String conversationDigest(List<String> userDigests) {
    return Hashing.hex16(Hashing.digest16(String.join("\n", userDigests)));
  }

  /**
   * Each new user message's size aimed for.
   *
   * @return tokens
   */
  public int userTokens() {
    return userTokens;
  }

  /**
   * The group system prompt's size aimed for.
   *
   * @return tokens, 0 for none
   */
  public int systemTokens() {
    return systemTokens;
  }

  /**
   * The number of system prompts.
   *
   * @return at least 1
   */
  public int systemGroups() {
    return systemGroups;
  }

  /**
   * The fewest turns.
   *
   * @return at least 1
   */
  public int minTurns() {
    return minTurns;
  }

  /**
   * The most turns.
   *
   * @return at least {@link #minTurns()}
   */
  public int maxTurns() {
    return maxTurns;
  }

  /**
   * The shortest think time.
   *
   * @return milliseconds
   */
  public long minThinkMs() {
    return minThinkMs;
  }

  /**
   * The longest think time.
   *
   * @return milliseconds
   */
  public long maxThinkMs() {
    return maxThinkMs;
  }

  @Override
  String details() {
    return minTurns
        + "-"
        + maxTurns
        + " turns, "
        + userTokens
        + " user tokens, system "
        + systemTokens
        + " x "
        + systemGroups;
  }
}
