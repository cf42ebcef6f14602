package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.feeder.FedPrompt;
import io.github.gatlingllm.feeder.TraceReplay;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.util.concurrent.TimeUnit;

/**
 * Not API. Sends a trace row: a prompt with a due time. The row goes at its due time, whichever
 * user carries it: held on the user's event loop until then (a user starts up to one arrival window
 * early), sent at once when late. A session's later row (issue 32) waits for its session's previous
 * row to end, then goes at {@link TraceReplay#sessionDueNanos}.
 */
final class TraceSender implements Sender {

  private final PromptSender prompts;
  private final RunContext run;

  TraceSender(PromptSender prompts, RunContext run) {
    this.prompts = prompts;
    this.run = run;
  }

  @Override
  public Gate gate(Session session) {
    return prompts.admit(session, () -> send(session));
  }

  @Override
  public void send(Session session) {
    FedPrompt fed = PromptSender.fed(session);
    TraceReplay replay = fed.workload().replay();
    if (replay != null
        && replay.afterPrevious(
            (int) fed.index(),
            fed.workload().shard(),
            earliest -> session.eventLoop().execute(() -> sendAt(session, fed, earliest)))) {
      return;
    }
    sendAt(session, fed, null);
  }

  /**
   * Sends the row at its due time: its timestamp's, or for a session's later row the later of that
   * and {@code earliest} ({@link TraceReplay#sessionDueNanos}), which is then its schedule.
   *
   * @param earliest the session's previous row's end plus the row's delay ({@link
   *     System#nanoTime()}), or null for a row that waits for no other
   */
  private void sendAt(Session session, FedPrompt fed, Long earliest) {
    Long due = fed.trace().dueNanos();
    ClientWatch.First first = due != null ? run.client().traceRow(session, due) : null;
    Long dueNanos = first == null ? null : run.client().dueNanos(first);
    if (earliest != null) {
      if (dueNanos == null) {
        dueNanos = earliest; // no timestamp (or no injection start): no schedule of its own
      } else {
        long sessionDue = TraceReplay.sessionDueNanos(dueNanos, earliest, 0);
        if (sessionDue != dueNanos) {
          // the schedule (scheduled_ms, schedule lag) is the session's due time, not the timestamp
          first = run.client().traceRow(session, due + (sessionDue - dueNanos));
          dueNanos = sessionDue;
        }
      }
    }
    long wait = dueNanos == null ? 0 : dueNanos - System.nanoTime();
    ClientWatch.First schedule = first;
    if (wait > 0) {
      session
          .eventLoop()
          .schedule(() -> prompts.send(session, schedule), wait, TimeUnit.NANOSECONDS);
      return;
    }
    prompts.send(session, first);
  }
}
