package io.github.gatlingllm.compare;

import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.record.Machine;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.record.RunRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a comparison's verdicts must be read with, from the two run records ({@code llm-run.json}'s
 * content): the prompts that differ (a workload in one run only, a phase digest that differs), a
 * model or endpoint that differs, and either run's interruption, warm start or client warnings.
 * Each is one line of text naming the run ({@code A}, {@code B}, {@code baseline}).
 */
public final class RunDifferences {

  private RunDifferences() {}

  /**
   * What differs in two run records' prompts: a workload in one only, a phase digest that differs.
   *
   * @param a the first run's record (its {@code prompts} and {@code workloads})
   * @param b the second run's record
   * @return one line per difference; empty when the same
   */
  public static List<String> promptDifferences(RunRecord a, RunRecord b) {
    List<String> out = new ArrayList<>();
    Map<String, Map<String, Object>> wa = workloads(a);
    Map<String, Map<String, Object>> wb = workloads(b);
    for (String name : wa.keySet()) {
      if (!wb.containsKey(name)) {
        out.add("workload " + name + " is only in A");
        continue;
      }
      Map<String, Object> pa = wa.get(name);
      Map<String, Object> pb = wb.get(name);
      for (String phase : pa.keySet()) {
        Object da = pa.get(phase);
        Object db = pb.get(phase);
        if (!Objects.equals(da, db)) {
          out.add(
              "workload "
                  + name
                  + " phase "
                  + phase
                  + ": digest A "
                  + da
                  + ", B "
                  + (pb.containsKey(phase) ? db : "(no such phase)"));
        }
      }
      for (String phase : pb.keySet()) {
        if (!pa.containsKey(phase)) {
          out.add("workload " + name + " phase " + phase + " is only in B");
        }
      }
    }
    for (String name : wb.keySet()) {
      if (!wa.containsKey(name)) {
        out.add("workload " + name + " is only in B");
      }
    }
    return List.copyOf(out);
  }

  /** Each workload's name to its phase digests. */
  private static Map<String, Map<String, Object>> workloads(RunRecord run) {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    int i = 0;
    for (RunInfo.Prompts prompts : run.allPrompts()) {
      i++;
      String name = prompts.workload() != null ? prompts.workload() : "#" + i;
      out.put(name, new LinkedHashMap<>(prompts.digests()));
    }
    return out;
  }

  /**
   * What the verdicts of A against B must be read with: a model or endpoint that differs (not the
   * base URL: the embedded simulator's port differs every run), then {@link #runWarnings} of A and
   * of B.
   *
   * @param a A's run record, never null (empty when the folder has none)
   * @param b B's run record, never null
   * @return one line each; empty when there is nothing to say
   */
  static List<String> warnings(RunRecord a, RunRecord b) {
    List<String> out = new ArrayList<>();
    for (String key : List.of("model", "endpoint")) {
      Object va = target(a, key);
      Object vb = target(b, key);
      if (va != null && vb != null && !va.equals(vb)) {
        out.add(
            "A and B differ in "
                + key
                + ": A \""
                + va
                + "\", B \""
                + vb
                + "\" (compared anyway: the change may be the "
                + key
                + "'s)");
      }
    }
    runWarnings(out, "A", a);
    runWarnings(out, "B", b);
    return List.copyOf(out);
  }

  /**
   * The warnings of one run record that a comparison repeats: interrupted, warm start, client lag.
   *
   * @param out where to add them
   * @param name the run's name in the lines ({@code A}, {@code B}, {@code baseline})
   * @param run its record
   */
  static void runWarnings(List<String> out, String name, RunRecord run) {
    if (run.wasInterrupted()) {
      out.add(
          name
              + " was interrupted"
              + (run.endReason() != null ? " (" + run.endReason() + ")" : "")
              + ": its figures cover the requests that finished");
    }
    CacheSummary cache = run.cache();
    if (cache != null && cache.warmStart()) {
      out.add(name + " warm start: " + cache.warmStartMessage());
    }
    ClientSummary client = run.client();
    if (client != null && client.warnings() != null) {
      for (String w : client.warnings()) {
        out.add(name + " client: " + w);
      }
    }
  }

  /**
   * What differs in what two runs ran, beyond the model and endpoint ({@link #warnings}): the users
   * ({@code load.concurrency}), the injection profile ({@code load.profiles}, where an open loop's
   * rate is), the budget and warmup, the connections, input tokens, output tokens ({@code
   * max_tokens}), streaming, {@code ignore_eos}, temperature, the prompt shape and seed, and the
   * embedded simulator's settings (one per setting that differs). A figure missing from either
   * record is not compared.
   *
   * @param a A's run record, never null
   * @param b B's run record, never null
   * @return one line each, e.g. {@code users: A 4, B 1}; empty when the same
   */
  public static List<String> loadDifferences(RunRecord a, RunRecord b) {
    List<String> out = new ArrayList<>();
    RunInfo.Load la = a.load();
    RunInfo.Load lb = b.load();
    if (la != null && lb != null) {
      differ(out, "users", la.concurrency(), lb.concurrency());
      differ(out, "injection profile", profiles(la), profiles(lb));
      differ(out, "budget (measured requests)", la.requests(), lb.requests());
      differ(out, "warmup requests", la.warmupRequests(), lb.warmupRequests());
      differ(out, "connections", la.connections(), lb.connections());
    }
    RunInfo.Prompts pa = a.prompts();
    RunInfo.Prompts pb = b.prompts();
    if (pa != null && pb != null) {
      differ(out, "input tokens", pa.inputTokens(), pb.inputTokens());
      differ(out, "prompt shape", pa.spec(), pb.spec());
      differ(out, "prompt seed", pa.seed(), pb.seed());
    }
    RunInfo.Decoding da = a.decoding();
    RunInfo.Decoding db = b.decoding();
    if (da != null && db != null) {
      differ(out, "output tokens (max_tokens)", da.maxTokens(), db.maxTokens());
      differ(out, "streaming", da.stream(), db.stream());
      differ(out, "ignore_eos", da.ignoreEos(), db.ignoreEos());
      differ(out, "temperature", da.temperature(), db.temperature());
    }
    RunInfo.Target ta = a.target();
    RunInfo.Target tb = b.target();
    if (ta != null && tb != null) {
      differ(
          out,
          "target",
          Boolean.TRUE.equals(ta.embeddedSimulator()) ? "the embedded simulator" : "a server",
          Boolean.TRUE.equals(tb.embeddedSimulator()) ? "the embedded simulator" : "a server");
      if (ta.simulator() != null && tb.simulator() != null) {
        for (Map.Entry<String, Object> e : ta.simulator().entrySet()) {
          differ(out, "simulator " + e.getKey(), e.getValue(), tb.simulator().get(e.getKey()));
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * A run's machine block.
   *
   * @param run its record, never null
   * @return the block, or null when the run recorded none
   */
  static Machine machine(RunRecord run) {
    return run.machine();
  }

  private static Object profiles(RunInfo.Load load) {
    return load.profiles() == null || load.profiles().isEmpty()
        ? null
        : String.join("; ", load.profiles());
  }

  private static void differ(List<String> out, String what, Object a, Object b) {
    if (a != null && b != null && !Objects.equals(a, b)) {
      out.add(what + ": A " + a + ", B " + b);
    }
  }

  private static Object target(RunRecord run, String key) {
    RunInfo.Target target = run.target();
    if (target == null) {
      return null;
    }
    return switch (key) {
      case "model" -> target.model();
      case "endpoint" -> target.endpoint();
      default -> throw new IllegalArgumentException("not a compared target field: " + key);
    };
  }
}
