package io.github.gatlingllm.report;

import java.io.PrintStream;
import org.slf4j.Logger;

/**
 * Not API. The few lines a user must see whatever their logging set-up: the LLM summary at the end
 * of a run, where the LLM report is, and the warnings that say a run's figures cannot be trusted
 * (the client fell behind its schedule, the run over-saturated the server).
 *
 * <p>Why standard output and not SLF4J: Gatling prints its own statistics and the report's address
 * to standard output, so they show under any logback configuration; a user's own Gatling project
 * (the gatling-maven-plugin demo layout) logs at WARN and would hide an INFO summary. These lines
 * go the way Gatling's own do. Each is also logged at DEBUG through the caller's logger, so a log
 * file set to DEBUG keeps them; everything else (details, progress) stays on SLF4J.
 *
 * <p>This is the one class outside {@code cli} that writes to {@link System#out}.
 */
public final class Console {

  private Console() {}

  /**
   * Prints a line of the LLM summary (or another line a user must see) to standard output.
   *
   * @param detail the caller's logger, which gets the line at DEBUG; not null
   * @param line the line, without its line break; not null
   */
  public static void line(Logger detail, String line) {
    print(line);
    detail.debug("{}", line);
  }

  /**
   * Prints a warning to standard output as {@code gatling-llm WARNING: TEXT}.
   *
   * @param detail the caller's logger, which gets the text at DEBUG; not null
   * @param text the warning, without its line break; not null
   */
  public static void warning(Logger detail, String text) {
    print("gatling-llm WARNING: " + text);
    detail.debug("{}", text);
  }

  private static void print(String line) {
    PrintStream out = System.out;
    out.println(line);
    out.flush();
  }
}
