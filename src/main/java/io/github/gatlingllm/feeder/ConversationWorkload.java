package io.github.gatlingllm.feeder;

import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.record.Conversations;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The conversations of one workload: {@code warmupBudget} warmup conversations, then
 * {@code budget} measured ones, handed out in index order across all virtual users (one
 * conversation per feed), and what the LLM action needs while they run: conversations in flight,
 * the barrier between the phases (a measured conversation's first turn waits until every warmup
 * conversation has ended), which group system prompts were sent, and the totals for the run record.
 *
 * <p>In a test run on several machines, shard {@code I/N} hands out the conversation indices {@code
 * I, I + N, ...} of each phase (the budgets are the whole test's).
 *
 * <p>Thread-safe.
 */
public final class ConversationWorkload extends SessionWorkload {

  private static final Logger LOG = LoggerFactory.getLogger(ConversationWorkload.class);

  private final ConversationSource measured;
  private final ConversationSource warmup;
  private final Integer maxContextTokens;
  private final boolean seedAuto;
  private final Map<String, Totals> totals = new LinkedHashMap<>();

  /** What the conversations of one phase came to. */
  private static final class Totals {
    long ended;
    long turns;
    final Map<Conversation.End, Long> ends = new java.util.EnumMap<>(Conversation.End.class);
    long[] durations = new long[16];
    int durationCount;

    void add(Conversation c) {
      ended++;
      turns += c.turnsSent();
      ends.merge(c.end(), 1L, Long::sum);
      long d = c.durationMs();
      if (d >= 0) {
        if (durationCount == durations.length) {
          durations = Arrays.copyOf(durations, durationCount * 2);
        }
        durations[durationCount++] = d;
      }
    }
  }

  /**
   * A workload of which this JVM runs one shard.
   *
   * @param name the workload's name, never null
   * @param measured the measured phase's conversations, never null
   * @param budget the whole test's measured conversations, at least 1
   * @param warmupBudget the whole test's warmup conversations, at least 0
   * @param shard the indices this JVM hands out, never null
   * @param maxContextTokens the context window a turn must fit, or null for none
   * @param seedAuto whether the seed came from the clock, for the record
   * @throws IllegalArgumentException if a budget is out of range
   */
  public ConversationWorkload(
      String name,
      ConversationSource measured,
      long budget,
      long warmupBudget,
      Shard shard,
      Integer maxContextTokens,
      boolean seedAuto) {
    super(name, budget, warmupBudget, shard, Kind.CONVERSATIONS);
    this.measured = Objects.requireNonNull(measured, "measured");
    this.maxContextTokens = maxContextTokens;
    this.seedAuto = seedAuto;
    this.warmup = measured.forPhase(Phase.WARMUP.wireName());
    totals.put(Phase.WARMUP.wireName(), new Totals());
    totals.put(Phase.MEASURED.wireName(), new Totals());
    open();
  }

  /**
   * The name of a new conversation workload: an explicit name must be free (two workloads under one
   * name would share one entry of {@code llm-run.json}'s {@code conversations} and the report); an
   * unnamed workload is {@code conversations}, or {@code conversations-2}, {@code -3}... when
   * taken, said in the log.
   *
   * @param explicit the name given by the builder's {@code name(...)}, or null
   * @return the name
   * @throws IllegalArgumentException if {@code explicit} is taken
   */
  public static String claimName(String explicit) {
    return claimName(
        ConversationWorkload.class,
        explicit,
        "conversations",
        "conversations()",
        "conversations() workload",
        "conversations");
  }

  /**
   * The record of conversation {@code index} of a phase ({@link #next()} hands out warmup
   * conversations first, then measured ones, then {@link ConversationFeeder#DONE} records once both
   * budgets are handed out).
   *
   * @param warm whether the conversation belongs to the warmup phase
   * @param index the conversation index in its phase
   * @return the record, never null
   */
  @Override
  Map<String, Object> record(boolean warm, long index) {
    ConversationSource source = warm ? warmup : measured;
    Map<String, Object> record = record(4);
    record.put(
        ConversationFeeder.CONVERSATION, new Conversation(this, source, source.script(index)));
    return record;
  }

  /**
   * A conversation's system prompt is being sent (its first turn): its ticket, which says whether a
   * conversation of the same phase and group sent it before in this run and whether one of those
   * had its first token by now; marks it as sent. Tell the ticket when the turn's prefill ended and
   * when it ended.
   *
   * @param conversation the conversation, never null
   * @return the ticket, or null for a conversation without a system prompt
   */
  public PrefixLedger.Ticket sendSystem(Conversation conversation) {
    return conversation.group() == null
        ? null
        : sendPrefix(conversation.phase() + ":" + conversation.group());
  }

  /** A conversation ended (called once per conversation handed out, by {@link Conversation}). */
  void ended(Conversation conversation) {
    List<Runnable> release = List.of();
    ConversationSource source = Phase.isWarmup(conversation.phase()) ? warmup : measured;
    source.ended(conversation.index(), conversation.userDigests());
    synchronized (this) {
      totals.get(conversation.phase()).add(conversation);
      release = phaseBudget.end(Phase.isWarmup(conversation.phase()));
    }
    if (conversation.end() == Conversation.End.CONTEXT_LIMIT) {
      LOG.debug(
          "workload {}: {} conversation {} ended before turn {} of {}: the turn would exceed"
              + " llm.maxContextTokens={}",
          name(),
          conversation.phase(),
          conversation.index(),
          conversation.nextTurn(),
          conversation.turns(),
          maxContextTokens);
    }
    release.forEach(Runnable::run);
  }

  /**
   * A conversation handed out will never run (its virtual user ended without sending a turn).
   *
   * @param conversation the conversation
   */
  public void dropped(Conversation conversation) {
    phaseBudget.ended(Phase.isWarmup(conversation.phase()));
  }

  /**
   * A turn of a conversation is being sent.
   *
   * @param conversation the conversation
   */
  public void turnSent(Conversation conversation) {
    countTurn(conversation.phase());
  }

  /**
   * The measured phase's conversations.
   *
   * @return never null
   */
  public ConversationSource measured() {
    return measured;
  }

  /**
   * The warmup phase's conversations.
   *
   * @return never null
   */
  public ConversationSource warmup() {
    return warmup;
  }

  /**
   * Why a context window cannot hold a conversation's first turn, by the estimate the run applies
   * before each turn ({@link Conversation#exceeds}): the system prompt, the user message, {@link
   * io.github.gatlingllm.cache.ConversationPlan#TURN_TEMPLATE_TOKENS} of template and {@code
   * max_tokens} (at least 1 when not known yet).
   *
   * @param maxContextTokens the window, or null for none
   * @param systemTokens the system prompt's tokens, 0 for none
   * @param userTokens the user message's tokens
   * @param maxTokens the request's {@code max_tokens}, or null while not known
   * @return a message naming {@code llm.maxContextTokens}, its value and the minimum, or null when
   *     the first turn fits
   */
  public static String contextMisfit(
      Integer maxContextTokens, int systemTokens, int userTokens, Integer maxTokens) {
    if (maxContextTokens == null) {
      return null;
    }
    int template = io.github.gatlingllm.cache.ConversationPlan.TURN_TEMPLATE_TOKENS;
    long minimum =
        (long) systemTokens + userTokens + template + (maxTokens == null ? 1 : maxTokens);
    if (maxContextTokens >= minimum) {
      return null;
    }
    return "llm.maxContextTokens: got "
        + maxContextTokens
        + ", expected at least "
        + minimum
        + " (the first turn's system prompt "
        + systemTokens
        + " + user message "
        + userTokens
        + " + template allowance "
        + template
        + (maxTokens == null ? " + 1 token of reply" : " + max_tokens " + maxTokens)
        + "), or no conversation gets past its first turn";
  }

  /**
   * Why this workload's context window cannot hold a first turn with this {@code max_tokens}.
   *
   * @param maxTokens the request's {@code max_tokens}
   * @return the message of {@link #contextMisfit}, or null when it fits
   */
  public String contextMisfit(int maxTokens) {
    return contextMisfit(
        maxContextTokens, measured.systemTokens(), measured.userTokens(), maxTokens);
  }

  /**
   * A conversation's window ({@code llm.maxContextTokens}): a conversation ends before a turn's
   * prompt and {@code max_tokens} would pass it; none without it.
   */
  @Override
  public PromptCeiling promptCeiling() {
    return maxContextTokens == null
        ? null
        : new PromptCeiling(name(), null, maxContextTokens, "llm.maxContextTokens");
  }

  /**
   * The context window a turn must fit.
   *
   * @return tokens, or null for none
   */
  public Integer maxContextTokens() {
    return maxContextTokens;
  }

  /**
   * The workload as {@code llm-run.json} records it, one entry of {@code conversations}: {@code
   * workload}, {@code generator_version}, {@code seed} ({@code seed_auto} when from the clock),
   * {@code case_id}, {@code tokenizer}, {@code spec} ({@code turns_min}, {@code turns_max}, {@code
   * user_tokens}, {@code system_tokens}, {@code system_groups}, {@code think_time_ms_min}, {@code
   * think_time_ms_max}, {@code max_context_tokens}), {@code budget} ({@code conversations}, {@code
   * warmup_conversations}), {@code phases.{warmup,measured}}: {@code conversations} (ended), {@code
   * turns} (sent), {@code digest} (over the ended conversations' digests, null when none), {@code
   * completed}, {@code ended_by_context_limit}, {@code ended_by_error}, {@code
   * turns_per_conversation} (mean), {@code duration_ms} ({@code count, mean, p50, p90, max}: first
   * turn's start to last turn's end), and {@code unfinished} (handed out, not ended when the run
   * ended).
   *
   * @return a new entry
   */
  public synchronized Conversations toRecord() {
    return new Conversations(
        name(),
        PromptSource.GENERATOR_VERSION,
        measured.seed(),
        seedAuto ? Boolean.TRUE : null,
        measured.caseId(),
        measured.counter().identity(),
        new Conversations.Spec(
            measured.minTurns(),
            measured.maxTurns(),
            measured.userTokens(),
            measured.systemTokens(),
            measured.systemGroups(),
            measured.minThinkMs(),
            measured.maxThinkMs(),
            maxContextTokens),
        new Conversations.Budget(budget(), warmupBudget()),
        new Conversations.Phases(
            phase(totals.get(Phase.WARMUP.wireName()), warmup),
            phase(totals.get(Phase.MEASURED.wireName()), measured)),
        phaseBudget.inFlight(),
        null);
  }

  private static Conversations.Phase phase(Totals t, ConversationSource source) {
    long[] sorted = Arrays.copyOf(t.durations, t.durationCount);
    Arrays.sort(sorted);
    return new Conversations.Phase(
        t.ended,
        t.turns,
        source.digest(),
        t.ends.getOrDefault(Conversation.End.COMPLETED, 0L),
        t.ends.getOrDefault(Conversation.End.CONTEXT_LIMIT, 0L),
        t.ends.getOrDefault(Conversation.End.ERROR, 0L),
        t.ended == 0 ? null : round3((double) t.turns / t.ended),
        sorted.length == 0
            ? new Conversations.Durations(0L, null, null, null, null)
            : new Conversations.Durations(
                (long) sorted.length,
                round3(Arrays.stream(sorted).average().orElse(0)),
                nearestRank(sorted, 0.50),
                nearestRank(sorted, 0.90),
                sorted[sorted.length - 1]),
        null);
  }

  /** The nearest-rank percentile of sorted values. */
  static long nearestRank(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  @Override
  public String toString() {
    return "conversations " + name();
  }
}
