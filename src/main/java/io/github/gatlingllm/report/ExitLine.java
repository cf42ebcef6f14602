package io.github.gatlingllm.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The end of a run stopped by a refusal found at its first request (the server refused {@code
 * llm.responses.history=server}, a session loop fed the wrong kind of workload, a request without a
 * prompt): the run is stopped as Gatling's orderly stop, so Gatling closes its log, writes its
 * report and checks its assertions as after any run, and the run record has what was measured; the
 * refusal's one line is then the last line of the console, on standard error, and the JVM exits
 * with status 1, as for a bad setting refused before the load.
 *
 * <p>Gatling 3.16 offers no hook after its report and exits the JVM with its own status (0, or 2
 * for a failed assertion), so a JVM shutdown hook, run once Gatling's launcher exits, says the line
 * and halts the JVM with status 1 ({@link Runtime#halt}: the status of an exit already under way
 * can be changed no other way). First it links the LLM report from Gatling's {@code index.html}
 * ({@link IndexLink}, done here rather than in a hook of its own, which the halt could cut short)
 * and waits for the live endpoint's linger ({@code llm.prometheusLinger}) to end. Once per JVM.
 */
public final class ExitLine {

  /** The name of the live endpoint's thread that serves the final values until its linger ends. */
  static final String LIVE_LINGER_THREAD = "gatling-llm-live-linger";

  /** How long the exit waits for the live endpoint's linger, at most: its longest linger. */
  static final long MAX_WAIT_MS = 10 * 60_000L + 5_000L;

  private static final AtomicReference<String> LINE = new AtomicReference<>();

  private ExitLine() {}

  /**
   * Ends the JVM with the line and status 1 when it exits; the first line given wins.
   *
   * @param line the refusal's line, never null
   * @param runFolder the run folder whose {@code index.html} links the LLM report at exit, or null
   * @return true the first time in this JVM
   */
  public static boolean arm(String line, Path runFolder) {
    if (!LINE.compareAndSet(null, java.util.Objects.requireNonNull(line, "line"))) {
      return false;
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> atExit(runFolder), "gatling-llm-exit-line"));
    return true;
  }

  /**
   * The line this JVM ends with, if a run was refused.
   *
   * @return the line, or null
   */
  public static String line() {
    return LINE.get();
  }

  private static void atExit(Path runFolder) {
    if (runFolder != null) {
      try {
        // No index.html when Gatling could not report a run that logged nothing ("Run didn't
        // last"): the LLM report is all there is, and the line explains why.
        IndexLink.inject(runFolder);
      } catch (IOException | RuntimeException e) {
        System.err.println("gatling-llm: could not link the LLM report from index.html: " + e);
      }
    }
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (LIVE_LINGER_THREAD.equals(t.getName())) {
        try {
          t.join(MAX_WAIT_MS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    System.out.flush();
    System.err.println(LINE.get());
    System.err.flush();
    Runtime.getRuntime().halt(1);
  }
}
