package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.protocol.RunContext;
import org.slf4j.Logger;

/**
 * Not API. The one way of an LLM request from its sender to the wire: builds Gatling's request with
 * the body, makes the request's {@link ResponseListener}, counts the request as sent ({@link
 * RunContext#sending}) and hands it to Gatling's HTTP engine from the virtual user's event loop.
 * Anything that fails before the wire is one not-sent cleanup: a KO row with the reason, the
 * request taken out of flight, the sender's own undo, and the user goes on.
 */
final class Dispatcher {

  /** What a sender prepares to send; may throw: the request is then not sent. */
  interface Prepare {
    /**
     * The request to send.
     *
     * @return never null
     */
    Outgoing outgoing();
  }

  /** What a sender undoes of a request that was not sent. */
  interface Undo {
    /**
     * The request was not sent.
     *
     * @param out the request, or null when it could not be prepared
     * @param endMs now, epoch ms of Gatling's clock
     */
    void notSent(Outgoing out, long endMs);
  }

  private final String name;
  private final RunContext run;
  private final GatlingHttp http;
  private final Action next;
  private final RequestSink sink;
  private final ResponseListener.Settings listening;

  /**
   * The way to the wire of one action's requests.
   *
   * @param spec the request
   * @param run the run
   * @param settings the request's body settings
   * @param http Gatling's HTTP engine and the request built for it
   * @param next the action after this one
   */
  Dispatcher(
      LlmActionSpec spec, RunContext run, RequestSettings settings, GatlingHttp http, Action next) {
    this.name = spec.name();
    this.run = run;
    this.http = http;
    this.next = next;
    this.sink = new ActionSink(name, run, spec.replySaves(), next);
    this.listening =
        new ResponseListener.Settings(
            settings.stream(),
            run.settings().timeout().toMillis(),
            run.cacheServer(settings.endpoint()),
            run.reasoningCounter(),
            spec.replySaves().text() != null,
            WireApi.dialect(settings));
  }

  /**
   * Sends one request once, unless the run has ended ({@link RunContext#admit}: the user then ends
   * and nothing is sent); never throws.
   *
   * @param session the virtual user's session
   * @param log the sender's logger, for the line of a request not sent
   * @param what {@code request} or {@code turn}, for that line
   * @param prepare the request's preparation
   * @param undo the sender's undo of a request not sent
   */
  void send(Session session, Logger log, String what, Prepare prepare, Undo undo) {
    if (!run.admit()) {
      // The run has ended: nothing is sent; a prompt the user holds is recorded by the run's end.
      undo.notSent(null, run.gatling().nowMillis());
      run.gatling().exit().$bang(session);
      return;
    }
    try {
      sendAdmitted(session, log, what, prepare, undo);
    } finally {
      run.admitted();
    }
  }

  private void sendAdmitted(Session session, Logger log, String what, Prepare prepare, Undo undo) {
    Outgoing out = null;
    ResponseListener listener = null;
    boolean counted = false;
    try {
      out = prepare.outgoing();
      Session built = session.set(LlmScalaActionBuilder.BODY, out.body());
      if (out.turn() != null) {
        // The session header's value (issue 32), read by the header the builder added.
        built = built.set(LlmScalaActionBuilder.SESSION_ID, out.turn().sessionId());
      }
      io.gatling.http.client.Request request = http.clientRequest(built);
      listener =
          new ResponseListener(
              sink,
              listening,
              session,
              out,
              Cancellation.choose(
                  run.settings().cancel(),
                  run.settings().seed(),
                  out.identity(),
                  out.turn() != null));
      if (out.sending() != null) {
        out.sending().run();
      }
      run.sending(session.scenario(), name, out.workload(), out.conversations());
      counted = true;
      http.send(request, session, run.shareConnections(), listener);
    } catch (RuntimeException e) {
      // Nothing reached the wire: a KO row with the reason, the user goes on.
      log.error("llm(\"{}\"): the {} could not be sent: {}", name, what, e.toString());
      long now = run.gatling().nowMillis();
      RequestRows.logFailed(run.gatling(), session, name, now, now, "not sent: " + e.getMessage());
      if (listener != null) {
        listener.abandon();
      }
      if (counted) {
        run.notSent();
      }
      if (out != null && out.prefill() != null) {
        out.prefill().ended(false);
      }
      undo.notSent(out, now);
      next.$bang(session.markAsFailed());
    }
  }
}
