package io.github.gatlingllm.feeder;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * Not API. The budget of one workload, prompt or conversation alike: a warmup phase of {@code
 * warmupBudget} items, then a measured phase of {@code budget} items, handed out in index order
 * across all virtual users (shard {@code I/N} hands out only the indices {@code I, I + N, ...}
 * below each budget, the budgets being the whole test's); what is in flight; the barrier that holds
 * a measured item until every warmup item has ended; and the line said once when the measured
 * budget is handed out.
 *
 * <p>Thread-safe: every method takes this budget's lock, and the held items released by the end of
 * the warmup run outside it.
 */
final class PhaseBudget {

  /**
   * An item handed out.
   *
   * @param warmup whether it belongs to the warmup phase
   * @param index its index in its phase
   */
  record Slot(boolean warmup, long index) {}

  private final Logger log;
  private final String workload;
  private final String items;
  private final String spentTail;
  private final long budget;
  private final long warmupBudget;
  private final Shard shard;
  private final List<Runnable> parked = new ArrayList<>();
  private long nextWarmup;
  private long nextMeasured;
  private long warmupInFlight;
  private long inFlight;
  private long doneHandedOut;
  private boolean stopped;
  private final Ledger warmupLedger;
  private final Ledger measuredLedger;

  /**
   * Which items of one phase handed out are in the run record: the items handed out are the phase's
   * slots {@code 0, 1, ...} (index {@code shard.index() + slot * shard.count()}); every slot below
   * {@code low} is recorded, and a bit a slot at or above it. A run whose records come in about the
   * order the items went out keeps a few words; an item never recorded (a prompt fed to Gatling's
   * own {@code http()}) keeps the span from it to the last recorded one, a bit each.
   */
  private static final class Ledger {
    private final long first;
    private final long stride;
    private long handed;
    private long low;
    private BitSet recorded = new BitSet();

    Ledger(Shard shard) {
      this.first = shard.index();
      this.stride = shard.count();
    }

    /** The slot of a handed-out index, or -1 when the index was not handed out here. */
    private long slot(long index) {
      long offset = index - first;
      if (offset < 0 || offset % stride != 0 || offset / stride >= handed) {
        return -1;
      }
      return offset / stride;
    }

    /** Marks an index recorded; true the first time. */
    boolean mark(long index) {
      long slot = slot(index);
      if (slot < low) {
        return false;
      }
      int bit = (int) (slot - low);
      if (recorded.get(bit)) {
        return false;
      }
      recorded.set(bit);
      if (bit == 0) {
        int clear = recorded.nextClearBit(0);
        low += clear;
        if (clear >= recorded.length()) {
          recorded.clear(); // in order: nothing above, no copy
        } else {
          recorded = recorded.get(clear, recorded.length());
        }
      }
      return true;
    }

    /** The indices handed out and not recorded, in order. */
    List<Long> unrecorded() {
      List<Long> out = new ArrayList<>();
      for (long slot = low; slot < handed; slot++) {
        if (!recorded.get((int) (slot - low))) {
          out.add(first + slot * stride);
        }
      }
      return out;
    }
  }

  /**
   * A budget; the caller checks the budgets' ranges with its own words.
   *
   * @param log where the spent line is said (the workload's logger)
   * @param workload the workload's name, for the spent line
   * @param items what is handed out, plural, e.g. {@code requests} or {@code conversations}
   * @param spentTail what ends the spent line after {@code virtual users that ask for more end
   *     without a request}, e.g. {@code " (the injection outlasts the prompt budget)"}, or empty
   * @param budget the whole test's measured items
   * @param warmupBudget the whole test's warmup items
   * @param shard the indices this JVM hands out
   */
  PhaseBudget(
      Logger log,
      String workload,
      String items,
      String spentTail,
      long budget,
      long warmupBudget,
      Shard shard) {
    this.log = Objects.requireNonNull(log, "log");
    this.workload = Objects.requireNonNull(workload, "workload");
    this.items = Objects.requireNonNull(items, "items");
    this.spentTail = Objects.requireNonNull(spentTail, "spentTail");
    this.budget = budget;
    this.warmupBudget = warmupBudget;
    this.shard = Objects.requireNonNull(shard, "shard");
    this.nextWarmup = shard.index();
    this.nextMeasured = shard.index();
    this.warmupLedger = new Ledger(shard);
    this.measuredLedger = new Ledger(shard);
  }

  /**
   * Hands out the next item, warmup ones first, and counts it in flight; once both budgets are
   * handed out, says so once and hands out nothing.
   *
   * @return the item, or null when both budgets are handed out
   */
  synchronized Slot take() {
    Slot slot;
    if (stopped) {
      return null;
    }
    if (nextWarmup < warmupBudget) {
      slot = new Slot(true, nextWarmup);
      nextWarmup += shard.count();
      warmupInFlight++;
      warmupLedger.handed++;
    } else if (nextMeasured < budget) {
      slot = new Slot(false, nextMeasured);
      nextMeasured += shard.count();
      measuredLedger.handed++;
    } else {
      if (doneHandedOut++ == 0) {
        log.info(
            "workload {}: its {} measured {} are handed out; virtual users that ask for more end"
                + " without a request{}",
            workload,
            shard.single() ? budget : shard.share(budget) + " (shard " + shard + ")",
            items,
            spentTail);
      }
      return null;
    }
    inFlight++;
    return slot;
  }

  /** The run has ended: nothing more is handed out ({@link #take} returns null, saying nothing). */
  synchronized void stop() {
    stopped = true;
  }

  /**
   * An item handed out is in the run record now (its request ended, or it was recorded as not
   * sent).
   *
   * @param warmup whether it belongs to the warmup phase
   * @param index its index
   * @return true the first time for a handed-out index; false for one recorded before (a second
   *     request on one fed record) or never handed out here
   */
  synchronized boolean recorded(boolean warmup, long index) {
    return (warmup ? warmupLedger : measuredLedger).mark(index);
  }

  /**
   * The items of a phase handed out and not in the run record.
   *
   * @param warmup the phase
   * @return their indices in order, often none
   */
  synchronized List<Long> unrecorded(boolean warmup) {
    return (warmup ? warmupLedger : measuredLedger).unrecorded();
  }

  /**
   * One more item of a phase is in flight beyond those {@link #take} counted (a second request on
   * one fed record); ended by one more {@link #end}.
   *
   * @param warmup whether it belongs to the warmup phase
   */
  synchronized void begin(boolean warmup) {
    inFlight++;
    if (warmup) {
      warmupInFlight++;
    }
  }

  /**
   * Holds a measured item back until every warmup item has been handed out and has ended.
   *
   * @param resume runs once the warmup has ended (on the thread that ends the last warmup item), or
   *     never when this returns false
   * @return true if the item must wait for {@code resume}, false if it may go now
   */
  synchronized boolean holdUntilWarmedUp(Runnable resume) {
    if (warmupInFlight == 0 && nextWarmup >= warmupBudget) {
      return false;
    }
    parked.add(resume);
    return true;
  }

  /**
   * An item in flight ended (or was dropped): counts it out and, when it was the last warmup item,
   * gives back the measured items held by {@link #holdUntilWarmedUp} for the caller to run once it
   * holds no lock.
   *
   * @param warmup whether it belongs to the warmup phase
   * @return the held items to run now, often none
   */
  synchronized List<Runnable> end(boolean warmup) {
    inFlight--;
    if (!warmup) {
      return List.of();
    }
    warmupInFlight--;
    if (warmupInFlight == 0 && nextWarmup >= warmupBudget && !parked.isEmpty()) {
      List<Runnable> release = new ArrayList<>(parked);
      parked.clear();
      return release;
    }
    return List.of();
  }

  /**
   * {@link #end}, then runs the held items it released.
   *
   * @param warmup whether the item belongs to the warmup phase
   */
  void ended(boolean warmup) {
    end(warmup).forEach(Runnable::run);
  }

  /**
   * Whether every item is handed out and none is in flight.
   *
   * @return true when the workload has nothing more to send or wait for
   */
  synchronized boolean spent() {
    return nextWarmup >= warmupBudget && nextMeasured >= budget && inFlight == 0;
  }

  /**
   * The items in flight: handed out (or begun) and not ended.
   *
   * @return at least 0
   */
  synchronized long inFlight() {
    return inFlight;
  }
}
