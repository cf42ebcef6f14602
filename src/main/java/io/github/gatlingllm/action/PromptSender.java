package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.FedPrompt;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import scala.Option;

/**
 * Not API. Sends a fed prompt ({@link FedPrompt}: generated or from a prompts file) or the
 * request's own ({@code .prompt(...)}), with the fed record's phase and index when there is one.
 */
final class PromptSender implements Sender {

  private final LlmActionSpec spec;
  private final RunContext run;
  private final RequestSettings settings;
  private final Dispatcher dispatcher;
  private final Predicate<String> userEndedByBudget;
  private final AtomicLong unfedIndex = new AtomicLong();

  /**
   * A sender of an action's prompts.
   *
   * @param spec the request
   * @param run the run (its client watch, tokenizer)
   * @param settings the request's body settings
   * @param dispatcher the way to the wire
   * @param userEndedByBudget the run's answer to a user fed past its budget, by scenario ({@link
   *     RunContext#userEndedByBudget})
   */
  PromptSender(
      LlmActionSpec spec,
      RunContext run,
      RequestSettings settings,
      Dispatcher dispatcher,
      Predicate<String> userEndedByBudget) {
    this.spec = spec;
    this.run = run;
    this.settings = settings;
    this.dispatcher = dispatcher;
    this.userEndedByBudget = userEndedByBudget;
  }

  /**
   * The prompt a virtual user was fed.
   *
   * @param session the user's session
   * @return the fed value ({@link FedPrompt#spent} on a record handed out after the budgets), or
   *     null when the user was fed no prompts feeder
   */
  static FedPrompt fed(Session session) {
    scala.collection.immutable.Map<String, Object> attributes = session.attributes();
    Option<Object> workload = attributes.get(PromptFeeder.WORKLOAD);
    if (workload.isEmpty()) {
      return null;
    }
    // A record after the budgets holds no fed value: the session's is the previous record's.
    if (Boolean.TRUE.equals(attributes.get(PromptFeeder.DONE).getOrElse(() -> null))) {
      return FedPrompt.spent((Workload) workload.get());
    }
    return (FedPrompt) attributes.get(FedPrompt.KEY).get();
  }

  @Override
  public Gate gate(Session session) {
    return admit(session, () -> send(session));
  }

  /**
   * {@link #admit(boolean, FedPrompt, String, Runnable)} for a session.
   *
   * @param session the user's session
   * @param send sends the request, run on the user's event loop once the warmup has ended
   * @return never null
   */
  Gate admit(Session session, Runnable send) {
    return admit(
        session.attributes().contains(ConversationFeeder.WORKLOAD),
        fed(session),
        session.scenario(),
        () -> session.eventLoop().execute(send));
  }

  /**
   * The answer for a prompt: the run stops when the user holds a conversation outside {@code
   * conversation(...)} or has no prompt at all; the user ends when its workload is spent; a fed
   * prompt begins (counted in flight from here to its end) and a measured one is held until the
   * warmup has ended.
   *
   * @param conversationFed whether the user was fed a conversations() feeder
   * @param fed the fed prompt, or null
   * @param scenario the user's scenario
   * @param resume sends the request once the warmup has ended (when this returns {@link Gate#HELD})
   * @return never null
   */
  Gate admit(boolean conversationFed, FedPrompt fed, String scenario, Runnable resume) {
    if (conversationFed) {
      return new Gate.StopRun(
          "llm(\""
              + spec.name()
              + "\"): the virtual user was fed a conversations() feeder, but this request is not"
              + " inside conversation(...), so it would send the first turn only: wrap it,"
              + " feed(conversations()...).exec(conversation(llm(\""
              + spec.name()
              + "\")...))",
          true);
    }
    if (fed == null) {
      return spec.prompt() != null
          ? Gate.GO
          : new Gate.StopRun(
              "llm(\""
                  + spec.name()
                  + "\"): the virtual user has no prompt to send: feed a prompts() feeder before"
                  + " this request (feed(prompts()...).exec(llm(\""
                  + spec.name()
                  + "\")...)) or give the request its own .prompt(...)",
              true);
    }
    if (fed.spent()) {
      return LlmAction.spentUser(userEndedByBudget.test(scenario));
    }
    // One record may carry several requests: each is counted in flight from here to its end.
    fed.workload().begin(fed.claim(), fed.phase());
    if (!Phase.isWarmup(fed.phase()) && fed.workload().holdUntilWarmedUp(resume)) {
      // Held until the warmup ends: the wait is the test's own, not a schedule lag.
      return Gate.HELD;
    }
    return Gate.GO;
  }

  @Override
  public void send(Session session) {
    send(session, null);
  }

  /**
   * Sends the prompt.
   *
   * @param session the user's session
   * @param traceFirst a trace row's schedule ({@link TraceSender}), or null for the user's own
   */
  void send(Session session, ClientWatch.First traceFirst) {
    FedPrompt fed = fed(session);
    String phase = fed == null ? "measured" : fed.phase();
    dispatcher.send(
        session,
        LlmAction.LOG,
        "request",
        () -> outgoing(session, fed, phase, traceFirst),
        (out, endMs) -> {
          if (fed != null) {
            fed.workload().ended(phase);
            if (fed.trace() != null && fed.workload().replay() != null) {
              // not sent: its session's next trace row goes all the same
              fed.workload().replay().rowEnded((int) fed.index(), System.nanoTime());
            }
          }
        });
  }

  private Outgoing outgoing(
      Session session, FedPrompt fed, String phase, ClientWatch.First traceFirst) {
    boolean own = spec.prompt() != null;
    String prompt = own ? spec.prompt().apply(session) : fed == null ? null : fed.prompt().text();
    if (prompt == null) {
      throw new IllegalArgumentException("the prompt is null");
    }
    RequestIdentity identity = own ? ownPromptIdentity(fed, phase, prompt) : identity(fed, phase);
    RequestSettings requestSettings =
        fed == null ? settings : fed.settings(settings, spec.maxTokens() != null);
    String body =
        own || fed == null
            ? WireApi.dialect(requestSettings).body(requestSettings, prompt)
            : fed.body(requestSettings);
    // Marked as sent in the order requests go out: the first sent of a group plans a miss.
    Workload.Sending sending = own || fed == null ? null : fed.planSent();
    return new Outgoing(
        identity,
        body.getBytes(StandardCharsets.UTF_8),
        fed,
        sending == null ? null : sending.sent(),
        null,
        null,
        null,
        traceFirst != null ? traceFirst : run.client().firstSend(session),
        sending == null ? null : sending.ticket());
  }

  /**
   * The identity of a request that brings its own prompt ({@code .prompt(...)}): the fed record's
   * phase and index when there is one, the digest of the text sent and its count with the run's
   * tokenizer, as a fed prompt's.
   */
  private RequestIdentity ownPromptIdentity(FedPrompt fed, String phase, String prompt) {
    return new RequestIdentity(
        spec.name(),
        phase,
        fed != null ? fed.index() : unfedIndex.getAndIncrement(),
        null,
        Prompt.digestOf(prompt),
        null,
        null,
        run.counter().count(prompt));
  }

  private RequestIdentity identity(FedPrompt fed, String phase) {
    if (fed == null) {
      return new RequestIdentity(
          spec.name(), phase, unfedIndex.getAndIncrement(), null, null, null, null, null);
    }
    Prompt prompt = fed.prompt();
    return new RequestIdentity(
        spec.name(),
        phase,
        fed.index(),
        prompt.promptId(),
        prompt.digest(),
        prompt.prefixGroup(),
        prompt.sharedPrefixTokens(),
        prompt.plannedCount().value());
  }
}
