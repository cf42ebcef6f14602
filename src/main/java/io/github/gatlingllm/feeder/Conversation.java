package io.github.gatlingllm.feeder;

import io.github.gatlingllm.api.ChatMessage;
import io.github.gatlingllm.cache.ConversationPlan;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.prompt.Prompt;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Not API. One conversation as a virtual user holds it: its plan ({@link
 * ConversationSource.Script}), the messages sent and the replies received so far, and how it ended.
 * Turns run one after another (each is sent when the previous one has ended), so one virtual user
 * uses it at a time; its methods are called from that user's event loop, and Gatling hands the
 * session between threads with the ordering an actor mailbox gives.
 */
public final class Conversation {

  /** How a conversation ended. */
  public enum End {
    /** Every planned turn was answered. */
    COMPLETED("completed"),
    /** The next turn would not have fit {@code llm.maxContextTokens}: it was not sent. */
    CONTEXT_LIMIT("context_limit"),
    /** A turn failed: without its reply the conversation cannot go on. */
    ERROR("error");

    private final String wireName;

    End(String wireName) {
      this.wireName = wireName;
    }

    /**
     * The name in the run record.
     *
     * @return e.g. {@code context_limit}
     */
    public String wireName() {
      return wireName;
    }
  }

  private final ConversationWorkload workload;
  private final ConversationSource source;
  private final ConversationSource.Script script;
  private final List<ChatMessage> messages = new ArrayList<>();
  private final List<String> userDigests = new ArrayList<>();
  private int answered;
  private Integer lastPromptTokens;
  private Integer lastCompletionTokens;
  private boolean lastExact;
  private long startMs = -1;
  private long endMs = -1;
  private End end;
  private String previousResponseId;

  Conversation(
      ConversationWorkload workload, ConversationSource source, ConversationSource.Script script) {
    this.workload = Objects.requireNonNull(workload, "workload");
    this.source = Objects.requireNonNull(source, "source");
    this.script = Objects.requireNonNull(script, "script");
    if (script.system() != null) {
      messages.add(new ChatMessage("system", script.system().text()));
    }
  }

  /**
   * The workload.
   *
   * @return never null
   */
  public ConversationWorkload workload() {
    return workload;
  }

  /**
   * The conversation's index within its phase.
   *
   * @return from 0
   */
  public long index() {
    return script.index();
  }

  /**
   * The phase.
   *
   * @return {@code warmup} or {@code measured}
   */
  public String phase() {
    return source.phase();
  }

  /**
   * The planned turns.
   *
   * @return at least 1
   */
  public int turns() {
    return script.turns();
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
   * The system prompt's group.
   *
   * @return the group, or null without a system prompt
   */
  public Integer group() {
    return script.group();
  }

  /**
   * The system prompt.
   *
   * @return the prompt, or null
   */
  public Prompt system() {
    return script.system();
  }

  /**
   * Whether the conversation has ended.
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
  public End end() {
    return end;
  }

  /**
   * The next turn's user message.
   *
   * @return the message, never null
   */
  public Prompt nextUserMessage() {
    return source.userMessage(index(), nextTurn());
  }

  /**
   * The messages of the next turn: the system prompt, every earlier user message and reply as
   * received, then {@code user}.
   *
   * @param user the new user message, never null
   * @return a new list
   */
  public List<ChatMessage> messagesWith(Prompt user) {
    List<ChatMessage> all = new ArrayList<>(messages.size() + 1);
    all.addAll(messages);
    all.add(new ChatMessage("user", user.text()));
    return all;
  }

  /**
   * The tokens before the next turn's user message a prefix cache can hold: on turn 1 the system
   * prompt's planned tokens (0 without one); later {@code P + C - 1} of the previous turn (see
   * {@link ConversationPlan}).
   *
   * @return tokens, at least 0
   */
  public int contextTokens() {
    if (answered == 0) {
      return script.system() == null ? 0 : script.system().plannedCount().value();
    }
    return Math.max(0, lastPromptTokens + lastCompletionTokens - 1);
  }

  /**
   * Whether {@link #contextTokens()} is the server's count (turn 2 on, when the server reported the
   * previous turn's prompt and completion tokens).
   *
   * @return true when it is
   */
  public boolean exactContext() {
    return answered > 0 && lastExact;
  }

  /**
   * The next turn's planned prompt tokens, without the template around the new message: on turn 1
   * the system prompt's and the user message's planned tokens; later the previous turn's prompt and
   * completion tokens plus the new message's planned tokens.
   *
   * @param user the new user message, never null
   * @return tokens
   */
  public int plannedTokens(Prompt user) {
    int message = user.plannedCount().value();
    if (answered == 0) {
      return contextTokens() + message;
    }
    return lastPromptTokens + lastCompletionTokens + message;
  }

  /**
   * Whether the next turn would exceed a context window: its {@link #plannedTokens} plus {@link
   * ConversationPlan#TURN_TEMPLATE_TOKENS} plus {@code maxTokens} above {@code maxContextTokens}
   * (vLLM refuses a request whose prompt and {@code max_tokens} exceed the model's length).
   *
   * @param user the new user message
   * @param maxTokens the request's {@code max_tokens}
   * @param maxContextTokens the window, or null for none
   * @return true when the turn must not be sent
   */
  public boolean exceeds(Prompt user, int maxTokens, Integer maxContextTokens) {
    return maxContextTokens != null
        && (long) plannedTokens(user) + ConversationPlan.TURN_TEMPLATE_TOKENS + maxTokens
            > maxContextTokens;
  }

  /**
   * A turn is being sent.
   *
   * @param nowMs epoch milliseconds
   */
  public void sending(long nowMs) {
    if (startMs < 0) {
      startMs = nowMs;
    }
  }

  /**
   * The turn sent ended: with a reply the conversation goes on (or completes at its last turn),
   * without one it ends as an error.
   *
   * @param user the user message the turn sent, never null
   * @param record the turn's record, never null
   * @param reply the reply text as received, or null when none was kept
   */
  public void answered(Prompt user, RequestRecord record, String reply) {
    answered(user, record, reply, null);
  }

  /**
   * The turn sent ended, with the reply's id as the server named it.
   *
   * @param user the user message the turn sent, never null
   * @param record the turn's record, never null
   * @param reply the reply text as received, or null when none was kept
   * @param responseId the reply's id ({@link #previousResponseId()} of the next turn), or null
   */
  public void answered(Prompt user, RequestRecord record, String reply, String responseId) {
    previousResponseId = responseId;
    userDigests.add(user.digest());
    answered++;
    boolean ok = record.status() == RequestStatus.OK && reply != null;
    if (ok) {
      messages.add(new ChatMessage("user", user.text()));
      messages.add(new ChatMessage("assistant", reply));
      int completion = record.completionTokens() == null ? 0 : record.completionTokens();
      lastPromptTokens =
          record.promptTokens() != null ? record.promptTokens() : plannedTokens(user);
      lastCompletionTokens = completion;
      lastExact = record.promptTokensExact() && record.completionTokensExact();
    }
    long end = (long) Math.ceil(record.endMs());
    if (!ok) {
      finish(End.ERROR, end);
    } else if (answered >= script.turns()) {
      finish(End.COMPLETED, end);
    }
  }

  /**
   * The turn being sent ended without a record (it could not be sent, or its record could not be
   * made): the conversation ends as an error; its user message counts as not sent.
   *
   * @param nowMs epoch milliseconds
   */
  public void failed(long nowMs) {
    finish(End.ERROR, nowMs);
  }

  /**
   * The next turn would exceed the context window: the conversation ends without sending it.
   *
   * @param nowMs epoch milliseconds
   */
  public void endByContextLimit(long nowMs) {
    finish(End.CONTEXT_LIMIT, nowMs);
  }

  /**
   * The id the server gave the last reply, which a later turn names when the server keeps the
   * history (the Responses API's {@code previous_response_id}).
   *
   * @return the id, or null before the first reply or when the reply gave none
   */
  public String previousResponseId() {
    return previousResponseId;
  }

  /**
   * The think time after the last turn answered, before the next.
   *
   * @return milliseconds, at least 0
   */
  public long thinkMs() {
    return answered == 0 ? 0 : source.thinkMs(index(), answered);
  }

  /**
   * The turns sent so far.
   *
   * @return the count
   */
  public int turnsSent() {
    return answered;
  }

  /**
   * The digests of the user messages sent, in turn order.
   *
   * @return an unmodifiable copy
   */
  public List<String> userDigests() {
    return List.copyOf(userDigests);
  }

  /**
   * From the first turn's start to the last turn's end, or to the end by the context limit.
   *
   * @return milliseconds, or -1 when no turn was sent
   */
  public long durationMs() {
    return startMs < 0 || endMs < 0 ? -1 : Math.max(0, endMs - startMs);
  }

  private void finish(End how, long nowMs) {
    if (end != null) {
      return;
    }
    end = how;
    endMs = nowMs;
    workload.ended(this);
  }

  @Override
  public String toString() {
    return "conversation "
        + phase()
        + " "
        + index()
        + " (turn "
        + nextTurn()
        + " of "
        + turns()
        + ")";
  }
}
