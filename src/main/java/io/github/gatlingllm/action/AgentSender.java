package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Endpoint;
import io.github.gatlingllm.api.RequestBodies;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.ToolCallAssembly;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.ConversationPlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.AgentFeeder;
import io.github.gatlingllm.feeder.AgentSession;
import io.github.gatlingllm.feeder.AgentWorkload;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * Not API. Sends a fed agent session's next turn (issue 32): the system prompt, the task, every
 * earlier reply with its {@code tool_calls} exactly as received and one {@code tool} message a
 * call, with the workload's {@code tools} and {@code tool_choice} (on the Responses and Messages
 * APIs the same history as that API's items or blocks, through its dialect, and the calls read by
 * its parser); or ends the session without a request when the turn would exceed the context window,
 * or ends the virtual user when the workload's budget is spent. A measured session's first turn
 * waits until every warmup session has ended. The tool latency between turns is the chain's pause
 * ({@code LlmDsl.agentSession}), on Gatling's scheduler.
 */
final class AgentSender implements Sender {

  private static final Logger LOG = LoggerFactory.getLogger(AgentSender.class);

  private final String name;
  private final RunContext run;
  private final RequestSettings settings;
  private final Dispatcher dispatcher;
  private final Action next;
  private final AtomicBoolean contextLimitSaid = new AtomicBoolean();

  private final ServerHistory history;

  AgentSender(
      String name, RunContext run, RequestSettings settings, Dispatcher dispatcher, Action next) {
    this(name, run, settings, dispatcher, next, ServerHistory.OFF);
  }

  /**
   * A sender of an action's agent turns.
   *
   * @param history whether later turns send only their tool results and {@code
   *     previous_response_id}, and whether the server refused it
   */
  AgentSender(
      String name,
      RunContext run,
      RequestSettings settings,
      Dispatcher dispatcher,
      Action next,
      ServerHistory history) {
    this.history = history;
    this.name = name;
    this.run = run;
    this.settings = settings;
    this.dispatcher = dispatcher;
    this.next = next;
  }

  /** Whether the user was fed an agents() workload. */
  static boolean fed(Session session) {
    return session.attributes().get(AgentFeeder.WORKLOAD).isDefined();
  }

  /** Whether the user's turn is inside {@code agentSession(...)}'s loop (its counter is set). */
  static boolean inLoop(Session session) {
    return session.attributes().contains(AgentFeeder.LOOP_COUNTER);
  }

  private static AgentSession agentSession(Session session) {
    return (AgentSession) session.attributes().get(AgentFeeder.SESSION).get();
  }

  @Override
  public Gate gate(Session session) {
    String refused = history.refusal();
    if (refused != null) {
      return new Gate.StopRun(refused, true);
    }
    if (Boolean.TRUE.equals(session.attributes().get(AgentFeeder.DONE).getOrElse(() -> null))) {
      return LlmAction.spentUser(run.userEndedByBudget(session.scenario()));
    }
    if (settings.endpoint() == Endpoint.COMPLETIONS) {
      return new Gate.StopRun(
          "agentSession(llm(\""
              + name
              + "\")...): an agent session needs an API with tools (chat, responses or messages),"
              + " got "
              + settings.endpoint()
              + ": use llm(\""
              + name
              + "\").chatCompletion()",
          true);
    }
    Option<Object> fed = session.attributes().get(AgentFeeder.SESSION);
    AgentSession agent = (AgentSession) fed.get();
    if (agent.over()) {
      return new Gate.StopRun(
          "agentSession(llm(\""
              + name
              + "\")...): the fed agent session has ended already (an agentSession(...) before"
              + " this one ran it): feed a session before each agentSession(...)"
              + " (feed(agents()...).exec(agentSession(llm(\""
              + name
              + "\")...)))",
          true);
    }
    AgentWorkload workload = (AgentWorkload) session.attributes().get(AgentFeeder.WORKLOAD).get();
    run.agentsStarted(workload);
    if (agent.nextTurn() == 1
        && !Phase.isWarmup(agent.phase())
        && workload.holdUntilWarmedUp(() -> session.eventLoop().execute(() -> send(session)))) {
      return Gate.HELD;
    }
    return Gate.GO;
  }

  @Override
  public void send(Session session) {
    AgentWorkload workload = (AgentWorkload) session.attributes().get(AgentFeeder.WORKLOAD).get();
    AgentSession agent = agentSession(session);
    long now = run.gatling().nowMillis();
    if (agent.exceeds(settings.maxTokens())) {
      if (contextLimitSaid.compareAndSet(false, true)) {
        LOG.warn(
            "agents {}: {} ends before turn {}: its prompt of about {} tokens and max_tokens {}"
                + " would exceed llm.maxContextTokens={}; the turn is not sent (each such end is"
                + " counted in llm-run.json's sessions, ends.context_limit; this is said once)",
            workload.name(),
            agent,
            agent.nextTurn(),
            agent.plannedTokens(),
            settings.maxTokens(),
            workload.source().spec().maxContextTokens());
      }
      agent.endByContextLimit(now);
      workload.ended(agent);
      next.$bang(session);
      return;
    }
    dispatcher.send(
        session,
        LOG,
        "turn",
        () -> outgoing(session, workload, agent, now),
        (out, endMs) -> {
          if (out != null) {
            out.turn().failed(endMs);
          } else {
            agent.failed(endMs);
            workload.ended(agent);
          }
        });
  }

  private Outgoing outgoing(Session session, AgentWorkload workload, AgentSession agent, long now) {
    boolean first = agent.nextTurn() == 1;
    boolean namesPrevious = history.on() && !first;
    String body =
        settings.endpoint() == Endpoint.CHAT
            ? RequestBodies.agentBody(
                settings,
                agent.messages(),
                workload.source().tools().functions(),
                workload.source().spec().toolChoice())
            : namesPrevious
                ? WireApi.dialect(settings)
                    .agentBody(
                        settings,
                        agent.newTurns(),
                        workload.source().tools().functions(),
                        workload.source().spec().toolChoice(),
                        ConversationSender.previousId(agent.previousResponseId(), agent.nextTurn()))
                : WireApi.dialect(settings)
                    .agentBody(
                        settings,
                        agent.turns(),
                        workload.source().tools().functions(),
                        workload.source().spec().toolChoice());
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    // Marked as sent in the order requests go out: the first sent of a group plans a miss.
    PrefixLedger.Ticket prefix = first ? workload.sendPrefix(agent) : null;
    AgentTurn turn =
        new AgentTurn(
            workload,
            agent,
            prefix,
            settings.endpoint() != Endpoint.CHAT,
            namesPrevious ? history : null);
    List<Prompt> texts = agent.newTexts();
    Prompt lead = texts.get(0);
    RequestIdentity identity =
        new RequestIdentity(
            name,
            agent.phase(),
            agent.index(),
            lead.promptId(),
            lead.digest(),
            agent.group(),
            turn.prefixTokens,
            (int) Math.min(Integer.MAX_VALUE, agent.plannedTokens()));
    return new Outgoing(
        identity,
        bytes,
        null,
        null,
        turn,
        null,
        () -> {
          agent.sending(now);
          workload.turnSent(agent);
        },
        run.client().firstSend(session),
        prefix);
  }

  /**
   * One turn of an agent session on the wire: keeps the reply's content and assembles its tool
   * calls as they arrive, then makes the turn's record (its session, turn, tool calls and cache
   * plan) and moves the session on.
   */
  static final class AgentTurn implements WireTurn {

    private final AgentWorkload workload;
    private final AgentSession agent;
    private final int turn;
    private final int contextTokens;
    private final boolean exactContext;
    private final PrefixLedger.Ticket shared;
    private final Integer prefixTokens;
    private final int plannedTokens;
    private final boolean tools;
    private final int taskTokens;
    private final StringBuilder reply = new StringBuilder();
    private final ToolCallAssembly calls = new ToolCallAssembly();
    private final boolean wholeCalls;
    private final ServerHistory history;
    private String responseId;
    private boolean ended;

    AgentTurn(
        AgentWorkload workload,
        AgentSession agent,
        PrefixLedger.Ticket shared,
        boolean wholeCalls,
        ServerHistory history) {
      this.history = history;
      this.wholeCalls = wholeCalls;
      this.workload = workload;
      this.agent = agent;
      this.turn = agent.nextTurn();
      this.contextTokens = agent.contextTokens();
      this.exactContext = agent.exactContext();
      this.shared = shared;
      int prefix =
          (agent.group() == null
                  ? 0
                  : workload.source().system(agent.group()).plannedCount().value())
              + workload.source().tools().tokens();
      this.prefixTokens = prefix == 0 ? null : prefix;
      this.tools = workload.source().tools().tokens() > 0;
      this.taskTokens = agent.taskTokens();
      this.plannedTokens = (int) Math.min(Integer.MAX_VALUE, agent.plannedTokens());
    }

    @Override
    public void onEvent(StreamEvent event) {
      if (event.content() != null) {
        reply.append(event.content());
      }
      if (event.toolCalls() != null) {
        calls.add(event.toolCalls());
      }
    }

    @Override
    public void onResponse(StreamEvent response) {
      onEvent(response);
    }

    /** Responses and Messages: the calls their parser completed, each whole, in order. */
    @Override
    public void onToolCalls(List<Turn.ToolCall> completed) {
      if (wholeCalls) {
        for (Turn.ToolCall c : completed) {
          calls.addWhole(c.id(), c.name(), c.arguments());
        }
      }
    }

    @Override
    public void onResponseId(String id) {
      responseId = id;
    }

    @Override
    public RequestRecord complete(RequestRecord record, CachePlan.Server server) {
      CachePlan plan =
          server == null
              ? null
              : turn == 1
                  ? ConversationPlan.first(
                      server,
                      tools
                          ? Integer.valueOf(
                              ConversationPlan.toolsPrefix(
                                  server, prefixTokens, taskTokens, record.promptTokens()))
                          : prefixTokens,
                      shared != null && shared.foundLead() > 0,
                      shared == null || shared.settled(),
                      plannedTokens,
                      !workload.shard().single(),
                      record.promptTokens(),
                      record.cachedTokens())
                  : ConversationPlan.later(
                      server, contextTokens, exactContext, record.promptTokens());
      return record
          .withCache(workload.name(), plan)
          .withConversationTurn(new ConversationTurn(agent.index(), turn, contextTokens, null))
          .withSession(agent.sessionId(), calls.calls().size());
    }

    @Override
    public void ended(RequestRecord record) {
      if (ended) {
        return;
      }
      ended = true;
      if (history != null) {
        history.ended(record);
      }
      boolean ok = record.status() == RequestStatus.OK;
      agent.answered(record, ok ? reply.toString() : null, calls, responseId);
      if (agent.over()) {
        workload.ended(agent);
      }
    }

    @Override
    public void failed(long nowMs) {
      if (ended) {
        return;
      }
      ended = true;
      agent.failed(nowMs);
      workload.ended(agent);
    }

    @Override
    public String sessionId() {
      return agent.sessionId();
    }
  }
}
