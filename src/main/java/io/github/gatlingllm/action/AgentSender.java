package io.github.gatlingllm.action;

import com.fasterxml.jackson.databind.JsonNode;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.EventParser;
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
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
final class AgentSender extends TurnSender {

  private static final Logger LOG = LoggerFactory.getLogger(AgentSender.class);

  /**
   * A sender of an action's agent turns.
   *
   * @param parts what it works with, never null
   */
  AgentSender(Parts parts) {
    super(parts, true);
  }

  private static AgentSession agentSession(Session session) {
    return (AgentSession) session.attributes().get(AgentFeeder.SESSION).get();
  }

  @Override
  public Gate gate(Session session) {
    Gate refused = refusal(session);
    if (refused != null) {
      return refused;
    }
    if (Boolean.TRUE.equals(session.attributes().get(AgentFeeder.DONE).getOrElse(() -> null))) {
      return LlmAction.spentUser(run.userEndedByBudget(session.scenario()));
    }
    // An API without tools (completions) is refused when the scenario is built: never here.
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
      goOn(session);
      return;
    }
    sendTurn(
        session,
        LOG,
        () -> outgoing(session, workload, agent, now),
        endMs -> {
          agent.failed(endMs);
          workload.ended(agent);
        });
  }

  private Outgoing outgoing(Session session, AgentWorkload workload, AgentSession agent, long now) {
    boolean first = agent.nextTurn() == 1;
    boolean namesPrevious = parts.history().on() && !first;
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
    // Marked as sent in the order requests go out: the first sent of a group plans a miss.
    PrefixLedger.Ticket prefix = first ? workload.sendPrefix(agent) : null;
    AgentTurn turn =
        new AgentTurn(
            workload,
            agent,
            prefix,
            settings.endpoint() != WireApi.CHAT,
            namesPrevious ? parts.history() : null,
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
            turn.prefixTokens(),
            (int) Math.min(Integer.MAX_VALUE, agent.plannedTokens()));
    return new Outgoing(identity, bytes, turn, run.client().firstSend(session));
  }

  /**
   * One turn of an agent session on the wire ({@link SessionTurn}): also assembles the reply's tool
   * calls as they arrive (chat's deltas) or as its parser completes them (Responses, Messages); its
   * record gets the session, turn, tool calls and cache plan; the session takes the reply.
   */
  static final class AgentTurn extends SessionTurn {

    private final AgentWorkload workload;
    private final AgentSession agent;
    private final Integer prefixTokens;
    private final boolean tools;
    private final int taskTokens;
    private final ToolCallAssembly calls = new ToolCallAssembly();
    private final boolean wholeCalls;

    AgentTurn(
        AgentWorkload workload,
        AgentSession agent,
        PrefixLedger.Ticket shared,
        boolean wholeCalls,
        ServerHistory history,
        long sentMs) {
      super(
          agent.nextTurn(),
          agent.contextTokens(),
          agent.exactContext(),
          shared,
          (int) Math.min(Integer.MAX_VALUE, agent.plannedTokens()),
          history,
          sentMs);
      this.wholeCalls = wholeCalls;
      this.workload = workload;
      this.agent = agent;
      int prefix =
          (agent.group() == null
                  ? 0
                  : workload.source().system(agent.group()).plannedCount().value())
              + workload.source().tools().tokens();
      this.prefixTokens = prefix == 0 ? null : prefix;
      this.tools = workload.source().tools().tokens() > 0;
      this.taskTokens = agent.taskTokens();
    }

    /** The session's turn is sent now; counted in the run. */
    @Override
    public void sending(RunContext run, String scenario, String request) {
      agent.sending(sentMs);
      workload.turnSent(agent);
      run.sending(scenario, request, null, null);
    }

    @Override
    public void onEvent(StreamEvent event) {
      super.onEvent(event);
      if (event.toolCalls() != null) {
        calls.add(event.toolCalls());
      }
    }

    /** Responses and Messages: the calls their parser completed, each whole, in order. */
    @Override
    public void onStreamEnd(EventParser parser) {
      if (wholeCalls) {
        for (Turn.ToolCall c : parser.toolCalls()) {
          calls.addWhole(c.id(), c.name(), c.arguments());
        }
      }
      super.onStreamEnd(parser);
    }

    /** The group's system prompt and the tools, or with tools the prefix the server reused. */
    @Override
    Integer firstPrefix(CachePlan.Server server, RequestRecord record) {
      return tools
          ? Integer.valueOf(
              ConversationPlan.toolsPrefix(server, prefixTokens, taskTokens, record.promptTokens()))
          : prefixTokens;
    }

    @Override
    public RequestRecord complete(RequestRecord record, CachePlan.Server server, long endNanos) {
      return record
          .withCache(workload.name(), plan(server, !workload.shard().single(), record))
          .withConversationTurn(new ConversationTurn(agent.index(), turn, contextTokens(), null))
          .withSession(agent.sessionId(), calls.calls().size());
    }

    @Override
    void answered(RequestRecord record, String text, String id) {
      agent.answered(record, text, calls, id);
      if (agent.over()) {
        workload.ended(agent);
      }
    }

    @Override
    void abandoned(long nowMs) {
      agent.failed(nowMs);
      workload.ended(agent);
    }

    @Override
    String sessionId() {
      return agent.sessionId();
    }

    /** The group's system prompt and tools, the identity's shared prefix. */
    Integer prefixTokens() {
      return prefixTokens;
    }
  }
}
