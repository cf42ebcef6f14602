package io.github.gatlingllm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.gatlingllm.feeder.Trace;
import io.github.gatlingllm.feeder.TraceReplay;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gatling-llm trace}: tools for Mooncake-format request traces ({@code stats}, {@code
 * synthesize}).
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = "Tools for Mooncake-format request traces (JSONL, plain or gzip).",
    subcommands = {TraceCommand.Stats.class, TraceCommand.Synthesize.class})
final class TraceCommand implements Runnable {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a command is required: stats or synthesize (see trace --help)");
  }

  /** {@code trace stats FILE}: what a trace holds, as one JSON object. */
  @Command(
      name = "stats",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Checks a trace and writes what it holds as one JSON object: rows, duration, arrival rate"
            + " over time, input and output length distributions, the infinite-cache hit ratio and"
            + " the longest shared prefixes.",
        "A bad row fails with one line naming the file, the line, the field and what is allowed."
      })
  static final class Stats implements Callable<Integer> {

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The trace (JSONL, or gzip).")
    private Path file;

    @Option(
        names = "--block-tokens",
        paramLabel = "N",
        description = "Tokens of one hash id's block (default 512, Mooncake's).")
    private int blockTokens = Trace.DEFAULT_BLOCK_TOKENS;

    @Option(
        names = "--windows",
        paramLabel = "N",
        description = "Arrival-rate windows over the trace's span (default 20).")
    private int windows = 20;

    @Override
    public Integer call() throws IOException {
      if (blockTokens < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--block-tokens: got " + blockTokens + ", expected >= 1");
      }
      if (windows < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--windows: got " + windows + ", expected >= 1");
      }
      Trace trace;
      try {
        trace = Trace.read(file, blockTokens);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(JSON.writeValueAsString(stats(trace, windows)));
      out.flush();
      return 0;
    }
  }

  /** The figures of {@code trace stats}. */
  static Map<String, Object> stats(Trace trace, int windows) {
    int rows = trace.rows();
    int[] inputs = new int[rows];
    int[] outputs = new int[rows];
    long inputSum = 0;
    long cachedSum = 0;
    HashSet<Long> seen = new HashSet<>();
    long[] cached = new long[rows];
    HashSet<Long> ids = new HashSet<>();
    for (int r = 0; r < rows; r++) {
      inputs[r] = trace.inputLength(r);
      outputs[r] = trace.outputLength(r);
      inputSum += inputs[r];
      cached[r] = trace.cachedTokens(r, seen);
      cachedSum += cached[r];
      for (long id : trace.hashIds(r)) {
        ids.add(id);
      }
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", trace.path().toString());
    m.put("sha256", trace.sha256());
    m.put("rows", rows);
    m.put("block_tokens", trace.blockTokens());
    m.put("timed", trace.timed());
    long span = trace.durationMs() - Math.max(0, trace.timestampMs(0));
    m.put("duration_ms", trace.timed() ? span : null);
    m.put("rows_per_s", trace.timed() && span > 0 ? round3(rows / (span / 1000.0)) : null);
    if (trace.timed()) {
      m.put("arrivals", arrivals(trace, windows));
    }
    m.put("input_tokens", distribution(inputs));
    m.put("output_tokens", distribution(outputs));
    m.put("prompt_tokens_total", inputSum);
    m.put("unique_hash_ids", ids.size());
    m.put("unique_prompt_tokens", (long) ids.size() * trace.blockTokens());
    m.put("infinite_cache_hit_ratio", round6(inputSum == 0 ? 0 : cachedSum / (double) inputSum));
    m.put("longest_shared_prefixes", longest(trace, cached, 5));
    return m;
  }

  private static List<Map<String, Object>> arrivals(Trace trace, int windows) {
    long first = trace.timestampMs(0);
    long span = Math.max(1, trace.durationMs() - first + 1);
    long width = Math.max(1, (span + windows - 1) / windows);
    long[] counts = new long[(int) ((span + width - 1) / width)];
    for (int r = 0; r < trace.rows(); r++) {
      counts[(int) ((trace.timestampMs(r) - first) / width)]++;
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (int w = 0; w < counts.length; w++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("start_ms", w * width);
      m.put("rows", counts[w]);
      m.put("rows_per_s", round3(counts[w] / (width / 1000.0)));
      out.add(m);
    }
    return out;
  }

  private static Map<String, Object> distribution(int[] values) {
    int[] sorted = values.clone();
    Arrays.sort(sorted);
    long sum = 0;
    for (int v : sorted) {
      sum += v;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("min", sorted[0]);
    m.put("mean", round3(sum / (double) sorted.length));
    m.put("p50", nearestRank(sorted, 0.50));
    m.put("p90", nearestRank(sorted, 0.90));
    m.put("p99", nearestRank(sorted, 0.99));
    m.put("max", sorted[sorted.length - 1]);
    return m;
  }

  /** The nearest-rank percentile of sorted values. */
  static int nearestRank(int[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static List<Map<String, Object>> longest(Trace trace, long[] cached, int top) {
    Integer[] order = new Integer[cached.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order, (a, b) -> cached[b] != cached[a] ? Long.compare(cached[b], cached[a]) : a - b);
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < Math.min(top, order.length) && cached[order[i]] > 0; i++) {
      int r = order[i];
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("line", trace.line(r));
      m.put("shared_tokens", cached[r]);
      m.put("input_tokens", trace.inputLength(r));
      m.put("first_hash_id", trace.hashIds(r)[0]);
      out.add(m);
    }
    return out;
  }

  private static double round3(double v) {
    return Math.round(v * 1000.0) / 1000.0;
  }

  private static double round6(double v) {
    return Math.round(v * 1e6) / 1e6;
  }

  /**
   * {@code trace synthesize}: a Mooncake-format trace of multi-turn sessions over shared roots, at
   * a Poisson arrival rate, seeded.
   */
  @Command(
      name = "synthesize",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = {
        "Writes a Mooncake-format trace (JSONL, one JSON object a line) of multi-turn sessions"
            + " over shared roots, arriving at a seeded Poisson rate: each session starts with one"
            + " of --roots root prompts (a system prompt and tools, --root-tokens), and each turn"
            + " sends the session's whole context so far (earlier prompts and replies) plus a new"
            + " user message, so a turn shares its previous turn's blocks as a real chat does.",
        "With --session-ids each row names its session (session_id), so a replay sends a turn"
            + " only after its session's previous turn ended; with --delay-ms a session's later"
            + " rows carry a delay (the user's think time after the previous reply) instead of a"
            + " timestamp, AIPerf's multi-turn form.",
        "The same options give the same file."
      })
  static final class Synthesize implements Callable<Integer> {

    /** One JSON object a line, nothing between them but the line's end. */
    private static final ObjectMapper ROW = new ObjectMapper();

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Option(names = "--rows", paramLabel = "N", description = "Rows (default 1000).")
    private int rows = 1000;

    @Option(
        names = "--rate",
        paramLabel = "R",
        description = "Arrivals a second, Poisson (default 2.0).")
    private double rate = 2.0;

    @Option(
        names = "--sessions",
        paramLabel = "N",
        description = "Sessions open at once (default 16); an ended session is replaced.")
    private int sessions = 16;

    @Option(names = "--turns", paramLabel = "N", description = "Turns of a session (default 6).")
    private int turns = 6;

    @Option(
        names = "--roots",
        paramLabel = "N",
        description = "Root prompts sessions start with (default 4).")
    private int roots = 4;

    @Option(
        names = "--root-tokens",
        paramLabel = "N",
        description =
            "Tokens of a root prompt, rounded down to whole blocks: 0 (no root) or at least"
                + " --block-tokens (default 2048).")
    private int rootTokens = 2048;

    @Option(
        names = "--user-tokens",
        paramLabel = "MIN-MAX",
        description = "Tokens of each new user message (default 64-512).")
    private String userTokens = "64-512";

    @Option(
        names = "--output-tokens",
        paramLabel = "MIN-MAX",
        description = "Tokens of each reply (default 32-256).")
    private String outputTokens = "32-256";

    @Option(
        names = "--max-input-tokens",
        paramLabel = "N",
        description = "A session ends before its prompt would exceed this (default 32768).")
    private int maxInput = 32768;

    @Option(
        names = "--block-tokens",
        paramLabel = "N",
        description = "Tokens of one hash id's block (default 512).")
    private int blockTokens = Trace.DEFAULT_BLOCK_TOKENS;

    @Option(
        names = "--session-ids",
        description =
            "Write each row's session_id (s0, s1, ... in the order sessions start): a replay then"
                + " sends a session's later turn at its timestamp but never before the session's"
                + " previous turn ended.")
    private boolean sessionIds;

    @Option(
        names = "--delay-ms",
        paramLabel = "MIN-MAX",
        description =
            "Implies --session-ids: a session's later rows carry a delay of MIN to MAX ms (the"
                + " user's think time, seeded) after the session's previous turn ended, and no"
                + " timestamp; its first row keeps its Poisson timestamp (default: none).")
    private String delayMs;

    @Option(names = "--seed", paramLabel = "SEED", description = "Seed (default 0).")
    private long seed;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "FILE",
        description = "Where to write (default standard output); a name ending in .gz is gzip.")
    private Path output;

    @Override
    public Integer call() throws IOException {
      check(rows >= 1, "--rows", rows, ">= 1");
      check(rate > 0 && !Double.isInfinite(rate), "--rate", rate, "a number above 0");
      check(
          rows / rate * 1000.0 <= TraceReplay.MAX_REPLAY_MS,
          "--rate",
          rate,
          "a number above 0 at which the "
              + rows
              + " rows arrive within 30 days (a replay's longest)");
      check(sessions >= 1, "--sessions", sessions, ">= 1");
      check(turns >= 1, "--turns", turns, ">= 1");
      check(roots >= 0, "--roots", roots, ">= 0");
      check(blockTokens >= 1, "--block-tokens", blockTokens, ">= 1");
      check(
          rootTokens == 0 || rootTokens >= blockTokens,
          "--root-tokens",
          rootTokens,
          "0 (no root prompt) or at least --block-tokens "
              + blockTokens
              + " (a root is shared in whole blocks of hash ids; it is rounded down to them)");
      check(
          maxInput >= 1 && maxInput <= Trace.MAX_INPUT_TOKENS,
          "--max-input-tokens",
          maxInput,
          "1 to " + Trace.MAX_INPUT_TOKENS);
      int[] user = range("--user-tokens", userTokens, 1, "tokens");
      int[] out = range("--output-tokens", outputTokens, 1, "tokens");
      int[] delay = delayMs == null ? null : range("--delay-ms", delayMs, 0, "ms");
      long root = roots == 0 ? 0 : (long) (rootTokens / blockTokens) * blockTokens;
      check(
          root + user[0] <= maxInput,
          "--root-tokens",
          rootTokens,
          "a root that leaves room under --max-input-tokens "
              + maxInput
              + " for the smallest user message (--user-tokens "
              + user[0]
              + "): a session's first prompt is its root ("
              + root
              + " tokens in whole blocks) plus a user message");
      if (output == null) {
        PrintWriter w = spec.commandLine().getOut();
        write(w, user, out, delay);
        w.flush();
      } else {
        try (OutputStream file = Files.newOutputStream(output);
            OutputStream o =
                output.getFileName().toString().endsWith(".gz")
                    ? new GZIPOutputStream(file)
                    : file;
            PrintWriter w =
                new PrintWriter(
                    new java.io.OutputStreamWriter(o, java.nio.charset.StandardCharsets.UTF_8))) {
          write(w, user, out, delay);
        }
      }
      return 0;
    }

    private void check(boolean ok, String option, Object value, String allowed) {
      if (!ok) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), option + ": got " + value + ", expected " + allowed);
      }
    }

    private int[] range(String option, String value, int min, String unit) {
      String allowed = "N or MIN-MAX " + unit + ", " + min + " <= MIN <= MAX";
      try {
        int dash = value.indexOf('-', 1);
        int lo = Integer.parseInt((dash < 0 ? value : value.substring(0, dash)).strip());
        int hi = dash < 0 ? lo : Integer.parseInt(value.substring(dash + 1).strip());
        check(lo >= min && hi >= lo, option, value, allowed);
        return new int[] {lo, hi};
      } catch (NumberFormatException e) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), option + ": got " + value + ", expected " + allowed);
      }
    }

    /**
     * One open session: its number, its root, its context's full blocks, its length, its turns so
     * far.
     */
    private static final class Session {
      final long number;
      final List<Long> ids = new ArrayList<>();
      long tokens;
      int turn;

      Session(long number) {
        this.number = number;
      }
    }

    /**
     * Writes the rows, each a JSON object on a line of its own (JSONL: nothing before an object, a
     * line feed after it). With session ids ({@code --session-ids}, or {@code --delay-ms}), each
     * row names its session; with delays, a session's later row carries {@code delay} and no {@code
     * timestamp}, as docs/traces.md reads them.
     */
    private void write(PrintWriter w, int[] user, int[] out, int[] delay) throws IOException {
      SplittableRandom random = new SplittableRandom(seed);
      int rootBlocks = rootTokens / blockTokens;
      long[] nextId = {(long) Math.max(1, roots) * rootBlocks};
      boolean named = sessionIds || delay != null;
      long started = 0;
      Session[] open = new Session[sessions];
      double t = 0;
      for (int r = 0; r < rows; r++) {
        if (r > 0) {
          t += -Math.log(1 - random.nextDouble()) / rate * 1000.0;
        }
        int slot = random.nextInt(sessions);
        Session s = open[slot];
        int add = user[0] + (user[1] > user[0] ? random.nextInt(user[1] - user[0] + 1) : 0);
        if (s == null || s.turn >= turns || s.tokens + add > maxInput) {
          s = new Session(started++);
          if (roots > 0) {
            int root = random.nextInt(roots);
            for (int b = 0; b < rootBlocks; b++) {
              s.ids.add((long) root * rootBlocks + b);
            }
            s.tokens = (long) rootBlocks * blockTokens;
          }
          open[slot] = s;
        }
        long input = Math.min(maxInput, s.tokens + add);
        int blocks = (int) ((input + blockTokens - 1) / blockTokens);
        long[] ids = new long[blocks];
        int full = (int) Math.min(s.ids.size(), blocks);
        for (int b = 0; b < blocks; b++) {
          ids[b] = b < full ? s.ids.get(b) : nextId[0]++;
        }
        int reply = out[0] + (out[1] > out[0] ? random.nextInt(out[1] - out[0] + 1) : 0);
        Map<String, Object> row = new LinkedHashMap<>();
        if (named) {
          row.put("session_id", "s" + s.number);
        }
        if (delay != null && s.turn > 0) {
          // AIPerf's multi-turn form: after the session's previous turn ended, this long.
          row.put(
              "delay",
              delay[0] + (delay[1] > delay[0] ? random.nextInt(delay[1] - delay[0] + 1) : 0));
        } else {
          row.put("timestamp", Math.round(t));
        }
        row.put("input_length", input);
        row.put("output_length", reply);
        row.put("hash_ids", ids);
        w.write(ROW.writeValueAsString(row));
        w.write('\n');
        // The next turn's context: this prompt and its reply; its full blocks keep their ids.
        s.turn++;
        s.tokens = input + reply;
        int keep = (int) (input / blockTokens);
        while (s.ids.size() > keep) {
          s.ids.remove(s.ids.size() - 1);
        }
        for (int b = s.ids.size(); b < keep; b++) {
          s.ids.add(ids[b]);
        }
      }
      w.flush();
    }
  }
}
