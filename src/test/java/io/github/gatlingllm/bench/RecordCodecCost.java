package io.github.gatlingllm.bench;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The request record's line writer, reader and CSV row, before and after a change, side by side in
 * one JVM: each side's classes in a class loader of its own ({@code report.RecordCodecLoop} runs in
 * both), rounds alternating between them, CPU time of the measuring thread (not wall time: the
 * figure holds on a busy machine). It first checks that both sides write the same lines. Not a
 * test.
 *
 * <p>{@code java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt)
 * io.github.gatlingllm.bench.RecordCodecCost OLD_CLASSES [ROUNDS [OPS]]}, where OLD_CLASSES is the
 * {@code target/classes} of the other commit (copied aside); 11 rounds by default, each of 20,000
 * operations after a warmup of 200,000; prints the median CPU ns an operation of each side, their
 * range, and the median of the rounds' new/old ratios.
 */
public final class RecordCodecCost {

  private static final int OPS = 20_000;
  private static final int WARMUP = 200_000;

  private RecordCodecCost() {}

  /**
   * Prints the figures.
   *
   * @param args the old classes folder, then the number of rounds and the operations, comma
   *     separated (optional: {@code write,readBytes,readText,csv})
   * @throws Exception if a side cannot be loaded
   */
  public static void main(String[] args) throws Exception {
    Path oldClasses = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 11;
    List<URL> shared = new ArrayList<>();
    String newClasses = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.endsWith("target/classes") || entry.endsWith("target/classes/")) {
        newClasses = entry;
      } else {
        shared.add(Path.of(entry).toUri().toURL());
      }
    }
    if (newClasses == null || !Files.isDirectory(oldClasses)) {
      throw new IllegalArgumentException(
          "run with target/classes on the class path and the old classes folder as argument");
    }
    Object before = loop(oldClasses, shared);
    Object after = loop(Path.of(newClasses), shared);
    String[] beforeLines = (String[]) before.getClass().getMethod("lines").invoke(before);
    String[] afterLines = (String[]) after.getClass().getMethod("lines").invoke(after);
    if (!Arrays.equals(beforeLines, afterLines)) {
      throw new IllegalStateException("the two sides write different lines");
    }
    System.out.printf(
        Locale.ROOT,
        "%d lines of 64-token streams (%d chars on average), identical on both sides; CPU ns an"
            + " operation, median [min-max] of %d rounds of %,d, sides alternating%n",
        beforeLines.length,
        Arrays.stream(beforeLines).mapToInt(String::length).sum() / beforeLines.length,
        rounds,
        OPS);
    Method run = before.getClass().getMethod("run", String.class, int.class);
    Method runAfter = after.getClass().getMethod("run", String.class, int.class);
    List<String> ops =
        args.length > 2
            ? List.of(args[2].split(","))
            : List.of("write", "readBytes", "readText", "csv");
    for (String op : ops) {
      run.invoke(before, op, WARMUP);
      runAfter.invoke(after, op, WARMUP);
      double[] old = new double[rounds];
      double[] now = new double[rounds];
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        old[r] = (long) run.invoke(before, op, OPS) / (double) OPS;
        now[r] = (long) runAfter.invoke(after, op, OPS) / (double) OPS;
        ratio[r] = now[r] / old[r];
      }
      Arrays.sort(old);
      Arrays.sort(now);
      Arrays.sort(ratio);
      System.out.printf(
          Locale.ROOT,
          "  %-10s before %6.0f ns [%.0f-%.0f]   after %6.0f ns [%.0f-%.0f]   after/before %.3f"
              + " [%.3f-%.3f]%n",
          op,
          old[rounds / 2],
          old[0],
          old[rounds - 1],
          now[rounds / 2],
          now[0],
          now[rounds - 1],
          ratio[rounds / 2],
          ratio[0],
          ratio[rounds - 1]);
    }
  }

  private static Object loop(Path classes, List<URL> shared) throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(classes.toUri().toURL());
    urls.addAll(shared);
    ClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    Constructor<?> c =
        loader
            .loadClass("io.github.gatlingllm.report.RecordCodecLoop")
            .getConstructor(int.class, long.class);
    return c.newInstance(4096, 42L);
  }
}
