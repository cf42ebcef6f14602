package io.github.gatlingllm.stats;

import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * How often each whole-number value occurred (microseconds, or tokens), in memory that does not
 * grow with the number of values: exact counts of each distinct value while there are at most
 * {@code limit} of them (a primitive open-addressing table: 8 bytes a slot while every value and
 * count fits an {@code int}, as microseconds up to 35 minutes do, else 16; at least two slots a
 * distinct value, so 16 to 32 bytes a value, or 32 to 64 for wide ones), then an HdrHistogram of
 * {@code digits} significant digits that every value so far moves into. Exact counts give exact
 * nearest-rank percentiles and exact histogram bins; the histogram gives each value to within its
 * precision (3 digits: 0.1%), its minimum and maximum staying exact. Not thread-safe. Not API.
 */
public final class ValueCounts {

  /** Distinct values counted exactly by default, as {@code MetricsAggregator} does. */
  public static final int EXACT_LIMIT = 65_536;

  private static final long EMPTY = Long.MIN_VALUE;

  /** Visits a value and how often it occurred. */
  @FunctionalInterface
  public interface Visitor {
    /**
     * One distinct value.
     *
     * @param value the value (for the histogram, the middle of its bucket, within the min and max)
     * @param count how often it occurred, at least 1
     */
    void accept(long value, long count);
  }

  private final int limit;
  private final int digits;
  // Narrow table: each key is its value + 1 (0: empty slot), each count an int. Null once wide.
  private int[] narrowKeys;
  private int[] narrowCounts;
  // Wide table, for a value or count beyond an int: null while narrow.
  private long[] keys;
  private long[] counts;
  private int size;
  private Histogram histogram;
  private boolean dropped;
  private long total;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;
  private long[] sortedKeys;
  private long[] sortedCounts;

  /** Exact up to {@value #EXACT_LIMIT} distinct values, then 3 significant digits. */
  public ValueCounts() {
    this(EXACT_LIMIT, 3, 16);
  }

  /**
   * Counts.
   *
   * @param limit the most distinct values counted exactly, at least 1
   * @param digits the histogram's significant digits beyond, 1 to 5; 0 to count nothing beyond (the
   *     caller keeps its own histogram: {@link #exact()} turns false, the counts are dropped)
   * @param capacity the table's first capacity, a power of two
   */
  public ValueCounts(int limit, int digits, int capacity) {
    this.limit = limit;
    this.digits = digits;
    this.narrowKeys = new int[capacity];
    this.narrowCounts = new int[capacity];
  }

  /** Adds one value, at least 0 (a negative one counts as 0). */
  public void add(long value) {
    add(value, 1);
  }

  /** Adds a value {@code n} times. */
  public void add(long value, long n) {
    long v = Math.max(0, value);
    total += n;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sortedKeys = null;
    if (histogram != null) {
      histogram.recordValueWithCount(v, n);
      return;
    }
    if (dropped) {
      return;
    }
    if (narrowKeys != null) {
      if (v < Integer.MAX_VALUE && n <= Integer.MAX_VALUE) {
        int outcome = addNarrow((int) v + 1, (int) n);
        if (outcome == COUNTED) {
          return;
        }
        if (outcome == FULL) {
          beyondLimit(v, n);
          return;
        }
      }
      widen();
    }
    int mask = keys.length - 1;
    int i = slot(v, mask);
    while (keys[i] != EMPTY && keys[i] != v) {
      i = (i + 1) & mask;
    }
    if (keys[i] == v) {
      counts[i] += n;
      return;
    }
    if (size >= limit) {
      beyondLimit(v, n);
      return;
    }
    keys[i] = v;
    counts[i] = n;
    if (++size * 2 > keys.length) {
      grow();
    }
  }

  private static final int COUNTED = 0;
  private static final int FULL = 1;
  private static final int TOO_WIDE = 2;

  /** Counts {@code key} (a value + 1) in the narrow table, unless full or the count overflows. */
  private int addNarrow(int key, int n) {
    int[] k = narrowKeys;
    int mask = k.length - 1;
    int i = slot(key, mask);
    while (k[i] != 0 && k[i] != key) {
      i = (i + 1) & mask;
    }
    if (k[i] == key) {
      long sum = (long) narrowCounts[i] + n;
      if (sum > Integer.MAX_VALUE) {
        return TOO_WIDE;
      }
      narrowCounts[i] = (int) sum;
      return COUNTED;
    }
    if (size >= limit) {
      return FULL;
    }
    k[i] = key;
    narrowCounts[i] = n;
    if (++size * 2 > k.length) {
      growNarrow();
    }
    return COUNTED;
  }

  /** A new distinct value beyond the limit: to the histogram, or the counts are dropped. */
  private void beyondLimit(long v, long n) {
    if (digits == 0) {
      dropped = true;
      narrowKeys = null;
      narrowCounts = null;
      keys = null;
      counts = null;
      size = 0;
      return;
    }
    toHistogram();
    histogram.recordValueWithCount(v, n);
  }

  /** Moves the narrow table to a wide one of the same capacity. */
  private void widen() {
    keys = new long[narrowKeys.length];
    counts = new long[narrowKeys.length];
    Arrays.fill(keys, EMPTY);
    int mask = keys.length - 1;
    for (int i = 0; i < narrowKeys.length; i++) {
      if (narrowKeys[i] != 0) {
        long v = narrowKeys[i] - 1L;
        int s = slot(v, mask);
        while (keys[s] != EMPTY) {
          s = (s + 1) & mask;
        }
        keys[s] = v;
        counts[s] = narrowCounts[i];
      }
    }
    narrowKeys = null;
    narrowCounts = null;
  }

  private void growNarrow() {
    int[] oldKeys = narrowKeys;
    int[] oldCounts = narrowCounts;
    narrowKeys = new int[oldKeys.length * 2];
    narrowCounts = new int[oldKeys.length * 2];
    int mask = narrowKeys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        int s = slot(oldKeys[i], mask);
        while (narrowKeys[s] != 0) {
          s = (s + 1) & mask;
        }
        narrowKeys[s] = oldKeys[i];
        narrowCounts[s] = oldCounts[i];
      }
    }
  }

  /** How many values were added. */
  public long total() {
    return total;
  }

  /** The smallest value, or {@link Long#MAX_VALUE} when none. */
  public long min() {
    return min;
  }

  /** The largest value, or {@link Long#MIN_VALUE} when none. */
  public long max() {
    return max;
  }

  /** Whether every value is counted exactly. */
  public boolean exact() {
    return histogram == null && !dropped;
  }

  /**
   * The nearest-rank percentile: the smallest value with at least {@code p} of the values at or
   * below it.
   *
   * @param p the share, in (0, 1]
   * @return the value; {@link Long#MIN_VALUE} when there is none
   */
  public long atRank(double p) {
    if (total == 0) {
      return Long.MIN_VALUE;
    }
    long rank = Math.max(1, (long) Math.ceil(p * total));
    long[] found = {max};
    long[] seen = {0};
    boolean[] done = {false};
    forEach(
        (v, n) -> {
          if (done[0]) {
            return;
          }
          seen[0] += n;
          if (seen[0] >= rank) {
            found[0] = v;
            done[0] = true;
          }
        });
    return found[0];
  }

  /** Visits each distinct value in ascending order. */
  public void forEach(Visitor visitor) {
    if (dropped) {
      throw new IllegalStateException("the counts were dropped beyond " + limit + " values");
    }
    if (histogram != null) {
      for (HistogramIterationValue v : histogram.recordedValues()) {
        long value = histogram.medianEquivalentValue(v.getValueIteratedTo());
        visitor.accept(Math.max(min, Math.min(max, value)), v.getCountAtValueIteratedTo());
      }
      return;
    }
    if (sortedKeys == null) {
      sort();
    }
    for (int i = 0; i < sortedKeys.length; i++) {
      visitor.accept(sortedKeys[i], sortedCounts[i]);
    }
  }

  private void sort() {
    if (narrowKeys != null) {
      sortNarrow();
      return;
    }
    long[] k = new long[size];
    int j = 0;
    for (long key : keys) {
      if (key != EMPTY) {
        k[j++] = key;
      }
    }
    Arrays.sort(k);
    long[] c = new long[size];
    int mask = keys.length - 1;
    for (int i = 0; i < size; i++) {
      int s = slot(k[i], mask);
      while (keys[s] != k[i]) {
        s = (s + 1) & mask;
      }
      c[i] = counts[s];
    }
    sortedKeys = k;
    sortedCounts = c;
  }

  private void sortNarrow() {
    int[] k = new int[size];
    int j = 0;
    for (int key : narrowKeys) {
      if (key != 0) {
        k[j++] = key;
      }
    }
    Arrays.sort(k);
    long[] sorted = new long[size];
    long[] c = new long[size];
    int mask = narrowKeys.length - 1;
    for (int i = 0; i < size; i++) {
      int s = slot(k[i], mask);
      while (narrowKeys[s] != k[i]) {
        s = (s + 1) & mask;
      }
      sorted[i] = k[i] - 1L;
      c[i] = narrowCounts[s];
    }
    sortedKeys = sorted;
    sortedCounts = c;
  }

  private void toHistogram() {
    histogram = new Histogram(digits);
    if (narrowKeys != null) {
      widen();
    }
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != EMPTY) {
        histogram.recordValueWithCount(keys[i], counts[i]);
      }
    }
    keys = null;
    counts = null;
    size = 0;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldCounts = counts;
    keys = new long[oldKeys.length * 2];
    counts = new long[oldKeys.length * 2];
    Arrays.fill(keys, EMPTY);
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        int s = slot(oldKeys[i], mask);
        while (keys[s] != EMPTY) {
          s = (s + 1) & mask;
        }
        keys[s] = oldKeys[i];
        counts[s] = oldCounts[i];
      }
    }
  }

  private static int slot(long v, int mask) {
    long h = v * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
