package io.github.gatlingllm.prompt;

import io.github.gatlingllm.token.TokenCounter;
import java.util.Objects;

/**
 * The agent sessions of one case phase, generated on demand (issue 32): each session's group system
 * prompt, the shared tools catalog, its user task, its tool results and the tool latency before
 * each loop's results. A pure function of (seed, case id, phase, session index, loop, call,
 * tokenizer), built from the reference generator's pieces as {@link ConversationSource}'s are (a
 * nonce in brackets and filler words):
 *
 * <ul>
 *   <li>the task of session {@code s}: the nonce of {@code
 *       "{seed}:{case_id}:{phase}:agent:{s}:task"} and filler up to {@code taskTokens}, id {@code
 *       a{s}-task-{nonce}};
 *   <li>the result of call {@code c} (from 0, in the reply's order) of loop {@code l} (from 1): the
 *       nonce of {@code "...:agent:{s}:loop:{l}:tool:{c}"} and filler up to {@code
 *       toolResultTokens}, id {@code a{s}-l{l}-c{c}-{nonce}}; the same whatever the tool and its
 *       arguments, so a session's results do not depend on the model's replies;
 *   <li>the system prompt of group {@code g} (when {@code systemTokens > 0}): the nonce of {@code
 *       "...:agent-system:{g}"} and filler up to {@code systemTokens}, id {@code as{g}-{nonce}};
 *   <li>the tools: {@link ToolCatalog} of (seed, case id), the same in every phase;
 *   <li>draws (group, tool latency): the first 8 bytes of {@code
 *       sha256("{seed}:{case_id}:{phase}:agent:{s}:" + what)}, unsigned, modulo the range, {@code
 *       what} being {@code group} or {@code latency:{l}}.
 * </ul>
 *
 * <p>Digests: a session's digest is the first 16 hex digits of the SHA-256 of the digests of what
 * it sent of its own (the task, then each tool result in order) joined by newlines; the phase
 * digest is that of the ended sessions' digests in index order, as for conversations. Replies are
 * the server's and are in no digest.
 *
 * <p>Thread-safe.
 */
public final class AgentSource extends SessionSource {

  /**
   * One session's plan.
   *
   * @param index the session's index in its phase, from 0
   * @param group the system prompt's group, or null without a system prompt
   * @param system the group's system prompt, or null
   * @param task the user task, never null
   */
  public record Script(long index, Integer group, Prompt system, Prompt task) {}

  private final AgentSpec spec;
  private final ToolCatalog tools;

  /**
   * The sessions of one phase.
   *
   * @param spec what a session is made of, never null
   * @param counter counts tokens for planning, never null
   * @param seed any integer; the same seed gives the same sessions
   * @param caseId the case, never null
   * @param phase the phase, e.g. {@code measured} or {@code warmup}, never null
   * @throws NullPointerException if an argument is null
   */
  public AgentSource(AgentSpec spec, TokenCounter counter, long seed, String caseId, String phase) {
    this(
        spec,
        new ToolCatalog(counter, seed, caseId, spec.tools(), spec.toolDescriptionTokens()),
        counter,
        seed,
        caseId,
        phase);
  }

  private AgentSource(
      AgentSpec spec,
      ToolCatalog tools,
      TokenCounter counter,
      long seed,
      String caseId,
      String phase) {
    // extend() only: the size given here is never used; at least MIN_CONTROLLED_TOKENS, so no
    // warning.
    super(
        new PromptSource(
            PromptSpec.unique(), counter, seed, caseId, phase, PromptSource.MIN_CONTROLLED_TOKENS),
        "agent");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.tools = tools;
  }

  /**
   * The same case in another phase, with its own nonces, system prompts and digests, and the same
   * tools.
   *
   * @param otherPhase the other phase's name, never null
   * @return a new source
   */
  public AgentSource forPhase(String otherPhase) {
    return new AgentSource(spec, tools, text.counter(), text.seed(), text.caseId(), otherPhase);
  }

  /**
   * A session's plan: its group, system prompt and task.
   *
   * @param session the session's index, from 0
   * @return the plan
   */
  public Script script(long session) {
    Prompt task = text.extend("agent:" + session + ":task", spec.taskTokens(), taskId(session));
    if (spec.systemTokens() == 0) {
      return new Script(session, null, null, task);
    }
    int group = (int) draw(session, "group", spec.systemGroups());
    return new Script(session, group, system(group), task);
  }

  private static String taskId(long session) {
    return "a" + session + "-task-";
  }

  /**
   * The system prompt of a group, built once.
   *
   * @param group the group, from 0
   * @return the prompt, its {@link Prompt#prefixGroup()} the group
   */
  public Prompt system(int group) {
    return system(group, "agent-system:" + group, spec.systemTokens(), "as" + group + "-");
  }

  /**
   * The result of one tool call.
   *
   * @param session the session's index, from 0
   * @param loop the loop, from 1 (the reply of turn {@code loop} made the call)
   * @param call the call's position in the reply, from 0
   * @return the result, its planned count the tokens aimed for
   * @throws IllegalArgumentException if {@code loop < 1} or {@code call < 0}
   */
  public Prompt toolResult(long session, int loop, int call) {
    if (loop < 1 || call < 0) {
      throw new IllegalArgumentException(
          "tool result: got loop " + loop + ", call " + call + ", expected loop >= 1, call >= 0");
    }
    return text.extend(
        "agent:" + session + ":loop:" + loop + ":tool:" + call,
        spec.toolResultTokens(),
        "a" + session + "-l" + loop + "-c" + call + "-");
  }

  /**
   * The pause standing for the tools' run after a loop's reply, before its results are sent.
   *
   * @param session the session's index
   * @param loop the loop, from 1
   * @return milliseconds, in [min, max] of the spec
   */
  public long toolLatencyMs(long session, int loop) {
    long min = spec.minToolLatencyMs();
    long max = spec.maxToolLatencyMs();
    if (max == min) {
      return min;
    }
    return min + draw(session, "latency:" + loop, max - min + 1);
  }

  /**
   * The spec.
   *
   * @return never null
   */
  public AgentSpec spec() {
    return spec;
  }

  /**
   * The tools, shared by every session and phase.
   *
   * @return never null
   */
  public ToolCatalog tools() {
    return tools;
  }

  @Override
  String details() {
    return String.valueOf(spec);
  }
}
