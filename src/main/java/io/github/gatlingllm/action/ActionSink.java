package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.OpenRequests;
import io.github.gatlingllm.protocol.RunContext;

/**
 * Not API. The {@link RequestSink} of one LLM action's requests: the run's bookkeeping ({@link
 * RunContext}), the request's rows ({@link RequestRows}), its reply saves ({@link ReplySaves}) and
 * the action's next. Thread-safe as its parts are.
 */
final class ActionSink implements RequestSink {

  private final String name;
  private final RunContext run;
  private final ReplySaves replySaves;
  private final Action next;

  ActionSink(String name, RunContext run, ReplySaves replySaves, Action next) {
    this.name = name;
    this.run = run;
    this.replySaves = replySaves;
    this.next = next;
  }

  @Override
  public long nowMillis() {
    return run.gatling().nowMillis();
  }

  @Override
  public void opened(OpenRequests.Open request) {
    run.openRequests().add(request);
  }

  @Override
  public String runEnded() {
    return run.ended();
  }

  @Override
  public void closed(OpenRequests.Open request) {
    run.openRequests().remove(request);
  }

  @Override
  public void arrived(long nanos) {
    run.silence().arrived(nanos);
  }

  @Override
  public void staleConnectionResend() {
    run.staleConnectionResend();
  }

  @Override
  public void cancelled(long nanos) {
    run.cancelled(nanos);
  }

  @Override
  public RequestRecord schedule(RequestRecord record, long startNanos, ClientWatch.First first) {
    ClientWatch client = run.client();
    return record.withSchedule(client.epochMs(startNanos), client.scheduledMs(first));
  }

  @Override
  public void record(Workload workload, RequestRecord record) {
    run.record(workload, record);
  }

  @Override
  public void notSent() {
    run.notSent();
  }

  @Override
  public Session rows(Session session, long startMs, RequestRecord record, String reply) {
    return replySaves.apply(RequestRows.log(run, name, session, startMs, record), record, reply);
  }

  @Override
  public Session cancelledRows(Session session, long startMs, RequestRecord record) {
    return RequestRows.logCancelled(run.gatling(), name, session, startMs, record);
  }

  @Override
  public void failedRow(Session session, long startMs, long endMs, String message) {
    RequestRows.logFailed(run.gatling(), session, name, startMs, endMs, message);
  }

  @Override
  public void next(Session session) {
    next.$bang(session);
  }
}
