package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.feeder.FedPrompt;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.util.concurrent.TimeUnit;

/**
 * Not API. Sends a trace row: a prompt with a due time. The row goes at its due time, whichever
 * user carries it: held on the user's event loop until then (a user starts up to one arrival window
 * early), sent at once when late.
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
    Long due = fed.trace().dueNanos();
    ClientWatch.First first = due != null ? run.client().traceRow(session, due) : null;
    Long dueNanos = first == null ? null : run.client().dueNanos(first);
    long wait = dueNanos == null ? 0 : dueNanos - System.nanoTime();
    if (wait > 0) {
      session.eventLoop().schedule(() -> prompts.send(session, first), wait, TimeUnit.NANOSECONDS);
      return;
    }
    prompts.send(session, first);
  }
}
