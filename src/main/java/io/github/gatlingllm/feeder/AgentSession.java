package io.github.gatlingllm.feeder;

import io.github.gatlingllm.api.ToolCall;
import io.github.gatlingllm.api.ToolCallAssembly;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.AgentSource;
import io.github.gatlingllm.prompt.AgentSpec;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.session.SessionEnd;
import io.github.gatlingllm.session.SessionResult;
import io.github.gatlingllm.session.SessionTally;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Not API. One agent session as a virtual user holds it (issue 32): its plan ({@link
 * AgentSource.Script}), the replies received so far with their tool calls exactly as received, and
 * how it ended. The session's loop: the model's reply; when it calls tools, each call is answered
 * by a {@code tool} message whose content is the seeded result of {@code toolResultTokens} tokens
 * ({@link AgentSource#toolResult}), sent after the loop's tool latency; the session ends when a
 * reply calls no tool ({@link SessionEnd#COMPLETED}), when a reply calls tools after {@code
 * toolCalls} loops ({@link SessionEnd#LOOP_LIMIT}), at a failed turn ({@link SessionEnd#ERROR}) or
 * before a turn that would exceed the context window ({@link SessionEnd#CONTEXT_LIMIT}).
 *
 * <p>Memory: the session keeps the replies' text and tool calls (what no one else can give back)
 * and a few counters; the system prompt, task and tool results are the source's, made again when a
 * turn is sent, so an open session holds little beyond the history its next turn must send.
 *
 * <p>Turns run one after another, so one virtual user uses it at a time; not thread-safe beyond the
 * ordering an actor mailbox gives.
 */
public final class AgentSession {

  /**
   * An answered turn: its text and calls as received, and the seeded result of each call, made once
   * when the reply is kept (every later turn sends them again: history text, not regenerated a
   * turn).
   */
  private record Reply(String content, List<ToolCall> calls, List<Prompt> results) {}

  private final AgentSource source;
  private final AgentSource.Script script;
  private final List<Reply> replies = new ArrayList<>();
  private final List<String> sentDigests = new ArrayList<>();
  private final SessionTally tally = new SessionTally();
  private int answered;
  private int loops;
  private Integer lastPromptTokens;
  private Integer lastCompletionTokens;
  private boolean lastExact;
  private SessionEnd end;
  private String previousResponseId;
  private SessionResult result;

  /**
   * A session that has sent nothing yet.
   *
   * @param source the sessions' source, never null
   * @param script this session's plan ({@link AgentSource#script}), never null
   * @throws NullPointerException if an argument is null
   */
  public AgentSession(AgentSource source, AgentSource.Script script) {
    this.source = Objects.requireNonNull(source, "source");
    this.script = Objects.requireNonNull(script, "script");
  }

  /**
   * The session's index in its phase.
   *
   * @return from 0
   */
  public long index() {
    return script.index();
  }

  /**
   * The phase.
   *
   * @return e.g. {@code measured}
   */
  public String phase() {
    return source.phase();
  }

  /**
   * The session's id: the value of its affinity header and of its records' {@code session_id}:
   * {@code {case_id}-{phase}-{index}}, unique within a run's workload.
   *
   * @return never null
   */
  public String sessionId() {
    return source.caseId() + "-" + phase() + "-" + index();
  }

  /**
   * The next turn to send.
   *
   * @return from 1
   */
  public int nextTurn() {
    return answered + 1;
  }

  /**
   * The loops done: replies with tool calls answered by tool results.
   *
   * @return at least 0
   */
  public int loops() {
    return loops;
  }

  /**
   * The system prompt's group.
   *
   * @return the group, or null without a system prompt
   */
  public Integer group() {
    return script.group();
  }

  /**
   * Whether the session has ended.
   *
   * @return true once ended
   */
  public boolean over() {
    return end != null;
  }

  /**
   * How it ended.
   *
   * @return the end, or null while it goes on
   */
  public SessionEnd end() {
    return end;
  }

  /**
   * The next turn's history in no API's shape, which each API's dialect writes in its own: the
   * system prompt (when the group has one), the task, then for each answered turn its reply's text
   * (when not empty, or when it made no call), its tool calls (id, name and arguments as received;
   * a call the server sent without an id is given {@code call_{turn}_{i}}, so that its result can
   * answer it) and one seeded result a call.
   *
   * @return a new list, never empty
   */
  public List<Turn> turns() {
    List<Turn> turns = new ArrayList<>();
    if (script.system() != null) {
      turns.add(new Turn.Message("system", script.system().text()));
    }
    turns.add(new Turn.Message("user", script.task().text()));
    for (int t = 0; t < replies.size(); t++) {
      Reply reply = replies.get(t);
      if (!reply.content().isEmpty() || reply.calls().isEmpty()) {
        turns.add(new Turn.Message("assistant", reply.content()));
      }
      for (int i = 0; i < reply.calls().size(); i++) {
        ToolCall call = reply.calls().get(i);
        turns.add(new Turn.ToolCall(callId(call, t + 1, i), call.name(), call.arguments()));
      }
      for (int i = 0; i < reply.calls().size(); i++) {
        turns.add(
            new Turn.ToolResult(
                callId(reply.calls().get(i), t + 1, i), reply.results().get(i).text()));
      }
    }
    return turns;
  }

  /**
   * The next turn's new history when the server keeps the rest (the Responses API's {@code
   * previous_response_id}): on turn 1 the whole {@link #turns()}, later only the previous reply's
   * tool results (its text and calls are the server's stored reply).
   *
   * @return a new list, never empty
   */
  public List<Turn> newTurns() {
    if (answered == 0) {
      return turns();
    }
    Reply last = replies.get(replies.size() - 1);
    List<Turn> results = new ArrayList<>(last.calls().size());
    for (int i = 0; i < last.calls().size(); i++) {
      results.add(
          new Turn.ToolResult(
              callId(last.calls().get(i), answered, i), last.results().get(i).text()));
    }
    return results;
  }

  /**
   * The id the server gave the last reply, which the next turn names when the server keeps the
   * history.
   *
   * @return the id, or null before the first reply or when the reply gave none
   */
  public String previousResponseId() {
    return previousResponseId;
  }

  private static String callId(ToolCall call, int turn, int i) {
    return call.id() != null ? call.id() : "call_" + turn + "_" + i;
  }

  /**
   * The new texts the next turn sends of its own: the task on turn 1, else the previous reply's
   * tool results.
   *
   * @return prompts, in the order sent
   */
  public List<Prompt> newTexts() {
    if (answered == 0) {
      return List.of(script.task());
    }
    return replies.get(answered - 1).results();
  }

  /**
   * The tokens before the next turn's new messages a prefix cache can hold: on turn 1 the system
   * prompt's and the tools' planned tokens (what every session of the group shares); later {@code P
   * + C - 1} of the previous turn (the tool results are new tokens).
   *
   * @return tokens, at least 0
   */
  public int contextTokens() {
    if (answered == 0) {
      return (script.system() == null ? 0 : script.system().plannedCount().value())
          + source.tools().tokens();
    }
    return Math.max(0, lastPromptTokens + lastCompletionTokens - 1);
  }

  /**
   * Whether {@link #contextTokens()} is the server's count.
   *
   * @return true from turn 2 when the server reported the previous turn's prompt and completion
   *     tokens
   */
  public boolean exactContext() {
    return answered > 0 && lastExact;
  }

  /**
   * The task's planned tokens (the user message of turn 1), in the run's counter.
   *
   * @return tokens, at least 0
   */
  public int taskTokens() {
    return script.task().plannedCount().value();
  }

  /**
   * The next turn's planned prompt tokens, without the template around its new messages ({@link
   * AgentSpec#firstTurnTokens}, {@link AgentSpec#laterTurnTokens}).
   *
   * @return tokens
   */
  public long plannedTokens() {
    AgentSpec spec = source.spec();
    if (answered == 0) {
      return (script.system() == null ? 0 : script.system().plannedCount().value())
          + source.tools().tokens()
          + (long) script.task().plannedCount().value();
    }
    return spec.laterTurnTokens(
        lastPromptTokens, lastCompletionTokens, replies.get(answered - 1).calls().size());
  }

  /**
   * Whether the next turn would exceed the context window ({@link AgentSpec#exceeds}).
   *
   * @param maxTokens the request's {@code max_tokens}
   * @return true when the turn must not be sent
   */
  public boolean exceeds(int maxTokens) {
    return source.spec().exceeds(plannedTokens(), maxTokens);
  }

  /**
   * A turn is being sent: its new texts join the session's digest.
   *
   * @param nowMs epoch milliseconds (Gatling's clock)
   */
  public void sending(long nowMs) {
    tally.sending(nowMs);
    for (Prompt p : newTexts()) {
      sentDigests.add(p.digest());
    }
  }

  /**
   * The turn sent ended. With a reply and tool calls the session goes on (a loop more), unless it
   * ran its {@code toolCalls} loops; with a reply and no call it completes; without a reply it ends
   * as an error.
   *
   * @param record the turn's record, never null
   * @param content the reply's content as received (empty when none), or null when no reply was
   *     kept
   * @param calls the reply's tool calls, assembled from its deltas, never null
   * @return true when the session goes on: the next turn is due after {@link #toolLatencyMs()}
   */
  public boolean answered(RequestRecord record, String content, ToolCallAssembly calls) {
    return answered(record, content, calls, null);
  }

  /**
   * The turn sent ended, with the reply's id as the server named it ({@link
   * #previousResponseId()}).
   *
   * @param record the turn's record, never null
   * @param content the reply's content as received, or null when no reply was kept
   * @param calls the reply's tool calls, never null
   * @param responseId the reply's id, or null
   * @return true when the session goes on
   */
  public boolean answered(
      RequestRecord record, String content, ToolCallAssembly calls, String responseId) {
    Objects.requireNonNull(record, "record");
    previousResponseId = responseId;
    Objects.requireNonNull(calls, "calls");
    List<ToolCall> made = calls.calls();
    long planned = plannedTokens();
    tally.turn(record, made.size(), calls.malformed());
    answered++;
    long endMs = (long) Math.ceil(record.endMs());
    if (record.status() != RequestStatus.OK || content == null) {
      finish(SessionEnd.ERROR, endMs);
      return false;
    }
    if (made.isEmpty()) {
      finish(SessionEnd.COMPLETED, endMs);
      return false;
    }
    if (loops >= source.spec().toolCalls()) {
      finish(SessionEnd.LOOP_LIMIT, endMs);
      return false;
    }
    List<Prompt> results = new ArrayList<>(made.size());
    for (int i = 0; i < made.size(); i++) {
      results.add(source.toolResult(index(), answered, i));
    }
    replies.add(new Reply(content, made, List.copyOf(results)));
    loops++;
    lastPromptTokens =
        record.promptTokens() != null
            ? record.promptTokens()
            : (int) Math.min(Integer.MAX_VALUE, planned);
    lastCompletionTokens = record.completionTokens() == null ? 0 : record.completionTokens();
    lastExact = record.promptTokensExact() && record.completionTokensExact();
    return true;
  }

  /**
   * The pause before the next turn, standing for the tools' run.
   *
   * @return milliseconds, at least 0
   */
  public long toolLatencyMs() {
    return loops == 0 ? 0 : source.toolLatencyMs(index(), loops);
  }

  /**
   * The turn being sent ended without a record (it could not be sent): the session ends as an
   * error.
   *
   * @param nowMs epoch milliseconds
   */
  public void failed(long nowMs) {
    finish(SessionEnd.ERROR, nowMs);
  }

  /**
   * The next turn would exceed the context window: the session ends without sending it.
   *
   * @param nowMs epoch milliseconds
   */
  public void endByContextLimit(long nowMs) {
    finish(SessionEnd.CONTEXT_LIMIT, nowMs);
  }

  /**
   * The session's figures, once ended.
   *
   * @return the result, or null while it goes on
   */
  public SessionResult result() {
    return result;
  }

  /**
   * The digests of the texts it sent of its own (task, tool results), in order.
   *
   * @return an unmodifiable copy
   */
  public List<String> sentDigests() {
    return List.copyOf(sentDigests);
  }

  private void finish(SessionEnd how, long nowMs) {
    if (end != null) {
      return;
    }
    end = how;
    result = tally.finish(how, nowMs);
    if (tally.requests() > 0) {
      source.ended(index(), sentDigests);
    }
  }

  @Override
  public String toString() {
    return "agent session "
        + phase()
        + " "
        + index()
        + " (turn "
        + nextTurn()
        + ", loop "
        + loops
        + ")";
  }
}
