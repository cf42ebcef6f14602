package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Not API. An ended LLM request's rows in Gatling's statistics (the {@code NAME}, {@code NAME
 * TTFT}, {@code NAME TPOT}, ... rows of Gatling's report), logged from its {@link RequestRecord} by
 * {@link ResponseListener}. The row names of each request name are made once and kept (a run has a
 * handful), so that a request's rows make no new strings.
 */
final class RequestRows {

  /** The row names of one request name, made once. */
  private record Names(String ttft, String tpot, String ttfo, String slo, String cache) {}

  private static final ConcurrentHashMap<String, Names> NAMES = new ConcurrentHashMap<>();

  private RequestRows() {}

  private static Names names(String name) {
    Names names = NAMES.get(name);
    if (names == null) {
      names =
          NAMES.computeIfAbsent(
              name,
              n -> new Names(n + " TTFT", n + " TPOT", n + " TTFO", n + " SLO", n + " CACHE"));
    }
    return names;
  }

  /**
   * Gatling's rows of a request: {@code NAME}, {@code NAME TTFT}, {@code NAME TPOT}, {@code NAME
   * TTFO} (start to the first answer token after any reasoning; only for a reply that reasoned and
   * answered), with an SLO {@code NAME SLO}, and with {@code llm.assert.cacheAsPlanned} and a cache
   * plan, for a successful request, {@code NAME CACHE} (OK when the cache outcome is the planned
   * one); warmup requests' rows in the group {@code warmup}.
   *
   * @param action the request's action
   * @param session the virtual user's session as the request left it
   * @param startMs the request's start, epoch ms of Gatling's clock
   * @param record the request's record
   * @return the session to go on with: out of the warmup group again, marked failed unless OK
   */
  static Session log(LlmAction action, Session session, long startMs, RequestRecord record) {
    GatlingCore gatling = action.run().gatling();
    String name = action.name();
    Names names = names(name);
    boolean warmup = "warmup".equals(record.phase());
    Session s = warmup ? GatlingCore.enterGroup(session, "warmup", startMs) : session;
    boolean ok = record.status() == RequestStatus.OK;
    String error = ok ? null : record.error();
    long end = startMs + Math.round(record.e2eMs());
    gatling.logRow(s, name, startMs, end, ok, error);
    if (record.ttftMs() != null) {
      long firstToken = startMs + Math.round(record.ttftMs());
      gatling.logRow(s, names.ttft, startMs, firstToken, ok, error);
      if (record.tpotMs() != null) {
        gatling.logRow(
            s, names.tpot, firstToken, firstToken + Math.round(record.tpotMs()), ok, error);
      }
    }
    // Only a reply that reasoned has a first answer token apart from its first token: a TTFO row
    // for every request of a model that does not reason would double TTFT's row in Gatling's
    // counts.
    if (record.ttfoMs() != null
        && record.reasoningTokens() != null
        && record.reasoningTokens() > 0) {
      gatling.logRow(s, names.ttfo, startMs, startMs + Math.round(record.ttfoMs()), ok, error);
    }
    Slo slo = action.run().slo();
    if (slo.isSet()) {
      List<String> missed = slo.missed(record);
      List<String> described = new ArrayList<>();
      for (String c : missed) {
        described.add(slo.describe(c));
      }
      gatling.logRow(
          s,
          names.slo,
          startMs,
          end,
          missed.isEmpty(),
          missed.isEmpty() ? null : "missed " + String.join(", ", described));
    }
    if (action.run().settings().cacheAsPlanned() != null && ok && record.cachePlanned() != null) {
      boolean asPlanned = record.cacheAsPlanned();
      gatling.logRow(s, names.cache, startMs, end, asPlanned, asPlanned ? null : cacheMiss(record));
    }
    s = GatlingCore.logGroupRequestTimings(s, startMs, end);
    if (!ok) {
      s = s.markAsFailed();
    }
    return warmup ? gatling.exitGroup(s, end) : s;
  }

  /** The {@code NAME CACHE} row's KO message: what the cache did against the plan. */
  private static String cacheMiss(RequestRecord record) {
    if (record.cache() == CacheOutcome.UNKNOWN) {
      return "cache unknown: the server reports no cached tokens";
    }
    return "cache "
        + record.cache().wireName()
        + ": "
        + record.cachedTokens()
        + " cached tokens, planned "
        + record.cachePlanned().wireName()
        + " of "
        + record.plannedCachedTokens();
  }
}
