package io.github.gatlingllm.metrics;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * One request's inter-token latencies ({@link RequestTimings#itlMs()}, {@link
 * RequestRecord#itlMs()}): an unmodifiable {@code List<Double>} of milliseconds held as a {@code
 * double[]}, so a stream's 63 gaps are one array rather than 63 boxed values and a list. {@link
 * #at(int)} reads a value without boxing it; {@link #get(int)} boxes it as any list would. Equal to
 * any {@link List} of the same values in the same order ({@link AbstractList#equals}). The values
 * are not checked here ({@link RequestRecord} checks them).
 */
public final class ItlList extends AbstractList<Double> implements RandomAccess {

  private static final ItlList EMPTY = new ItlList(new double[0]);

  private final double[] values;

  private ItlList(double[] values) {
    this.values = values;
  }

  /**
   * The first {@code count} values of {@code values}, copied.
   *
   * @param values the latencies in milliseconds, never null
   * @param count how many of them, in {@code [0, values.length]}
   * @return the list
   * @throws IndexOutOfBoundsException if {@code count} is out of range
   */
  public static ItlList of(double[] values, int count) {
    Objects.checkFromToIndex(0, count, values.length);
    return count == 0 ? EMPTY : new ItlList(Arrays.copyOf(values, count));
  }

  /**
   * {@code list} as an {@code ItlList}: itself when it is one, else its values copied.
   *
   * @param list the latencies in milliseconds, never null
   * @return the list
   * @throws NullPointerException if {@code list} or one of its values is null
   */
  public static ItlList copyOf(List<Double> list) {
    if (list instanceof ItlList same) {
      return same;
    }
    double[] copy = new double[list.size()];
    int i = 0;
    for (Double v : list) {
      copy[i++] = Objects.requireNonNull(v, "an itl_ms value is null");
    }
    return of(copy, i);
  }

  /**
   * One value, unboxed.
   *
   * @param index from 0
   * @return the latency in milliseconds
   * @throws IndexOutOfBoundsException if {@code index} is out of range
   */
  public double at(int index) {
    return values[index];
  }

  @Override
  public Double get(int index) {
    return values[index];
  }

  @Override
  public int size() {
    return values.length;
  }
}
