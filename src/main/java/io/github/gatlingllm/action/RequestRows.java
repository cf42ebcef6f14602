package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.protocol.RunContext;
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
  private record Names(
      String e2e, String ttft, String tpot, String ttfo, String slo, String cache) {}

  private static final ConcurrentHashMap<String, Names> NAMES = new ConcurrentHashMap<>();

  private RequestRows() {}

  private static Names names(String name) {
    Names names = NAMES.get(name);
    if (names == null) {
      names =
          NAMES.computeIfAbsent(
              name,
              n ->
                  new Names(
                      n + " E2E", n + " TTFT", n + " TPOT", n + " TTFO", n + " SLO", n + " CACHE"));
    }
    return names;
  }

  /**
   * Gatling's rows of a request: the request row {@code NAME} in the session's groups, and its
   * figures as Gatling groups ({@link GatlingCore#logFigure}, never counted as requests): {@code
   * NAME E2E} (the request's status), {@code NAME TTFT}, {@code NAME TPOT}, {@code NAME TTFO}
   * (start to the first answer token after any reasoning; only for a reply that reasoned and
   * answered), with an SLO {@code NAME SLO} (OK when it met the SLO), and with {@code
   * llm.assert.cacheAsPlanned} and a cache plan, for a successful request, {@code NAME CACHE} (OK
   * when the cache outcome is the planned one). Measured figures are top-level groups whatever the
   * user's groups; a warmup request's row and figures are in the group {@code warmup}.
   *
   * @param run the run (Gatling's internals, the SLO, {@code llm.assert.cacheAsPlanned})
   * @param name the request name
   * @param session the virtual user's session as the request left it
   * @param startMs the request's start, epoch ms of Gatling's clock
   * @param record the request's record
   * @return the session to go on with: out of the warmup group again, marked failed unless OK
   */
  static Session log(
      RunContext run, String name, Session session, long startMs, RequestRecord record) {
    GatlingCore gatling = run.gatling();
    Names names = names(name);
    boolean warmup = Phase.isWarmup(record.phase());
    Session s =
        warmup ? GatlingCore.enterGroup(session, Phase.WARMUP.wireName(), startMs) : session;
    // The figures are groups: measured ones at the top level, whatever the user's groups (so
    // llm.assertions finds them), warmup ones in the warmup group the request is in.
    List<String> parents = warmup ? GatlingCore.groups(s) : List.of();
    String scenario = s.scenario();
    boolean ok = record.status() == RequestStatus.OK;
    String error = ok ? null : record.error();
    long end = startMs + Math.round(record.e2eMs());
    gatling.logRow(s, name, startMs, end, ok, error);
    gatling.logFigure(scenario, parents, names.e2e, startMs, end, ok);
    if (record.ttftMs() != null) {
      long firstToken = startMs + Math.round(record.ttftMs());
      gatling.logFigure(scenario, parents, names.ttft, startMs, firstToken, ok);
      if (record.tpotMs() != null) {
        gatling.logFigure(
            scenario,
            parents,
            names.tpot,
            firstToken,
            firstToken + Math.round(record.tpotMs()),
            ok);
      }
    }
    // Only a reply that reasoned has a first answer token apart from its first token: a TTFO
    // figure for every request of a model that does not reason would double TTFT's.
    if (record.ttfoMs() != null
        && record.reasoningTokens() != null
        && record.reasoningTokens() > 0) {
      gatling.logFigure(
          scenario, parents, names.ttfo, startMs, startMs + Math.round(record.ttfoMs()), ok);
    }
    Slo slo = run.slo();
    if (slo.isSet()) {
      gatling.logFigure(scenario, parents, names.slo, startMs, end, slo.missed(record).isEmpty());
    }
    if (run.settings().cacheAsPlanned() != null && ok && record.cachePlanned() != null) {
      gatling.logFigure(scenario, parents, names.cache, startMs, end, record.cacheAsPlanned());
    }
    s = GatlingCore.logGroupRequestTimings(s, startMs, end);
    if (!ok) {
      s = s.markAsFailed();
    }
    return warmup ? gatling.exitGroup(s, end) : s;
  }

  /**
   * The row of a request the client cancelled ({@code llm.cancelRate}): {@code NAME CANCELLED}, OK,
   * so that it is visible and neither a failure nor a KO of the request's own row; a warmup
   * request's in the group {@code warmup}.
   *
   * @param gatling Gatling's core internals
   * @param name the request name
   * @param session the virtual user's session as the request left it
   * @param startMs the request's start, epoch ms of Gatling's clock
   * @param record the request's record
   * @return the session to go on with, out of the warmup group again
   */
  static Session logCancelled(
      GatlingCore gatling, String name, Session session, long startMs, RequestRecord record) {
    boolean warmup = "warmup".equals(record.phase());
    Session s = warmup ? GatlingCore.enterGroup(session, "warmup", startMs) : session;
    long end = startMs + Math.round(record.e2eMs());
    gatling.logRow(s, name + " CANCELLED", startMs, end, true, null);
    s = GatlingCore.logGroupRequestTimings(s, startMs, end);
    return warmup ? gatling.exitGroup(s, end) : s;
  }

  /**
   * The row of a request that ended without a record of its own timings (not sent, or the action
   * failed): its {@code NAME} request row, KO, and its {@code NAME E2E} figure, KO, so that {@code
   * llm.assertions}' failure share counts it as Gatling's {@code details(NAME)} does.
   *
   * @param gatling Gatling's core internals
   * @param session the virtual user's session
   * @param name the request name
   * @param startMs start, epoch ms
   * @param endMs end, epoch ms
   * @param message the KO message
   */
  static void logFailed(
      GatlingCore gatling, Session session, String name, long startMs, long endMs, String message) {
    gatling.logRow(session, name, startMs, endMs, false, message);
    gatling.logFigure(session.scenario(), List.of(), names(name).e2e, startMs, endMs, false);
  }
}
