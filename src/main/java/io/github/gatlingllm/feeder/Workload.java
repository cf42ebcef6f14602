package io.github.gatlingllm.feeder;

import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The prompts of one workload: a warmup phase of {@code warmupBudget} requests, then a
 * measured phase of {@code budget} requests, handed out in index order across all virtual users (so
 * a phase digest over N requests equals {@code gatling-llm prompts --requests N}'s), and what the
 * LLM action needs to know of them while they run: requests in flight, the barrier between warmup
 * and measured phases, and whether the budget is spent.
 *
 * <p>In a test run on several machines, the workload of {@link Shard} {@code I/N} hands out only
 * the indices {@code I, I + N, I + 2N, ...} below each budget (the budgets are the whole test's),
 * so the shards' requests together are the one-machine run's.
 *
 * <p>Thread-safe: Gatling polls a feeder from one actor at a time, possibly on different threads;
 * the LLM action reports completions from every event loop.
 */
public final class Workload extends PhasedWorkload {

  private static final Logger LOG = LoggerFactory.getLogger(Workload.class);

  private final PromptSource measured;
  private final PromptSource warmup;
  private final boolean warmGroups;
  private final boolean seedAuto;

  /**
   * Per prefix key sent so far: when a second request with it was sent ({@link System#nanoTime()}),
   * or {@link #SENT_ONCE}. One entry a repeat prompt or prefix group, never one a request.
   */
  private final Map<String, Long> sentPrefixes = new java.util.HashMap<>();

  /** Which repeat prompt and group prefixes were sent, and whose prefill ended. */
  private final PrefixLedger prefixes = new PrefixLedger();

  private static final Long SENT_ONCE = Long.MIN_VALUE;
  private volatile SweepStep sweepStep;
  private final TraceReplay replay;

  /**
   * A workload over a measured source; its warmup source is the same spec's {@code warmup} phase.
   *
   * @param name the workload's name, shown in the record and logs, never blank
   * @param measured the measured phase's prompts, never null
   * @param budget measured requests, at least 1
   * @param warmupBudget warmup requests, at least 0
   * @throws IllegalArgumentException if a budget is out of range
   */
  public Workload(String name, PromptSource measured, long budget, long warmupBudget) {
    this(name, measured, budget, warmupBudget, Shard.SINGLE, false, false, null);
  }

  /**
   * A workload of which this JVM runs one shard.
   *
   * @param name the workload's name, shown in the record and logs, never blank
   * @param measured the measured phase's prompts, never null
   * @param budget the whole test's measured requests, at least 1
   * @param warmupBudget the whole test's warmup requests, at least 0
   * @param shard the indices this JVM hands out, never null
   * @throws IllegalArgumentException if a budget is out of range
   */
  public Workload(String name, PromptSource measured, long budget, long warmupBudget, Shard shard) {
    this(name, measured, budget, warmupBudget, shard, false, false, null);
  }

  /**
   * A workload replaying a trace: request index {@code i} of its measured phase is row {@code i},
   * no warmup; the shard sends rows {@code I, I + N, ...}.
   *
   * @param name the workload's name, never blank
   * @param replay the trace replay, never null
   * @param shard the rows this JVM sends, never null
   */
  public Workload(String name, TraceReplay replay, Shard shard) {
    this(
        name,
        replay.source(),
        replay.trace().rows(),
        0,
        shard,
        false,
        false,
        Objects.requireNonNull(replay, "replay"));
  }

  /**
   * A workload of which this JVM runs one shard, its warmup source warming the measured groups or
   * not.
   *
   * @param name the workload's name, shown in the record and logs, never blank
   * @param measured the measured phase's prompts, never null
   * @param budget the whole test's measured requests, at least 1
   * @param warmupBudget the whole test's warmup requests, at least 0
   * @param shard the indices this JVM hands out, never null
   * @param warmGroups whether the warmup prompts start with the measured phase's group prefixes
   *     ({@link PromptSource#forPhaseWarmingGroups}); shared-prefix only, else ignored
   * @param seedAuto whether the seed was picked from the clock ({@code llm.seed=auto}), for the
   *     record
   * @param replay the trace this workload replays, or null for generated or file prompts
   * @throws IllegalArgumentException if a budget is out of range
   */
  public Workload(
      String name,
      PromptSource measured,
      long budget,
      long warmupBudget,
      Shard shard,
      boolean warmGroups,
      boolean seedAuto,
      TraceReplay replay) {
    super(name, budget, warmupBudget, shard, Kind.PROMPTS);
    this.replay = replay;
    this.measured = Objects.requireNonNull(measured, "measured");
    this.warmGroups = warmGroups && measured.spec().mode() == PromptMode.SHARED_PREFIX;
    this.seedAuto = seedAuto;
    this.warmup =
        this.warmGroups
            ? measured.forPhaseWarmingGroups(Phase.WARMUP.wireName())
            : measured.forPhase(Phase.WARMUP.wireName());
    if (warmGroups && !this.warmGroups) {
      LOG.warn(
          "workload {}: warmGroups goes with shared-prefix prompts only, not {}: ignored",
          name,
          measured.spec().mode().wireName());
    }
    if (this.warmGroups && warmupBudget < measured.spec().groups()) {
      LOG.warn(
          "workload {}: warmGroups with {} warmup requests warms {} of its {} prefix groups: the"
              + " other groups' first measured requests are planned as misses",
          name,
          warmupBudget,
          warmupBudget,
          measured.spec().groups());
    }
    measured.warm();
    if (warmupBudget > 0) {
      warmup.warm();
    }
    if (!shard.single()) {
      LOG.info(
          "workload {}: shard {} hands out request indices {}, {}, ...: {} of the {} measured"
              + " requests and {} of the {} warmup requests",
          name,
          shard,
          shard.index(),
          shard.index() + shard.count(),
          shard.share(budget),
          budget,
          shard.share(warmupBudget),
          warmupBudget);
    }
    open();
  }

  /**
   * The longest prompt: a trace's longest row ({@code input_length}, and with its {@code
   * output_length}); generated prompts' size ({@code llm.inputTokens}); none for a prompts file
   * (counted as it is sent).
   */
  @Override
  public PromptCeiling promptCeiling() {
    if (replay != null) {
      Trace trace = replay.trace();
      return new PromptCeiling(
          name(),
          trace.maxInputLength(),
          trace.maxInputPlusOutputLength(),
          "the trace's input_length and output_length");
    }
    if (measured.file() != null || measured.inputTokens() < 1) {
      return null;
    }
    return new PromptCeiling(name(), measured.inputTokens(), null, "llm.inputTokens");
  }

  /**
   * The name of a new prompt or trace workload: an explicit name must be free (two workloads under
   * one name would share one entry of {@code llm-run.json}'s {@code workloads}, one section of the
   * report and one {@code workload} value in {@code llm-requests.jsonl}); an unnamed workload takes
   * its default, or {@code DEFAULT-2}, {@code -3}... when another open workload has it, said in the
   * log.
   *
   * @param explicit the name given by the builder's {@code name(...)}, or null
   * @param fallback the default name (the prompt mode, {@code file}, {@code trace}), never null
   * @param dsl the builder's call for the message, e.g. {@code prompts()}
   * @return the name to use
   * @throws IllegalArgumentException if {@code explicit} is another open workload's name
   */
  public static String claimName(String explicit, String fallback, String dsl) {
    return claimName(Workload.class, explicit, fallback, dsl, "workload", "workloads");
  }

  /**
   * The record of request {@code index} of a phase ({@link #next()} hands out warmup prompts first,
   * then measured ones, then {@link PromptFeeder#DONE} records once both budgets are handed out). A
   * prompt is taken and forgotten at once: the source keeps its digest, the record holds its text.
   *
   * @param warm whether the request belongs to the warmup phase
   * @param index the request index in its phase
   * @return the record, never null
   */
  @Override
  Map<String, Object> record(boolean warm, long index) {
    PromptSource source = warm ? warmup : measured;
    Prompt prompt = source.take(index);
    source.forget(index);
    Map<String, Object> record = record(16);
    record.put(PromptFeeder.INDEX, index);
    record.put(PromptFeeder.PHASE, source.phase());
    record.put(PromptFeeder.TEXT, prompt.text());
    record.put(PromptFeeder.PROMPT_ID, prompt.promptId());
    record.put(PromptFeeder.DIGEST, prompt.digest());
    if (prompt.prefixGroup() != null) {
      record.put(PromptFeeder.PREFIX_GROUP, prompt.prefixGroup());
      record.put(PromptFeeder.SHARED_PREFIX_TOKENS, prompt.sharedPrefixTokens());
    }
    String prefixKey = prefixKey(source, prompt);
    if (prefixKey != null) {
      record.put(PromptFeeder.PREFIX_KEY, prefixKey);
    }
    record.put(PromptFeeder.PLANNED_TOKENS, prompt.plannedCount().value());
    // Always set, so that a record never inherits the previous record's values in the session
    // (Gatling adds a record's keys to the session; it removes none).
    List<Map<String, String>> messages = List.of();
    if (prompt.messages() != null) {
      messages = new java.util.ArrayList<>(prompt.messages().size());
      for (io.github.gatlingllm.prompt.PromptFile.Message m : prompt.messages()) {
        Map<String, String> message = new java.util.LinkedHashMap<>(4);
        message.put("role", m.role());
        message.put("content", m.content());
        messages.add(java.util.Collections.unmodifiableMap(message));
      }
      messages = java.util.Collections.unmodifiableList(messages);
    }
    record.put(PromptFeeder.MESSAGES, messages);
    record.put(PromptFeeder.MAX_TOKENS, prompt.maxTokens() == null ? 0 : prompt.maxTokens());
    AtomicBoolean claim = new AtomicBoolean();
    record.put(PromptFeeder.CLAIM, claim);
    TraceRow row = null;
    if (replay != null) {
      row = replay.row(index);
      replay.annotate(record, row);
    }
    record.put(
        FedPrompt.KEY, new FedPrompt(this, source.phase(), index, prompt, prefixKey, row, claim));
    return record;
  }

  /**
   * What a prefix cache can hold of a prompt from earlier requests of this workload: {@code repeat}
   * (the one repeated prompt, warmup included), {@code <prefix phase>:g<group>} (a shared-prefix
   * group prefix: the warmup phase's own, or with warm groups the measured phase's), or null
   * (unique prompts share nothing but the chat template).
   */
  static String prefixKey(PromptSource source, Prompt prompt) {
    switch (source.spec().mode()) {
      case REPEAT:
        return "repeat";
      case SHARED_PREFIX:
        return source.prefixPhase() + ":g" + prompt.prefixGroup();
      default:
        return null;
    }
  }

  /**
   * The prompt of an item handed out earlier, made again (a pure function of its index), for the
   * record of one never sent.
   *
   * @param warm whether it belongs to the warmup phase
   * @param index its index in the phase
   * @return the prompt, never null
   */
  public Prompt promptAgain(boolean warm, long index) {
    PromptSource source = warm ? warmup : measured;
    Prompt prompt = source.take(index);
    source.forget(index);
    return prompt;
  }

  /**
   * A request of a fed record begins (it is sent now, or held by {@link #holdUntilWarmedUp}): the
   * record's first request takes over the record's place in flight, counted when it was handed out;
   * each further request on the same record (two LLM calls on one record) is counted on its own.
   * Every request begun is ended by one {@link #ended} call.
   *
   * @param claim the record's {@link PromptFeeder#CLAIM}, never null
   * @param phase the record's phase
   */
  public synchronized void begin(AtomicBoolean claim, String phase) {
    if (claim.compareAndSet(false, true)) {
      return;
    }
    phaseBudget.begin(Phase.isWarmup(phase));
  }

  /**
   * A request whose prompt has this prefix key is being sent: says whether a request with the same
   * key was sent before it in this run (warmup included), and marks the key as sent. Called in the
   * order requests are sent (their start), so "the first request of a group" is the first sent.
   *
   * @param prefixKey the record's {@link PromptFeeder#PREFIX_KEY}, or null (never sent before)
   * @return true when a request with this key was sent before
   */
  public boolean sentBefore(String prefixKey) {
    return sentBefore(prefixKey, System.nanoTime());
  }

  /**
   * {@link #sentBefore(String)}, stamping when: the key's second request's send time is kept, so
   * that its first request can tell whether another was sent while it was in flight ({@link
   * #sentAgainBy}).
   *
   * @param prefixKey the record's {@link PromptFeeder#PREFIX_KEY}, or null (never sent before)
   * @param sentNanos when the request is sent, {@link System#nanoTime()}
   * @return true when a request with this key was sent before
   */
  public synchronized boolean sentBefore(String prefixKey, long sentNanos) {
    if (prefixKey == null) {
      return false;
    }
    Long second = sentPrefixes.get(prefixKey);
    if (second == null) {
      sentPrefixes.put(prefixKey, SENT_ONCE);
      return false;
    }
    if (second.equals(SENT_ONCE)) {
      sentPrefixes.put(prefixKey, sentNanos);
    }
    return true;
  }

  /**
   * What the cache plan knows of a fed prompt as it is sent, each kind of workload answering for
   * itself: a trace row, the tokens of its leading blocks that earlier requests sent, and of those
   * the ones whose prefill had ended; a generated prompt, whether its repeat prompt or group prefix
   * was sent before, and whether its prefill had ended ({@link PrefixLedger}); a prompts file,
   * nothing (its requests are judged against no plan). Marks the prompt's prefix (or blocks) as
   * sent: call once per request, in the order requests are sent, and tell the returned ticket when
   * the request's prefill ended and when it ended.
   *
   * @param fed a prompt this workload fed, never null and not {@link FedPrompt#spent}
   * @return the plan's input and the request's ticket, or null for a prompts file
   */
  public Sending planSent(FedPrompt fed) {
    Prompt prompt = fed.prompt();
    Integer planned = prompt.plannedCount().value();
    if (replay != null) {
      TraceRow row = fed.trace();
      PrefixLedger.Ticket ticket = replay.send(row.hashIds());
      int shared = replay.tokens(ticket.sentLead(), row.hashIds().length, row.inputTokens());
      CachePlan.Sent sent =
          new CachePlan.Sent(
              PromptMode.TRACE,
              shared > 0,
              shared,
              planned,
              !shard().single(),
              replay.warmPrefixTokens((int) fed.index()),
              false,
              null);
      return new Sending(sent, ticket);
    }
    if (measured.file() != null) {
      return null;
    }
    boolean before = sentBefore(fed.prefixKey());
    PrefixLedger.Ticket ticket = fed.prefixKey() == null ? null : prefixes.send(fed.prefixKey());
    CachePlan.Sent sent =
        new CachePlan.Sent(
            measured.spec().mode(),
            before,
            prompt.sharedPrefixTokens(),
            planned,
            !shard().single());
    return new Sending(sent, ticket);
  }

  /**
   * A fed prompt's request as it is sent: the cache plan's input, and its ticket in the workload's
   * {@link PrefixLedger} (told when the request's prefill ended and when it ended).
   *
   * @param sent the plan's input, never null
   * @param ticket the ticket, or null for a prompt that shares no prefix
   */
  public record Sending(CachePlan.Sent sent, PrefixLedger.Ticket ticket) {}

  /**
   * What is known of a fed prompt's plan once its request ended: the first request of its repeat
   * prompt or group with another of them sent while it was in flight may have found that one's
   * prefix ({@link #sentAgainBy}).
   *
   * @param fed the prompt, never null
   * @param sent its plan as sent ({@link #planSent}), never null
   * @param endNanos when the request ended, {@link System#nanoTime()}
   * @return the plan's input as ended
   */
  public CachePlan.Sent planEnded(FedPrompt fed, CachePlan.Sent sent, long endNanos) {
    return planEnded(fed, sent, null, endNanos);
  }

  /**
   * What is known of a fed prompt's plan once its request ended. Its prefix ({@link PrefixLedger}):
   * when part of what other requests may have left it was not ready as it was sent (still in
   * prefill then, or sent by another while this one was in prefill), the plan expects the ready
   * part and takes what the server found of the rest ({@link CachePlan.Sent#readyPrefixTokens()}).
   * Its warm ceiling: the first request of its repeat prompt or group with another of them sent
   * while it was in flight may have found that one's prefix ({@link #sentAgainBy}).
   *
   * @param fed the prompt, never null
   * @param sent its plan as sent ({@link #planSent}), never null
   * @param ticket its ticket ({@link Sending#ticket()}), or null
   * @param endNanos when the request ended, {@link System#nanoTime()}
   * @return the plan's input as ended
   */
  public CachePlan.Sent planEnded(
      FedPrompt fed, CachePlan.Sent sent, PrefixLedger.Ticket ticket, long endNanos) {
    CachePlan.Sent ended = sent;
    if (ticket != null && !ticket.settled()) {
      if (replay != null) {
        TraceRow row = fed.trace();
        int blocks = row.hashIds().length;
        ended =
            new CachePlan.Sent(
                PromptMode.TRACE,
                true,
                replay.tokens(ticket.foundLead(), blocks, row.inputTokens()),
                sent.plannedTokens(),
                sent.sharded(),
                sent.warmPrefixTokens(),
                sent.sentInFlight(),
                replay.tokens(ticket.readyLead(), blocks, row.inputTokens()));
      } else {
        ended =
            new CachePlan.Sent(
                sent.mode(),
                true,
                sent.sharedPrefixTokens(),
                sent.plannedTokens(),
                sent.sharded(),
                sent.warmPrefixTokens(),
                sent.sentInFlight(),
                0);
      }
    }
    if (sent.sentBefore()) {
      return ended;
    }
    return sentAgainBy(fed.prefixKey(), endNanos) ? ended.withSentInFlight() : ended;
  }

  /**
   * Whether a second request with this prefix key was sent by a time: for the key's first request,
   * whether another request of the run with the same repeat prompt or group prefix was sent while
   * it was in flight (two requests in flight together may reach the server's cache in either order,
   * so either may find the other's prefix: no warm start).
   *
   * @param prefixKey the record's {@link PromptFeeder#PREFIX_KEY}, or null (false)
   * @param endNanos when the first request ended, {@link System#nanoTime()}
   * @return true when a second request with this key was sent at or before {@code endNanos}
   */
  public synchronized boolean sentAgainBy(String prefixKey, long endNanos) {
    Long second = prefixKey == null ? null : sentPrefixes.get(prefixKey);
    return second != null && !second.equals(SENT_ONCE) && second - endNanos <= 0;
  }

  /**
   * Whether the warmup phase warms the measured phase's prefix groups.
   *
   * @return true for a shared-prefix workload built with warm groups
   */
  public boolean warmGroups() {
    return warmGroups;
  }

  /**
   * Whether the seed was picked from the clock ({@code llm.seed=auto}).
   *
   * @return true when it was
   */
  public boolean seedAuto() {
    return seedAuto;
  }

  /**
   * A fed record's request ended or was dropped (one call per {@link #begin}): updates what is in
   * flight and releases the measured requests held by {@link #holdUntilWarmedUp} when the last
   * warmup request ends.
   *
   * @param phase the record's phase
   */
  public void ended(String phase) {
    phaseBudget.ended(Phase.isWarmup(phase));
  }

  /**
   * The prompt spec.
   *
   * @return never null
   */
  public PromptSpec spec() {
    return measured.spec();
  }

  /**
   * The measured phase's source (seed, case id, tokenizer, digest).
   *
   * @return never null
   */
  public PromptSource measured() {
    return measured;
  }

  /**
   * The warmup phase's source.
   *
   * @return never null
   */
  public PromptSource warmup() {
    return warmup;
  }

  /**
   * Where a workload stands in a working-set sweep ({@code LlmDsl.workingSetSweep}).
   *
   * @param sweep the sweep's name
   * @param step the step's position, from 0
   * @param groups the step's prefix groups
   */
  public record SweepStep(String sweep, int step, int groups) {}

  /**
   * Marks this workload as a step of a working-set sweep; the run reports the sweep's steps
   * together.
   *
   * @param step the step, never null
   */
  public void joinSweep(SweepStep step) {
    this.sweepStep = Objects.requireNonNull(step, "step");
  }

  /**
   * The working-set sweep step this workload is, if any.
   *
   * @return the step, or null
   */
  public SweepStep sweepStep() {
    return sweepStep;
  }

  /**
   * The trace this workload replays, if any.
   *
   * @return the replay, or null for generated prompts
   */
  public TraceReplay replay() {
    return replay;
  }

  @Override
  public String toString() {
    return "workload " + name();
  }
}
