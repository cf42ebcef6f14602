package io.github.gatlingllm.report;

import io.github.gatlingllm.record.AgentSessions;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.record.SaturationBlock;
import io.github.gatlingllm.record.SessionSummary;
import io.github.gatlingllm.record.TargetDown;
import io.github.gatlingllm.record.TargetSilent;
import io.github.gatlingllm.session.SessionEnd;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sentences a run record's verdicts are told in, for the summary, the console and the report
 * page: the cache verdict with its ratios, the saturation point of a sweep (or each scenario's),
 * how the run ended, the conversations' totals; and the readers of the record's loose values they
 * share ({@link #map}, {@link #number}, {@link #num}, {@link #ms}). Each reads the record alone and
 * returns null when there is nothing to say.
 */
final class RunSentences {

  private RunSentences() {}

  /**
   * The cache verdict with its ratios, or in words why there is none: {@code as planned (observed
   * hit ratio 0.48, planned 0.5)}, {@code unknown: the server reported no cached tokens (planned
   * hit ratio 0.5)}, {@code no verdict: none of the 4 measured requests with a cache plan succeeded
   * (4 failed), so no cache hit was observed}.
   *
   * @param cache the record's {@code cache}
   * @return the text, or null when no request had a cache plan
   */
  static String cacheVerdict(CacheSummary cache) {
    String verdict = cache.verdict();
    if (verdict == null) {
      return null;
    }
    boolean series = !cache.workloads().isEmpty();
    Double planned = number(cache.plannedRequests());
    String reason = cache.verdictReason();
    Double measured = number(cache.requests());
    if (measured != null && measured == 0) {
      if (!series && (planned == null || planned == 0)) {
        return null;
      }
      return "no verdict: "
          + (reason == null ? "no measured request with a cache plan succeeded" : reason);
    }
    if (!series) {
      return null;
    }
    if (reason != null) {
      return verdict + ": " + reason + " (planned hit ratio " + num(cache.plannedHitRatio()) + ")";
    }
    return verdict
        + " (observed hit ratio "
        + num(cache.observedHitRatio())
        + ", planned "
        + num(cache.plannedHitRatio())
        + ")";
  }

  /**
   * The saturation sentence of a run: {@link #saturation(SaturationBlock)} of its {@code
   * saturation}, or, when {@code saturations} holds several scenarios, one sentence per scenario
   * named by it and the sentence saying they shared the server.
   *
   * @param run the run record
   * @return the text, or null when there is no saturation
   */
  static String saturations(RunRecord run) {
    List<SaturationBlock> all = run.saturations();
    if (all != null && all.size() > 1) {
      List<String> parts = new ArrayList<>();
      String shared = null;
      for (SaturationBlock s : all) {
        parts.add("scenario " + s.scenario() + ": " + saturation(s));
        if (s.sharedServer() != null) {
          shared = s.sharedServer();
        }
      }
      return String.join("; ", parts) + (shared == null ? "" : " (" + shared + ")");
    }
    return run.saturation() == null ? null : saturation(run.saturation().verdict());
  }

  /**
   * The one warning about how the run ended: interrupted (and why, {@code end_reason}), and how
   * many requests in flight were cut and recorded as {@code cut_by_run_end}; null for a run that
   * ended with no request in flight and was not interrupted.
   */
  static String ending(RunRecord run) {
    boolean interrupted = run.wasInterrupted();
    String reason = run.endReason();
    Long cut = run.requestsCutByRunEnd();
    boolean anyCut = cut != null && cut > 0;
    if (!interrupted && !anyCut) {
      return null;
    }
    String text =
        (interrupted ? "the run was interrupted" : "the run ended")
            + (reason == null
                ? ""
                : " (" + ("interrupted".equals(reason) ? "Ctrl+C or SIGTERM" : reason) + ")");
    if (!anyCut) {
      return text + ": the figures cover the requests that finished";
    }
    long n = cut;
    Long before = run.requestsCutBeforeSent();
    long notSent = before == null ? 0 : Math.max(0, Math.min(n, before));
    long inFlight = n - notSent;
    StringBuilder out = new StringBuilder(text).append(": ");
    if (inFlight > 0) {
      out.append(inFlight)
          .append(inFlight == 1 ? " LLM request was" : " LLM requests were")
          .append(" still in flight, recorded with status cut_by_run_end and what was measured")
          .append(" until then");
    }
    if (notSent > 0) {
      out.append(inFlight > 0 ? "; " : "")
          .append(notSent)
          .append(notSent == 1 ? " prompt handed out was" : " prompts handed out were")
          .append(" never sent, recorded with status cut_by_run_end")
          .append(inFlight > 0 ? " too" : "");
    }
    return out.append(" (left out of the latency figures and the goodput)").toString();
  }

  /**
   * The run record's {@code target_down} block in a sentence: when the target stopped answering,
   * how many requests failed to connect or got a server error while it was down, and whether the
   * run stopped or the target came back; null when the target was never judged down.
   */
  static String targetDown(RunRecord run) {
    TargetDown t = run.targetDown();
    if (t == null) {
      return null;
    }
    long n = t.failedRequests() == null ? 0 : t.failedRequests();
    String after =
        Boolean.TRUE.equals(t.stopped())
            ? "; the run stopped rather than spend the rest of its prompt budget on a dead target"
            : t.backAt() != null
                ? "; it answered again at " + t.backAt()
                : "; it never answered again";
    return t.message()
        + ". "
        + n
        + (n == 1 ? " request" : " requests")
        + " failed to connect or got a server error while it was down (left out of the latency"
        + " figures)"
        + after;
  }

  /**
   * The run record's {@code target_silent} block in a sentence: the console's line of the first
   * silent episode, how many there were, and how the last one ended (the run stopped for it, the
   * run ended during it, or a byte came again); null when the target was never silent.
   */
  static String targetSilent(RunRecord run) {
    TargetSilent t = run.targetSilent();
    if (t == null) {
      return null;
    }
    long n = t.episodeCount() == null ? 1 : t.episodeCount();
    List<TargetSilent.Episode> episodes = t.episodes();
    TargetSilent.Episode last =
        episodes == null || episodes.isEmpty() ? null : episodes.get(episodes.size() - 1);
    Double silentS = last == null ? null : last.silentS();
    String how;
    if (Boolean.TRUE.equals(t.stopped())) {
      how =
          "the run stopped rather than wait on a silent target; its requests in flight were cut"
              + " and recorded (cut_by_run_end)";
    } else if (last != null && "run_end".equals(last.ended())) {
      how = "it was still silent when the run ended, after " + num(silentS) + " s";
    } else {
      how = "bytes came again after " + num(silentS) + " s of silence";
    }
    String rest = (n == 1 ? "" : n + " silent episodes in all; the last: ") + how;
    return t.message() + ". " + Character.toUpperCase(rest.charAt(0)) + rest.substring(1);
  }

  /**
   * The saturation block in a sentence: its {@code verdict_text} (the verdict the console and
   * {@code llm.stopWhenSaturated} gave), or from its figures for a record written before it had
   * one; then the SLO's load and an early stop.
   *
   * @param s a scenario's verdict, never null
   * @return the sentence
   */
  static String saturation(SaturationBlock s) {
    boolean rate = s.open();
    String what = rate ? "rate" : "concurrency";
    String unit = rate ? " users/s" : "";
    Number at = s.saturationLoad();
    Number peakAt = s.maxLoad();
    StringBuilder text = new StringBuilder();
    if (s.verdictText() != null) {
      // The run's one verdict, as the console and llm.stopWhenSaturated judged it.
      text.append(s.verdictText());
    } else if (Boolean.TRUE.equals(s.stillGrowing())) {
      text.append("no saturation seen: throughput still growing at the highest level (")
          .append(what)
          .append(' ')
          .append(num(number(peakAt == null ? at : peakAt)))
          .append(unit)
          .append(", ")
          .append(num(s.maxOutputTokensPerS()))
          .append(" output tokens/s)");
    } else {
      text.append("saturates at ").append(what).append(' ');
      text.append(num(number(at))).append(unit);
      text.append(" (level ").append(s.saturationLevel());
      if (s.saturationOutputTokensPerS() != null) {
        text.append(", ").append(num(s.saturationOutputTokensPerS()));
        text.append(" output tokens/s");
      }
      text.append("); peak ").append(num(s.maxOutputTokensPerS()));
      text.append(" output tokens/s");
      if (peakAt != null) {
        text.append(" at ").append(what).append(' ').append(num(number(peakAt))).append(unit);
        text.append(" (level ").append(s.maxLevel()).append(')');
      }
    }
    if (s.sloRatio() != null) {
      Double slo = s.sloLoad();
      text.append(
          slo == null
              ? "; no level met the SLO"
              : "; the SLO holds up to " + what + " " + num(slo) + (rate ? " users/s" : ""));
    }
    if (Boolean.TRUE.equals(s.stoppedEarly())) {
      text.append("; ")
          .append(io.github.gatlingllm.levels.Saturation.stopText(text.toString(), s.stopReason()));
    }
    return text.toString();
  }

  /**
   * The measured conversations of every conversation workload in a line, e.g. {@code conversations:
   * 24 (20 completed, 3 ended by context limit, 1 ended by error), 96 turns}; null when the run had
   * none.
   *
   * @param workloads the run record's {@code conversations}, or null
   * @return the line without its indent, or null
   */
  static String conversations(List<Conversations> workloads) {
    if (workloads == null || workloads.isEmpty()) {
      return null;
    }
    long conversations = 0;
    long completed = 0;
    long contextLimit = 0;
    long error = 0;
    long turns = 0;
    for (Conversations w : workloads) {
      Conversations.Phase measured = w.measured();
      if (measured != null) {
        conversations += count(measured.conversations());
        completed += count(measured.completed());
        contextLimit += count(measured.endedByContextLimit());
        error += count(measured.endedByError());
        turns += count(measured.turns());
      }
    }
    return "conversations: "
        + conversations
        + " measured ("
        + completed
        + " completed, "
        + contextLimit
        + " ended by context limit, "
        + error
        + " ended by error), "
        + turns
        + (turns == 1 ? " turn" : " turns");
  }

  /**
   * The measured agent sessions of every {@code agents()} workload in a line, e.g. {@code agent
   * sessions: 16 measured (14 completed, 1 loop limit, 0 context limit, 1 error), 48 turns, 40 tool
   * calls (0 malformed)}; null when the run had none.
   *
   * @param workloads the run record's {@code sessions}, or null
   * @return the line without its indent, or null
   */
  static String sessions(List<AgentSessions> workloads) {
    if (workloads == null || workloads.isEmpty()) {
      return null;
    }
    long sessions = 0;
    long turns = 0;
    long calls = 0;
    long malformed = 0;
    long[] ends = new long[SessionEnd.values().length];
    for (AgentSessions w : workloads) {
      turns += count(w.turnsSent());
      SessionSummary measured = w.measured();
      if (measured == null) {
        continue;
      }
      sessions += count(measured.count());
      for (SessionEnd end : SessionEnd.values()) {
        ends[end.ordinal()] +=
            measured.ended() == null ? 0 : count(measured.ended().get(end.wireName()));
      }
      calls += count(measured.toolCalls());
      malformed += count(measured.malformedToolCalls());
    }
    long completed = ends[SessionEnd.COMPLETED.ordinal()];
    long loopLimit = ends[SessionEnd.LOOP_LIMIT.ordinal()];
    long contextLimit = ends[SessionEnd.CONTEXT_LIMIT.ordinal()];
    long error = ends[SessionEnd.ERROR.ordinal()];
    return "agent sessions: "
        + sessions
        + " measured ("
        + completed
        + " completed, "
        + loopLimit
        + " loop limit, "
        + contextLimit
        + " context limit, "
        + error
        + " error), "
        + turns
        + (turns == 1 ? " turn, " : " turns, ")
        + calls
        + (calls == 1 ? " tool call (" : " tool calls (")
        + malformed
        + " malformed)";
  }

  private static long count(Long value) {
    return value == null ? 0 : value;
  }

  /** A map of the record, or an empty one. */
  static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> m ? m : Map.of();
  }

  /** A number of the record, or null. */
  static Double number(Object value) {
    return value instanceof Number n ? Double.valueOf(n.doubleValue()) : null;
  }

  /** A number for people ({@link Decimals#fmt}), or {@code –}. */
  static String num(Double value) {
    return value == null ? "–" : Decimals.fmt(value);
  }

  /** Milliseconds to the microsecond ({@link Decimals#ms}), or {@code –}. */
  static String ms(Object value) {
    return value instanceof Number n ? Decimals.ms(n.doubleValue()) : "–";
  }
}
