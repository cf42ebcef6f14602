package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.protocol.RunContext;
import java.util.function.ToIntFunction;
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

  /**
   * What a sender undoes of a request it did not prepare (could not, or the run had ended); a
   * prepared one's part hears it.
   */
  interface Undo {
    /**
     * The request was not prepared, so it was not sent.
     *
     * @param endMs now, epoch ms of Gatling's clock
     */
    void notPrepared(long endMs);
  }

  /**
   * What every request of one action shares, made once when the action is built.
   *
   * @param streamed whether the requests ask for a stream
   * @param timeoutMs the client's request timeout ({@code llm.timeout}), in milliseconds
   * @param cacheServer what the cache plan knows of the server, or null
   * @param reasoningCounter counts reasoning text when the server reports no reasoning tokens, or
   *     null
   * @param keepsReply whether a {@code saveReplyAs} key asks for the reply's text
   * @param dialect the requests' API: their event parser, terminal event and body reader
   */
  record Shared(
      boolean streamed,
      long timeoutMs,
      CachePlan.Server cacheServer,
      ToIntFunction<String> reasoningCounter,
      boolean keepsReply,
      Dialect dialect) {}

  private final String name;
  private final RunContext run;
  private final GatlingHttp http;
  private final Action next;
  private final RequestSink sink;
  private final Shared listening;

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
        new Shared(
            settings.stream(),
            run.settings().timeout().toMillis(),
            run.cacheServer(settings.endpoint()),
            run.reasoningCounter(),
            spec.replySaves().text() != null,
            settings.endpoint().dialect());
  }

  /**
   * Sends a session's turn once ({@link #send} of a {@code turn}); never throws.
   *
   * @param session the virtual user's session
   * @param log the sender's logger, for the line of a turn not sent
   * @param prepare the turn's preparation
   * @param undo the sender's undo of a turn it could not prepare
   */
  void sendTurn(Session session, Logger log, Prepare prepare, Undo undo) {
    send(session, log, "turn", prepare, undo);
  }

  /**
   * Sends one request once, unless the run has ended ({@link RunContext#admit}: the user then ends
   * and nothing is sent); never throws.
   *
   * @param session the virtual user's session
   * @param log the sender's logger, for the line of a request not sent
   * @param what {@code request} or {@code turn}, for that line
   * @param prepare the request's preparation
   * @param undo the sender's undo of a request it could not prepare
   */
  void send(Session session, Logger log, String what, Prepare prepare, Undo undo) {
    if (!run.admit()) {
      // The run has ended: nothing is sent; a prompt the user holds is recorded by the run's end.
      undo.notPrepared(run.gatling().nowMillis());
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
      io.gatling.http.client.Request request =
          http.clientRequest(out.part().carry(session.set(LlmScalaActionBuilder.BODY, out.body())));
      if (out.parts() != null) {
        // A body with images: sent from its parts, each image the array it was built in.
        request = GatlingHttp.withBody(request, out.parts());
      }
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
                  out.part().turn()));
      out.part().sending(run, session.scenario(), name);
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
      if (out != null) {
        out.part().failed(now);
        out.part().closed(System.nanoTime(), false);
      } else {
        undo.notPrepared(now);
      }
      next.$bang(session.markAsFailed());
    }
  }
}
