package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.feeder.FedPrompt;
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
 * then its sender's), and hands the user to the sender of its kind of request ({@link Sender}: a
 * prompt, a trace row, a conversation's turn), which sends the request once through Gatling's HTTP
 * engine from the virtual user's event loop ({@link Dispatcher}); its {@link ResponseListener}
 * records it and lets the virtual user go on.
 *
 * <p>Crashes in here never kill a virtual user silently: a request that cannot be built is recorded
 * and logged as a KO row with the reason, and the user goes on; a scenario that gives the request
 * no prompt at all stops the run at once with a message naming what is missing (rather than
 * recording a failure per request).
 */
final class LlmAction extends JavaAction {

  static final org.slf4j.Logger LOG = LoggerFactory.getLogger(LlmAction.class);

  private final LlmActionSpec spec;
  private final RunContext run;
  private final GatlingCore gatling;
  private final Action next;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Sender conversations;
  private final Sender agents;
  private final PromptSender prompts;
  private final TraceSender traces;

  LlmAction(
      LlmActionSpec spec, RunContext run, RequestSettings body, GatlingHttp http, Action next) {
    super(LOG);
    this.spec = spec;
    this.run = run;
    this.gatling = run.gatling();
    this.next = next;
    Dispatcher dispatcher = new Dispatcher(spec, run, body, http, next);
    if (spec.conversation()) {
      ServerHistory history = new ServerHistory(run.settings().historyOnServer());
      this.conversations =
          new ConversationSender(
              spec.name(),
              run,
              body,
              dispatcher,
              next,
              run::conversationStarted,
              run::userEndedByBudget,
              history);
      this.agents = new AgentSender(spec.name(), run, body, dispatcher, next, history);
      this.prompts = null;
      this.traces = null;
    } else {
      this.conversations = null;
      this.agents = null;
      this.prompts = new PromptSender(spec, run, body, dispatcher, run::userEndedByBudget);
      this.traces = new TraceSender(prompts, run);
    }
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
      Sender sender = sender(session);
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

  /**
   * The sender of this request: an agent session's turn (inside {@code agentSession(...)}) or a
   * conversation's, or the refusal of a loop fed the wrong kind ({@link Misfed}); else a trace row
   * or a prompt.
   */
  private Sender sender(Session session) {
    if (conversations != null) {
      Misfed misfed = Misfed.of(spec.name(), session);
      if (misfed != null) {
        return misfed;
      }
      return AgentSender.fed(session) && AgentSender.inLoop(session) ? agents : conversations;
    }
    FedPrompt fed = PromptSender.fed(session);
    return fed != null && fed.trace() != null ? traces : prompts;
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
      if (stopped.compareAndSet(false, true)) {
        LOG.error("{}", stop.message());
        run.stopping(true);
        gatling.stopLoadGenerator(session, stop.message(), true);
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
