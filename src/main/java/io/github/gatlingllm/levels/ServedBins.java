package io.github.gatlingllm.levels;

/**
 * What the server served during one load level, in {@value #BIN_MS} ms bins over the level, so its
 * measured window (known only at the end: a warmup's end, an early stop) can be cut from it:
 * successful completions, arrived output tokens and prefilled prompt tokens ({@link LevelResult}).
 * A window's share of a bin is proportional to its overlap (tokens are taken as spread evenly
 * within a bin). Thread-safe.
 */
public final class ServedBins {

  /** The width of a bin, ms. */
  public static final int BIN_MS = 100;

  private final long startMs;
  private final long endMs;
  private final double[] completed;
  private final double[] output;
  private final double[] input;

  /**
   * Empty bins over a level.
   *
   * @param startMs the level's start, epoch ms
   * @param endMs its end, epoch ms, after the start
   */
  public ServedBins(long startMs, long endMs) {
    this.startMs = startMs;
    this.endMs = endMs;
    int n = (int) Math.max(1, (endMs - startMs + BIN_MS - 1) / BIN_MS);
    completed = new double[n];
    output = new double[n];
    input = new double[n];
  }

  /** A request completed at {@code atMs} (ignored outside the level). */
  public synchronized void completion(double atMs) {
    add(completed, atMs, atMs, 1);
  }

  /** Prompt tokens prefilled at {@code atMs} (ignored outside the level). */
  public synchronized void input(double atMs, double tokens) {
    add(input, atMs, atMs, tokens);
  }

  /**
   * Output tokens that arrived at one instant ({@code fromMs == toMs}) or evenly over [fromMs,
   * toMs]; only the part within the level is kept.
   */
  public synchronized void output(double fromMs, double toMs, double tokens) {
    add(output, fromMs, toMs, tokens);
  }

  private void add(double[] bins, double fromMs, double toMs, double amount) {
    if (!(toMs > fromMs)) {
      if (fromMs >= startMs && fromMs < endMs) {
        bins[bin(fromMs)] += amount;
      }
      return;
    }
    double lo = Math.max(fromMs, startMs);
    double hi = Math.min(toMs, endMs);
    if (!(hi > lo)) {
      return;
    }
    double perMs = amount / (toMs - fromMs);
    for (int i = bin(lo); i <= bin(Math.nextDown(hi)); i++) {
      double a = Math.max(lo, startMs + (double) i * BIN_MS);
      double b = Math.min(hi, startMs + (double) (i + 1) * BIN_MS);
      bins[i] += perMs * Math.max(0, b - a);
    }
  }

  /**
   * The end of the bin that holds an instant.
   *
   * @param levelStartMs the level's start, epoch ms (bins start there)
   * @param atMs the instant, epoch ms, at or after the level's start
   * @return the bin's end, epoch ms, after {@code atMs}
   */
  static long binEnd(long levelStartMs, long atMs) {
    return levelStartMs + ((atMs - levelStartMs) / BIN_MS + 1) * BIN_MS;
  }

  private int bin(double atMs) {
    return (int) Math.max(0, Math.min(completed.length - 1, Math.floor((atMs - startMs) / BIN_MS)));
  }

  /**
   * What was served in [fromMs, toMs), a bin cut by an edge counting for its overlap.
   *
   * @param fromMs the window's start, epoch ms
   * @param toMs its end, epoch ms
   * @return the served figures (completions rounded to the nearest whole request)
   */
  public synchronized LevelResult.Served between(long fromMs, long toMs) {
    return new LevelResult.Served(
        Math.round(sum(completed, fromMs, toMs)),
        sum(output, fromMs, toMs),
        sum(input, fromMs, toMs));
  }

  private double sum(double[] bins, long fromMs, long toMs) {
    double total = 0;
    for (int i = 0; i < bins.length; i++) {
      long a = startMs + (long) i * BIN_MS;
      long b = Math.min(endMs, a + BIN_MS);
      double overlap = Math.min(b, toMs) - Math.max(a, fromMs);
      if (overlap > 0) {
        total += bins[i] * overlap / (b - a);
      }
    }
    return total;
  }
}
