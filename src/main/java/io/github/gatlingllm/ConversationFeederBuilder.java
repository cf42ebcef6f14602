package io.github.gatlingllm;

import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.settings.ConversationSettings;
import io.github.gatlingllm.token.TokenCounter;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * A Gatling feeder of multi-turn conversations, for {@link LlmDsl#conversation(LlmActionBuilder)}:
 * each record is one conversation, which the virtual user holds until its last turn. Immutable, so
 * all methods return a new instance.
 *
 * <pre>{@code
 * ConversationFeederBuilder chats =
 *     conversations().turns(2, 6).userTokens(128).systemPrompt(1024, 4).conversations(100);
 * // closed loop: each virtual user holds one conversation at a time
 * scenario("chat").forever().on(feed(chats).exec(conversation(llm("chat").chatCompletion())));
 * // open loop: conversations arrive at a rate, one virtual user each
 * scenario("chat").feed(chats).exec(conversation(llm("chat").chatCompletion()));
 * }</pre>
 *
 * <p>Turn {@code t} of a conversation sends its group's system prompt (when set), every earlier
 * user message and reply as it was received, then a new user message of {@link #userTokens} tokens
 * made as a unique prompt is (a nonce of seed, case id, phase, conversation and turn, then filler
 * words); chat requests send them as {@code messages}, completions requests as one transcript. So
 * each turn's prompt starts with the previous turn's prompt and reply: the shared prefix a prefix
 * cache serves. Everything is a function of the seed: the turns of each conversation, its group,
 * its user messages and the think times between turns; each user message and each conversation has
 * a digest, and each phase a digest over its conversations, so two runs prove they sent the same
 * user turns ({@code llm-run.json}'s {@code conversations}). Replies are the server's, recorded by
 * their token count and digest.
 *
 * <p>One builder instance is one workload: its conversations are handed out in index order across
 * all virtual users, first {@link #warmup(int)} warmup conversations (phase {@code warmup}, their
 * rows in Gatling's group {@code warmup}), then {@link #conversations(long)} measured ones, whose
 * first turns wait until every warmup conversation has ended. When the budget is spent, a virtual
 * user fed again ends without a request; once every workload is spent and every scenario was fed
 * one, the run stops its injection (a scenario with no budget of its own runs on to the end of its
 * injection, as with {@link PromptFeederBuilder}).
 *
 * <p>Every value can be set by a {@code -Dllm.*} system property of the same name, which wins
 * ({@code llm.conversations}, {@code llm.warmupConversations}, {@code llm.turns} ({@code 4} or
 * {@code 2-6}), {@code llm.userTokens}, {@code llm.systemTokens}, {@code llm.systemGroups}, {@code
 * llm.thinkTimeMs} ({@code 1500} or {@code 1000-3000}), {@code llm.maxContextTokens}, and the
 * shared {@code llm.seed}, {@code llm.caseId}, {@code llm.tokenizer}); each value is checked when
 * it is set, so a bad one fails the simulation's construction with a message naming the setting,
 * the value and what is allowed. Checks across settings ({@code maxContextTokens} against the first
 * turn) are made once on the final settings, when the feeder is made (before any load), and again
 * with the request's {@code max_tokens} before the first turn is sent.
 */
public final class ConversationFeederBuilder
    extends SessionFeederBuilder<ConversationFeederBuilder, ConversationWorkload> {

  ConversationFeederBuilder(Map<String, String> values, String name) {
    super(values, name);
  }

  @Override
  void check(Map<String, String> values) {
    ConversationSettings.fromSystemProperties(values);
  }

  @Override
  ConversationFeederBuilder copy(Map<String, String> values, String name) {
    return new ConversationFeederBuilder(values, name);
  }

  @Override
  String dslCall() {
    return "conversations()";
  }

  /**
   * A fixed number of turns per conversation (default 4).
   *
   * @param turns at least 1
   * @return a new builder
   * @throws IllegalArgumentException if below 1
   */
  public ConversationFeederBuilder turns(int turns) {
    return with("turns", turns);
  }

  /**
   * Turns per conversation drawn uniformly from {@code [min, max]}, seeded per conversation.
   *
   * @param min at least 1
   * @param max at least {@code min}
   * @return a new builder
   * @throws IllegalArgumentException if out of range
   */
  public ConversationFeederBuilder turns(int min, int max) {
    return with("turns", min + "-" + max);
  }

  /**
   * Each new user message's size, in tokens of the tokenizer (default 128).
   *
   * @param tokens at least 1
   * @return a new builder
   */
  public ConversationFeederBuilder userTokens(int tokens) {
    return with("userTokens", tokens);
  }

  /**
   * A system prompt first in every conversation, one of {@code groups} seeded texts, shared by the
   * conversations of its group as a shared-prefix group prefix is (default: none).
   *
   * @param tokens the system prompt's size in tokens, at least 1
   * @param groups the number of system prompts, at least 1
   * @return a new builder
   * @throws IllegalArgumentException if out of range
   */
  public ConversationFeederBuilder systemPrompt(int tokens, int groups) {
    return withSystemPrompt("systemTokens", tokens, "systemGroups", groups);
  }

  /**
   * The measured conversations' budget (default 10).
   *
   * @param conversations at least 1
   * @return a new builder
   */
  public ConversationFeederBuilder conversations(long conversations) {
    return with("conversations", conversations);
  }

  /**
   * Warmup conversations held before the measured ones, with their own nonces and system prompts
   * (phase {@code warmup}); left out of the run's figures. Default 0.
   *
   * @param conversations at least 0
   * @return a new builder
   */
  public ConversationFeederBuilder warmup(int conversations) {
    return with("warmupConversations", conversations);
  }

  /**
   * A fixed think time between a turn's reply and the next turn (a Gatling pause; default none).
   *
   * @param think at least 0, whole milliseconds
   * @return a new builder
   */
  public ConversationFeederBuilder thinkTime(Duration think) {
    return with("thinkTimeMs", Objects.requireNonNull(think, "think").toMillis());
  }

  /**
   * Think times drawn uniformly from {@code [min, max]} milliseconds, seeded per conversation and
   * turn.
   *
   * @param min at least 0
   * @param max at least {@code min}
   * @return a new builder
   */
  public ConversationFeederBuilder thinkTime(Duration min, Duration max) {
    return with("thinkTimeMs", millisRange(min, max));
  }

  /**
   * The feeder: the workload is made once per builder instance; later calls return feeders over the
   * same workload.
   *
   * @return the feeder
   * @throws IllegalArgumentException naming a bad setting
   */
  @Override
  public Iterator<Map<String, Object>> get() {
    return new ConversationFeeder(workload());
  }

  /**
   * The workload behind this builder, made on first use.
   *
   * @return the workload
   * @throws IllegalArgumentException naming a bad setting
   */
  @Override
  public ConversationWorkload workload() {
    return super.workload();
  }

  /** The settings as resolved now: system properties over this builder's values. */
  public ConversationSettings settings() {
    return ConversationSettings.fromSystemProperties(values);
  }

  @Override
  ConversationWorkload build() {
    io.github.gatlingllm.settings.ImageSettings.refuseOutsidePrompts("conversations()");
    ConversationSettings s = settings().checked();
    io.github.gatlingllm.settings.SettingUse.RUN.made(
        io.github.gatlingllm.settings.SettingUse.Part.CONVERSATIONS);
    TokenCounter counter = counter(s.tokenizer());
    ConversationSource source =
        new ConversationSource(
            counter,
            s.seed(),
            s.caseId(),
            Phase.MEASURED.wireName(),
            s.userTokens(),
            s.systemTokens(),
            s.systemGroups(),
            s.minTurns(),
            s.maxTurns(),
            s.minThinkMs(),
            s.maxThinkMs());
    synchronized (ConversationFeederBuilder.class) {
      return new ConversationWorkload(
          ConversationWorkload.claimName(name),
          source,
          s.conversations(),
          s.warmupConversations(),
          Shard.current(),
          s.maxContextTokens(),
          s.seedAuto());
    }
  }
}
