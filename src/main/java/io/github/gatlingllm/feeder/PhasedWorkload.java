package io.github.gatlingllm.feeder;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. What every workload shares, prompts, traces, conversations and agent sessions alike: its
 * name, a warmup phase of {@code warmupBudget} items then a measured phase of {@code budget} items
 * handed out in index order across all virtual users ({@link PhaseBudget}; shard {@code I/N} hands
 * out the indices {@code I, I + N, ...} of the whole test's budgets), the barrier that holds a
 * measured item until the warmup has ended, the {@code DONE} record fed once both budgets are
 * handed out, and the process-wide list of open workloads whose spending stops a run's injection.
 *
 * <p>Gatling polls a feeder from one actor: {@link #next()} is called serially, possibly from
 * different threads; the feeder never runs dry ({@link PhasedFeeder#hasNext()} is always true), a
 * spent workload feeds {@code DONE} records, on which the LLM action ends the virtual user.
 *
 * <p>Thread-safe.
 */
public abstract class PhasedWorkload {

  /**
   * The workloads of every kind made in this JVM and not yet closed by a run: a run stops its
   * injection once all of them are spent. Gatling builds a simulation's feeders before its load
   * starts but gives them no handle on the run, hence this one process-wide list.
   */
  private static final List<PhasedWorkload> OPEN = new CopyOnWriteArrayList<>();

  private final String name;
  private final long budget;
  private final long warmupBudget;
  private final Shard shard;

  /** The budget of both phases; {@link #open()} makes it visible to the run. */
  final PhaseBudget phaseBudget;

  private final Map<String, Object> doneRecord;
  private final String workloadKey;
  private final String doneKey;

  /**
   * What one kind of workload (prompts, conversations, agent sessions) is called in its messages
   * and its records, the same for every workload of the kind.
   *
   * @param log the kind's logger, for the spent line
   * @param budgetSetting the measured budget's setting name, for the refusal
   * @param warmupSetting the warmup budget's setting name, for the refusal
   * @param items what is handed out, plural, for the spent line
   * @param spentTail what ends the spent line, or empty ({@link PhaseBudget})
   * @param workloadKey the session key of the fed workload, put in the {@code DONE} record
   * @param doneKey the session key of the {@code DONE} flag
   */
  record Kind(
      Logger log,
      String budgetSetting,
      String warmupSetting,
      String items,
      String spentTail,
      String workloadKey,
      String doneKey) {

    /** Prompts and trace rows ({@link Workload}). */
    static final Kind PROMPTS =
        new Kind(
            LoggerFactory.getLogger(Workload.class),
            "requests",
            "warmup",
            "requests",
            " (the injection outlasts the prompt budget)",
            PromptFeeder.WORKLOAD,
            PromptFeeder.DONE);

    /** Conversations ({@link ConversationWorkload}). */
    static final Kind CONVERSATIONS =
        new Kind(
            LoggerFactory.getLogger(ConversationWorkload.class),
            "conversations",
            "warmupConversations",
            "conversations",
            "",
            ConversationFeeder.WORKLOAD,
            ConversationFeeder.DONE);

    /** Agent sessions ({@link AgentWorkload}). */
    static final Kind AGENT_SESSIONS =
        new Kind(
            LoggerFactory.getLogger(AgentWorkload.class),
            "agent.sessions",
            "agent.warmupSessions",
            "agent sessions",
            "",
            AgentFeeder.WORKLOAD,
            AgentFeeder.DONE);
  }

  /**
   * The base of a workload; the subclass calls {@link #open()} last in its constructor.
   *
   * @param name the workload's name, never null
   * @param budget the whole test's measured items, at least 1
   * @param warmupBudget the whole test's warmup items, at least 0
   * @param shard the indices this JVM hands out, never null
   * @param kind the kind's words and keys, never null
   * @throws NullPointerException if {@code name} or {@code shard} is null
   * @throws IllegalArgumentException naming the budget's setting when it is out of range
   */
  PhasedWorkload(String name, long budget, long warmupBudget, Shard shard, Kind kind) {
    this.name = Objects.requireNonNull(name, "name");
    this.shard = Objects.requireNonNull(shard, "shard");
    if (budget < 1) {
      throw new IllegalArgumentException(
          kind.budgetSetting() + ": got " + budget + ", expected >= 1");
    }
    if (warmupBudget < 0) {
      throw new IllegalArgumentException(
          kind.warmupSetting() + ": got " + warmupBudget + ", expected >= 0");
    }
    this.budget = budget;
    this.warmupBudget = warmupBudget;
    this.phaseBudget =
        new PhaseBudget(
            kind.log(), name, kind.items(), kind.spentTail(), budget, warmupBudget, shard);
    this.workloadKey = kind.workloadKey();
    this.doneKey = kind.doneKey();
    Map<String, Object> done = new HashMap<>(4);
    done.put(doneKey, true);
    done.put(workloadKey, this);
    this.doneRecord = Collections.unmodifiableMap(done);
  }

  /** Puts this workload on the list {@link #allSpent()} reads: the last step of a constructor. */
  final void open() {
    OPEN.add(this);
  }

  /**
   * Whether every workload made in this JVM and not yet closed is {@link #spent()}, of every kind.
   *
   * @return true when no workload has anything more to send or wait for
   */
  public static boolean allSpent() {
    for (PhasedWorkload w : OPEN) {
      if (!w.spent()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether an open workload of one kind has this name.
   *
   * @param kind the kind, e.g. {@code AgentWorkload.class}
   * @param name a workload name
   * @return true when one has
   */
  static boolean nameTaken(Class<? extends PhasedWorkload> kind, String name) {
    for (PhasedWorkload w : OPEN) {
      if (kind.isInstance(w) && w.name.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The name of a new workload of one kind: an explicit name must be free among the open workloads
   * of its kind (two under one name would share one entry of {@code llm-run.json}, one section of
   * the report and one {@code workload} value in {@code llm-requests.jsonl}); an unnamed workload
   * takes its default, or {@code DEFAULT-2}, {@code -3}... when another open workload of its kind
   * has it, said in the log.
   *
   * @param kind the workload's kind
   * @param explicit the name given by the builder's {@code name(...)}, or null
   * @param fallback the default name, never null
   * @param dsl the builder's call for the messages, e.g. {@code prompts()}
   * @param what the workloads' words in the messages, e.g. {@code workload} or {@code
   *     conversations() workload}
   * @param entries the entries of {@code llm-run.json} one workload is one of, e.g. {@code
   *     workloads}
   * @return the name to use
   * @throws IllegalArgumentException if {@code explicit} is another open workload's name
   */
  static synchronized String claimName(
      Class<? extends PhasedWorkload> kind,
      String explicit,
      String fallback,
      String dsl,
      String what,
      String entries) {
    if (explicit != null) {
      if (nameTaken(kind, explicit)) {
        throw new IllegalArgumentException(
            dsl
                + ".name: got \""
                + explicit
                + "\", which another "
                + what
                + " of this run has, expected a name of its own (each workload is one entry of"
                + " llm-run.json's "
                + entries
                + ")");
      }
      return explicit;
    }
    String name = fallback;
    for (int i = 2; nameTaken(kind, name); i++) {
      name = fallback + "-" + i;
    }
    if (!name.equals(fallback)) {
      org.slf4j.LoggerFactory.getLogger(kind)
          .info(
              "{}: another unnamed {} of this run is named {}: this one is named {} (give each its"
                  + " own .name(...) to choose)",
              dsl,
              what,
              fallback,
              name);
    }
    return name;
  }

  /**
   * The most this workload asks of a server's context, known before load.
   *
   * @return the ceiling, or null when it is not known before the prompts are made (a prompts file
   *     is counted as it is sent; a conversation without {@code llm.maxContextTokens} grows with
   *     its replies)
   */
  public PromptCeiling promptCeiling() {
    return null;
  }

  /**
   * The ceilings of every workload made in this JVM and not yet closed that knows one.
   *
   * @return in the order the workloads were made, never null
   */
  public static List<PromptCeiling> openCeilings() {
    List<PromptCeiling> out = new java.util.ArrayList<>();
    for (PhasedWorkload w : OPEN) {
      PromptCeiling c = w.promptCeiling();
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * The run has ended: every workload made in this JVM and not yet closed hands out nothing more
   * ({@code DONE} records), so no prompt is handed out that the run's end would not see.
   */
  public static void stopHandingOut() {
    for (PhasedWorkload w : OPEN) {
      w.phaseBudget.stop();
    }
  }

  /**
   * The open workloads of one kind made in this JVM.
   *
   * @param kind the kind, e.g. {@code Workload.class}
   * @param <W> the kind
   * @return a copy, in the order they were made
   */
  public static <W extends PhasedWorkload> List<W> open(Class<W> kind) {
    List<W> out = new java.util.ArrayList<>();
    for (PhasedWorkload w : OPEN) {
      if (kind.isInstance(w)) {
        out.add(kind.cast(w));
      }
    }
    return out;
  }

  /**
   * An item handed out is in the run record now: its request ended and was recorded, or it was
   * recorded as not sent.
   *
   * @param phase the item's phase
   * @param index its index in the phase
   * @return true the first time for an index handed out here
   */
  public boolean recorded(String phase, long index) {
    return phaseBudget.recorded(io.github.gatlingllm.prompt.Phase.isWarmup(phase), index);
  }

  /**
   * The items of a phase handed out and not yet in the run record.
   *
   * @param warmup the phase
   * @return their indices, in order; often none
   */
  public List<Long> unrecorded(boolean warmup) {
    return phaseBudget.unrecorded(warmup);
  }

  /** Takes this workload off the list {@link #allSpent()} reads: its run has ended. */
  public void close() {
    OPEN.remove(this);
  }

  /**
   * The next record: warmup items first, then measured ones ({@link #record(boolean, long)}), then
   * the {@code DONE} record (the flag and this workload) once both budgets are handed out. Called
   * serially (Gatling's feeder contract), possibly from different threads.
   *
   * @return the record, never null
   */
  public final synchronized Map<String, Object> next() {
    PhaseBudget.Slot slot = phaseBudget.take();
    return slot == null ? doneRecord : record(slot.warmup(), slot.index());
  }

  /**
   * The record of one item handed out, begun with {@link #record(int)}.
   *
   * @param warmup whether it belongs to the warmup phase
   * @param index its index in its phase (the whole test's)
   * @return the record, never null
   */
  abstract Map<String, Object> record(boolean warmup, long index);

  /**
   * A new record of one item: this workload under its key and the {@code DONE} flag false, for
   * {@link #next()} to complete.
   *
   * @param capacity the record's expected number of keys
   * @return a new mutable map
   */
  final Map<String, Object> record(int capacity) {
    Map<String, Object> record = new HashMap<>(capacity);
    record.put(workloadKey, this);
    record.put(doneKey, false);
    return record;
  }

  /**
   * Holds a measured item back until every warmup item has been handed out and has ended, so the
   * measured phase starts on the state the warmup left.
   *
   * @param resume runs once the warmup has ended (on the thread that ends the last warmup item), or
   *     never when this returns false
   * @return true if the item must wait for {@code resume}, false if it may go now
   */
  public boolean holdUntilWarmedUp(Runnable resume) {
    return phaseBudget.holdUntilWarmedUp(resume);
  }

  /**
   * Whether every item is handed out and every one has ended.
   *
   * @return true when the workload has nothing more to send or wait for
   */
  public boolean spent() {
    return phaseBudget.spent();
  }

  /**
   * The workload's name.
   *
   * @return never null
   */
  public String name() {
    return name;
  }

  /**
   * The whole test's measured budget.
   *
   * @return at least 1
   */
  public long budget() {
    return budget;
  }

  /**
   * The whole test's warmup budget.
   *
   * @return at least 0
   */
  public long warmupBudget() {
    return warmupBudget;
  }

  /**
   * The shard of the test this workload hands out.
   *
   * @return {@link Shard#SINGLE} on one machine
   */
  public Shard shard() {
    return shard;
  }
}
