package io.github.gatlingllm.internal;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * For internal use only. A run that stops on a bad input (a setting, a tokenizer, a prompts or
 * trace file, a target that is not there) ends with its one line, exit code 1 and no stack trace,
 * as the README promises; {@code -Dllm.debug=true} brings Gatling's own output, stack traces
 * included, back.
 *
 * <p>Where the traces come from (Gatling 3.16.0, {@code io.gatling.app.Gatling$.start}): a failure
 * while the simulation is instantiated, a hook runs or the scenarios (and so the protocols) are
 * built is logged by the logger {@value #GATLING_LOGGER} at ERROR with the exception, then rethrown
 * out of {@code main}: the JVM (or the Maven plugin's {@code ForkMain}, through {@code
 * printStackTrace}) prints it again, wrapped. This logback turbo filter sees that ERROR event
 * first; when the exception is one of gatling-llm's own refusals (an {@link
 * IllegalArgumentException} or {@link IllegalStateException} thrown by a class of {@code
 * io.github.gatlingllm}, whose message is the one line naming the setting, the value and what is
 * allowed) and the event is logged from Gatling's {@code main} (the launcher ends the JVM right
 * after it), it flushes the log, prints the line alone on standard error and ends the JVM with exit
 * code 1, which is what the launcher does next. Any other exception (a bug, a Gatling error) keeps
 * Gatling's full output.
 *
 * <p>Installed by {@link #install()} when the DSL is first used; a logging backend other than
 * logback leaves Gatling's output as it is.
 */
public final class OneLineErrors extends TurboFilter {

  /** The logger Gatling's launcher logs a failed run's exception with. */
  public static final String GATLING_LOGGER = "io.gatling.app.Gatling$";

  /** The class whose {@code main} is Gatling's launcher. */
  static final String GATLING_MAIN = "io.gatling.app.Gatling";

  /** The system property that keeps Gatling's stack traces: {@code -Dllm.debug=true}. */
  public static final String DEBUG = "llm.debug";

  private static final String OURS = "io.github.gatlingllm.";

  /**
   * Whether a run of this JVM was stopped by a refusal whose one line ends the JVM ({@code
   * ExitLine}): Gatling's own failure after it (its report of a run that logged nothing: "Run
   * didn't last") is then not said, as the refusal explains it.
   */
  private static volatile boolean refused;

  /**
   * A run of this JVM was stopped by a refusal that ends the JVM with its own line: a failure
   * Gatling's launcher logs after it ends the JVM at once, without its stack trace.
   */
  public static void runRefused() {
    refused = true;
  }

  /** Installs the filter once in logback's context; does nothing under another backend. */
  public static synchronized void install() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      return;
    }
    for (TurboFilter f : context.getTurboFilterList()) {
      if (f instanceof OneLineErrors) {
        return;
      }
    }
    OneLineErrors filter = new OneLineErrors();
    filter.setContext(context);
    filter.start();
    context.addTurboFilter(filter);
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (t == null
        || level != Level.ERROR
        || logger == null
        || !GATLING_LOGGER.equals(logger.getName())
        || Boolean.getBoolean(DEBUG)) {
      return FilterReply.NEUTRAL;
    }
    if (refused && inGatlingMain()) {
      // The refusal's line ends the JVM (a shutdown hook says it, exit status 1).
      if (getContext() instanceof LoggerContext context) {
        context.stop();
      }
      System.out.flush();
      System.exit(1);
      return FilterReply.DENY;
    }
    String line = line(t);
    if (line == null || !inGatlingMain()) {
      return FilterReply.NEUTRAL;
    }
    // The launcher stops logback and ends the JVM right after this event: do it with the line
    // alone. The console's log lines before it are flushed first, so the line comes last.
    if (getContext() instanceof LoggerContext context) {
      context.stop();
    }
    System.out.flush();
    System.err.println(line);
    System.err.flush();
    System.exit(1);
    return FilterReply.DENY;
  }

  /**
   * The one line of a gatling-llm refusal inside a failure: the message of the outermost {@link
   * IllegalArgumentException} or {@link IllegalStateException} thrown by a class of {@code
   * io.github.gatlingllm} in the chain of causes (through reflection's, futures' and Gatling's
   * wrappers), when it is one line.
   *
   * @param failure the failure, never null
   * @return the line, or null when the failure is not such a refusal (a bug, a Gatling error)
   */
  static String line(Throwable failure) {
    Throwable c = failure;
    for (int depth = 0; c != null && depth < 16; depth++) {
      if ((c instanceof IllegalArgumentException || c instanceof IllegalStateException)
          && thrownByUs(c)) {
        String m = c.getMessage();
        return m == null || m.isBlank() || m.contains("\n") ? null : m;
      }
      boolean wrapper =
          c instanceof InvocationTargetException
              || c instanceof ExceptionInInitializerError
              || c instanceof UndeclaredThrowableException
              || c instanceof CompletionException
              || c instanceof ExecutionException
              || c.getClass().getName().startsWith("io.gatling.");
      if (!wrapper) {
        return null;
      }
      c = c.getCause();
    }
    return null;
  }

  private static boolean thrownByUs(Throwable t) {
    StackTraceElement[] frames = t.getStackTrace();
    return frames.length > 0 && frames[0].getClassName().startsWith(OURS);
  }

  private static boolean inGatlingMain() {
    return StackWalker.getInstance()
        .walk(
            frames ->
                frames.anyMatch(
                    f ->
                        f.getMethodName().equals("main")
                            && (f.getClassName().equals(GATLING_MAIN)
                                || f.getClassName().equals(GATLING_MAIN + "$"))));
  }
}
