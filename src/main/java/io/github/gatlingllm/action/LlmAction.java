package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.internal.JavaAction;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;

/**
 * Not API. The LLM request action: asks whether the user must stop ({@link Gate}: the run's answer,
 * then its sender's), and hands the user to its one {@link Sender}, chosen when the action is built
 * from what the request sends ({@link LlmActionSpec.Kind}: a prompt or trace row, a conversation's
 * turn, an agent session's turn), which sends the request once through Gatling's HTTP engine from
 * the virtual user's event loop ({@link Dispatcher}); its {@link ResponseListener} records it and
 * lets the virtual user go on.
 *
 * <p>Crashes in here never kill a virtual user silently: a request that cannot be built is recorded
 * and logged as a KO row with the reason, and the user goes on; a scenario that gives the request
 * no prompt at all stops the run at once with a message naming what is missing (rather than
 * recording a failure per request).
 */
final class LlmAction extends JavaAction {

  static final org.slf4j.Logger LOG = LoggerFactory.getLogger(LlmAction.class);

  /** Gatling's reason of a stop for a refusal, which the refusal's own line explains. */
  static final String REFUSED = "gatling-llm: a request was refused, see the run's last line";

  private final LlmActionSpec spec;
  private final RunContext run;
  private final GatlingCore gatling;
  private final Action next;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Sender sender;

  LlmAction(
      LlmActionSpec spec, RunContext run, RequestSettings body, GatlingHttp http, Action next) {
    super(LOG);
    this.spec = spec;
    this.run = run;
    this.gatling = run.gatling();
    this.next = next;
    Dispatcher dispatcher = new Dispatcher(spec, run, body, http, next);
    this.sender =
        switch (spec.kind()) {
          case PROMPT -> new PromptSender(spec, run, body, dispatcher, run::userEndedByBudget);
          case CONVERSATION ->
              new ConversationSender(
                  turnParts(spec, run, body, dispatcher, next),
                  run::conversationStarted,
                  run::userEndedByBudget);
          case AGENT -> new AgentSender(turnParts(spec, run, body, dispatcher, next));
        };
  }

  private static TurnSender.Parts turnParts(
      LlmActionSpec spec,
      RunContext run,
      RequestSettings body,
      Dispatcher dispatcher,
      Action next) {
    return new TurnSender.Parts(
        spec.name(),
        run,
        body,
        dispatcher,
        next,
        new ServerHistory(run.settings().historyOnServer()));
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public void execute(Session session) {
    execute(session, true);
  }

  /**
   * The request's way from the gate to its sender.
   *
   * @param mayWait false after the user has waited once for a target that is not answering: it then
   *     sends (or ends, or stops the run), never waits again
   */
  private void execute(Session session, boolean mayWait) {
    try {
      Gate gate = run.gate(session, mayWait);
      if (gate instanceof Gate.Go) {
        gate = sender.gate(session);
      }
      if (gate instanceof Gate.Go) {
        sender.send(session);
      } else if (gate instanceof Gate.Held) {
        run.client().unscheduled(session);
      } else if (gate instanceof Gate.Wait wait) {
        // Not answering: wait rather than hammer a closed port; the wait is not a schedule lag.
        run.client().unscheduled(session);
        session
            .eventLoop()
            .schedule(() -> execute(session, false), wait.pauseMs(), TimeUnit.MILLISECONDS);
      } else if (gate instanceof Gate.EndUser end) {
        // A prompt fed for this request and never sent is recorded, as every one handed out.
        run.notSent(PromptSender.fed(session), spec.name(), session);
        endUser(session, end.pauseMs());
      } else if (gate instanceof Gate.StopRun stop) {
        stopRun(session, stop);
      }
    } catch (RuntimeException e) {
      LOG.error("llm(\"{}\"): {}", spec.name(), e.toString(), e);
      next.$bang(session.markAsFailed());
    }
  }

  private void endUser(Session session, long pauseMs) {
    if (pauseMs <= 0) {
      gatling.exit().$bang(session);
      return;
    }
    session
        .eventLoop()
        .schedule(() -> gatling.exit().$bang(session), pauseMs, TimeUnit.MILLISECONDS);
  }

  private void stopRun(Session session, Gate.StopRun stop) {
    if (stop.crash()) {
      // A refusal: said once, as the console's last line when the JVM exits (ExitLine); the load
      // stops in order, so Gatling writes its report and the run record has what was measured.
      if (stopped.compareAndSet(false, true) && run.refused(stop.message())) {
        run.stopping(true);
        gatling.stopLoadGenerator(session, REFUSED, false);
      }
      return;
    }
    // Nothing more is sent and every request in flight is cut while Gatling still takes rows.
    run.stopping(false);
    run.loadOver();
    gatling.stopLoadGenerator(session, stop.message(), false);
  }

  /**
   * The answer for a virtual user fed past its workload's budget: the run's injection stops once
   * every prompt feeder's budget is spent and every request has ended (every scenario of the
   * simulation fed a budget); else the user ends after {@link Gate#END_PAUSE_MS}, as a closed loop
   * replaces an ended user at once.
   *
   * @param runSpent the run's answer for the user ({@link RunContext#userEndedByBudget}): true when
   *     the run's injection stops now
   * @return a {@link Gate.StopRun} that is no crash, or a {@link Gate.EndUser}
   */
  static Gate spentUser(boolean runSpent) {
    if (runSpent) {
      LOG.info(
          "every prompt feeder's budget is spent and every request has ended: stopping the"
              + " injection (every scenario of the simulation was fed a budget)");
      return new Gate.StopRun("gatling-llm: every prompt budget is spent", false);
    }
    return new Gate.EndUser(Gate.END_PAUSE_MS);
  }
}
