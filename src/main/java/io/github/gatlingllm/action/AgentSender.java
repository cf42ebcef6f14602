package io.github.gatlingllm.action;

import com.fasterxml.jackson.databind.JsonNode;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.ToolCallAssembly;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.ConversationPlan;
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

  private static AgentSession agentSession(Session session) {
    return (AgentSession) session.attributes().get(AgentFeeder.SESSION).get();
  }

  @Override
  public Gate gate(Session session) {
    Gate misfed = Misfed.refusal(name, true, session);
    if (misfed != null) {
      return misfed;
    }
    String refused = history.refusal();
    if (refused != null) {
      return new Gate.StopRun(refused, true);
    }
    if (Boolean.TRUE.equals(session.attributes().get(AgentFeeder.DONE).getOrElse(() -> null))) {
      return LlmAction.spentUser(run.userEndedByBudget(session.scenario()));
    }
    if (settings.endpoint() == WireApi.COMPLETIONS) {
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
        endMs -> {
          agent.failed(endMs);
          workload.ended(agent);
        });
  }

  private Outgoing outgoing(Session session, AgentWorkload workload, AgentSession agent, long now) {
    boolean first = agent.nextTurn() == 1;
    boolean namesPrevious = history.on() && !first;
    Dialect dialect = settings.endpoint().dialect();
    JsonNode tools = workload.source().tools().functions();
    String toolChoice = workload.source().spec().toolChoice();
    String body =
        namesPrevious
            ? dialect.agentBody(
                settings,
                agent.newTurns(),
                tools,
                toolChoice,
                ConversationSender.previousId(agent.previousResponseId(), agent.nextTurn()))
            : dialect.agentBody(settings, agent.turns(), tools, toolChoice);
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    boolean prefixSentBefore = first && workload.prefixSentBefore(agent);
    AgentTurn turn =
        new AgentTurn(
            workload,
            agent,
            prefixSentBefore,
            settings.endpoint() != WireApi.CHAT,
            namesPrevious ? history : null,
            now);
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
    return new Outgoing(identity, bytes, turn, run.client().firstSend(session));
  }

  /**
   * One turn of an agent session on the wire: keeps the reply's content and assembles its tool
   * calls as they arrive, then makes the turn's record (its session, turn, tool calls and cache
   * plan) and moves the session on.
   */
  static final class AgentTurn implements RequestPart {

    private final AgentWorkload workload;
    private final AgentSession agent;
    private final int turn;
    private final int contextTokens;
    private final boolean exactContext;
    private final boolean prefixSentBefore;
    private final Integer prefixTokens;
    private final int plannedTokens;
    private final boolean tools;
    private final int taskTokens;
    private final StringBuilder reply = new StringBuilder();
    private final ToolCallAssembly calls = new ToolCallAssembly();
    private final boolean wholeCalls;
    private final ServerHistory history;
    private final long sentMs;
    private String responseId;
    private boolean ended;

    AgentTurn(
        AgentWorkload workload,
        AgentSession agent,
        boolean prefixSentBefore,
        boolean wholeCalls,
        ServerHistory history,
        long sentMs) {
      this.history = history;
      this.sentMs = sentMs;
      this.wholeCalls = wholeCalls;
      this.workload = workload;
      this.agent = agent;
      this.turn = agent.nextTurn();
      this.contextTokens = agent.contextTokens();
      this.exactContext = agent.exactContext();
      this.prefixSentBefore = prefixSentBefore;
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
    public boolean turn() {
      return true;
    }

    /** The copy the request is built from, with the session header's value (issue 32). */
    @Override
    public Session carry(Session built) {
      return built.set(LlmScalaActionBuilder.SESSION_ID, agent.sessionId());
    }

    /** The session's turn is sent now; counted in the run. */
    @Override
    public void sending(RunContext run, String scenario, String request) {
      agent.sending(sentMs);
      workload.turnSent(agent);
      run.sending(scenario, request, null, null);
    }

    @Override
    public boolean wantsText() {
      return true;
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

    /** Responses and Messages: the calls their parser completed, each whole, in order. */
    @Override
    public void onStreamEnd(EventParser parser) {
      List<Turn.ToolCall> completed = parser.toolCalls();
      if (wholeCalls) {
        for (Turn.ToolCall c : completed) {
          calls.addWhole(c.id(), c.name(), c.arguments());
        }
      }
      responseId = parser.responseId();
    }

    @Override
    public void onResponse(StreamEvent response, String body, Dialect dialect) {
      onEvent(response);
      responseId = body == null ? null : dialect.responseId(body);
    }

    @Override
    public RequestRecord complete(RequestRecord record, CachePlan.Server server, long endNanos) {
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
                      prefixSentBefore,
                      plannedTokens,
                      !workload.shard().single(),
                      record.promptTokens())
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
  }
}
