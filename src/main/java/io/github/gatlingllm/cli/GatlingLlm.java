package io.github.gatlingllm.cli;

import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/gatling-llm}: the command-line tools of gatling-llm.
 *
 * <p>Exit codes: 0 done, 1 failed while working, 2 bad command line (one line on standard error
 * naming the option).
 */
@Command(
    name = "gatling-llm",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Tools of gatling-llm, the Gatling extension for LLM serving load tests.",
    subcommands = {
      PromptsCommand.class,
      SimulatorCommand.class,
      ReportCommand.class,
      TraceCommand.class,
      CommandLine.HelpCommand.class
    })
public final class GatlingLlm implements Runnable {

  /** Exit code of a bad command line. */
  public static final int USAGE = 2;

  /** Exit code of a failure while working. */
  public static final int FAILED = 1;

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "a command is required: prompts, simulator, report or trace (see gatling-llm --help)");
  }

  /**
   * Runs the tool and exits the JVM with its exit code.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    PrintWriter out =
        new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
    PrintWriter err =
        new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int code = run(args, out, err);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /**
   * Runs the tool without exiting.
   *
   * @param args the command line, never null
   * @param out where results go
   * @param err where errors and warnings go
   * @return the exit code: 0 done, 1 failed, 2 bad command line, 3 {@code report --compare} of runs
   *     whose prompt digests differ
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return commandLine(out, err).execute(args);
  }

  /**
   * Closes a command's token counter when it holds a tokenizer, at the command's end: a failure to
   * close leaves nothing to do.
   *
   * @param counter the counter, never null
   */
  static void close(TokenCounter counter) {
    if (counter instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception ignored) {
        // Nothing left to do with a tokenizer that fails to close at exit.
      }
    }
  }

  /**
   * The token counter of a command's {@code --tokenizer}.
   *
   * @param line the command's line, for the usage error
   * @param tokenizer the option's value ({@code estimate}, a tokenizer.json path...)
   * @return the counter
   * @throws CommandLine.ParameterException naming {@code --tokenizer} when the value is refused
   */
  static TokenCounter tokenCounter(CommandLine line, String tokenizer) {
    try {
      return TokenCounters.of(tokenizer);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(line, "--tokenizer: " + e.getMessage());
    }
  }

  /** The command line with its error handling: a bad option is one line naming it, exit 2. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine line = new CommandLine(new GatlingLlm());
    line.setOut(out);
    line.setErr(err);
    line.setParameterExceptionHandler(
        (e, arguments) -> {
          CommandLine command = e.getCommandLine();
          if (command.getCommandSpec().userObject() instanceof GatlingLlm
              && arguments.length > 0
              && arguments[0].equals("compare")) {
            // The comparison lives in the report command: say so rather than "unmatched".
            err.println(
                "gatling-llm: no command 'compare': compare two run folders with gatling-llm"
                    + " report --compare A B");
            err.flush();
            return USAGE;
          }
          err.println(command.getCommandSpec().qualifiedName() + ": " + oneLine(e.getMessage()));
          err.flush();
          return USAGE;
        });
    line.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          if (e instanceof CommandLine.ParameterException p) {
            err.println(command.getCommandSpec().qualifiedName() + ": " + oneLine(p.getMessage()));
            err.flush();
            return USAGE;
          }
          if ((e instanceof IllegalArgumentException || e instanceof IllegalStateException)
              && e.getMessage() != null
              && e.getStackTrace().length > 0
              && e.getStackTrace()[0].getClassName().startsWith("io.github.gatlingllm.")) {
            // One of ours: its message names the file, the line or the option and what is
            // wrong; Java's class name before it says nothing more to the user.
            err.println(command.getCommandSpec().qualifiedName() + ": " + oneLine(e.getMessage()));
            err.flush();
            return FAILED;
          }
          err.println(
              command.getCommandSpec().qualifiedName() + ": failed: " + oneLine(String.valueOf(e)));
          err.flush();
          return FAILED;
        });
    return line;
  }

  static String oneLine(String message) {
    return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
