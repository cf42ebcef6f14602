package io.github.gatlingllm.cache;

import io.github.gatlingllm.prompt.PromptMode;

/**
 * The cache plan of a conversation's turn ({@link CachePlan}, in the server's tokens, {@code B} the
 * cache granularity, {@code L} the chat template's lead):
 *
 * <ul>
 *   <li>turn 1 is planned as a prompt of its own: {@code unique} without a system prompt (the
 *       template only, {@code L}), {@code shared-prefix} with one (its group's system prompt after
 *       the group's first conversation sent it, as a group prefix);
 *   <li>a later turn {@code t} can find everything before its new user message: the previous turn's
 *       prompt and reply, as far as the server computed them, {@code context = P(t-1) + C(t-1) -
 *       1}, {@code P} and {@code C} the server's prompt and completion tokens of turn {@code t-1}
 *       (the reply's last token was sampled, never fed through the model, so no server holds its
 *       KV); never more than {@code P(t) - 1}; rounded down to a multiple of {@code B}. A hit may
 *       fall short by one block ({@code B}, as any hit) and go over by {@code max(B, 16)} (the
 *       template's tokens after the reply, before the new message, are cacheable too).
 * </ul>
 *
 * <p>When the previous turn's counts are not the server's (a server that reports no usage), the
 * context is the run's own count and both sides get a further {@value CachePlan#INEXACT_SHARE} of
 * it, as {@link CachePlan} does for inexact counts. A reply whose text does not tokenize back into
 * the tokens the server generated (a random-weights model's sub-word splits, a server that trims
 * the reply's leading space) is cached only up to where they part: such turns come out {@code
 * partial}, which is what the server's cache did.
 */
public final class ConversationPlan {

  /**
   * Tokens a turn adds around its new user message (the chat template's end of the previous reply,
   * the user header, the generation prompt), allowed for when a turn's prompt is estimated before
   * it is sent, against {@code llm.maxContextTokens}.
   */
  public static final int TURN_TEMPLATE_TOKENS = 16;

  private ConversationPlan() {}

  /**
   * The plan of a conversation's first turn whose group prefix, if sent before, was ready when it
   * was sent: {@link #first(CachePlan.Server, Integer, boolean, boolean, Integer, boolean, Integer,
   * Integer)} with {@code systemReady} true.
   *
   * @param server what is known of the server, never null
   * @param systemTokens the system prompt's planned tokens, or null without one
   * @param systemSentBefore whether a conversation of the same group sent the system prompt before
   * @param plannedTokens the turn's planned prompt tokens, or null
   * @param sharded whether the run is one shard of several
   * @param promptTokens the server's prompt tokens, or null
   * @return the plan
   */
  public static CachePlan first(
      CachePlan.Server server,
      Integer systemTokens,
      boolean systemSentBefore,
      Integer plannedTokens,
      boolean sharded,
      Integer promptTokens) {
    return first(
        server, systemTokens, systemSentBefore, true, plannedTokens, sharded, promptTokens, null);
  }

  /**
   * The plan of a conversation's first turn (an agent session's too), by the rule of every request
   * whose prefix other requests sent ({@link PrefixLedger}): its group prefix is expected once a
   * session of its group had its first token before this turn was sent; sent while every such
   * session was still in prefill, the turn may find none of it or all of it, and the plan takes
   * what the server found ({@link CachePlan#of(CachePlan.Server, CachePlan.Sent, Integer,
   * Integer)}).
   *
   * @param server what is known of the server, never null
   * @param systemTokens the group prefix's planned tokens (a system prompt; with an agent's tools),
   *     or null without one
   * @param systemSentBefore whether a session of the same group sent the group prefix before (per
   *     workload, warmup included)
   * @param systemReady whether one of those had its first token before this turn was sent (true
   *     when none sent it)
   * @param plannedTokens the turn's planned prompt tokens (system prompt and user message, without
   *     the template), or null
   * @param sharded whether the run is one shard of several (another may have sent the group first)
   * @param promptTokens the server's prompt tokens, or null
   * @param cachedTokens the server's cached tokens, or null
   * @return the plan; with a system prompt, its {@code warmCeiling} holds the system prompt even
   *     for the group's first conversation: a conversation of the same group sent just after it may
   *     reach the server first (a server that queues requests does not serve them in the order they
   *     were sent), which is no warm start
   */
  public static CachePlan first(
      CachePlan.Server server,
      Integer systemTokens,
      boolean systemSentBefore,
      boolean systemReady,
      Integer plannedTokens,
      boolean sharded,
      Integer promptTokens,
      Integer cachedTokens) {
    CachePlan.Sent sent =
        new CachePlan.Sent(
            systemTokens == null ? PromptMode.UNIQUE : PromptMode.SHARED_PREFIX,
            systemTokens != null && systemSentBefore,
            systemTokens,
            plannedTokens,
            sharded || systemTokens != null);
    return CachePlan.of(
        server, systemReady ? sent : sent.withReadyPrefixTokens(0), promptTokens, cachedTokens);
  }

  /**
   * The shared prefix of a first turn whose request carries tools (an agent session's turn 1), in
   * the server's tokens without the template's lead: what every session of the group sends before
   * its task. A server's chat template renders the tools its own way (Qwen3's adds about 170 tokens
   * of instructions around the catalog; each re-serializes the JSON schemas), so our count of the
   * catalog is only an estimate of that part. When the server's prompt tokens are known and exact,
   * the prefix is taken from them: {@code P - L - task - }{@value #TURN_TEMPLATE_TOKENS} ({@code L}
   * the template's known lead, 0 when unknown; the last term the template's tokens around the task,
   * allowed generously, so the plan errs by at most that many tokens low, within a hit's tolerance
   * above it); otherwise the planned count.
   *
   * @param server what is known of the server, never null
   * @param plannedPrefixTokens our count of the system prompt and the tools catalog, at least 0
   * @param taskTokens the task's planned tokens, at least 0
   * @param promptTokens the server's prompt tokens of the turn, or null when it reported none
   * @return tokens, at least 0
   */
  public static int toolsPrefix(
      CachePlan.Server server, int plannedPrefixTokens, int taskTokens, Integer promptTokens) {
    if (promptTokens == null || !server.exact()) {
      return plannedPrefixTokens;
    }
    int lead = server.templateKnown() ? server.templateTokens() : 0;
    return Math.max(0, promptTokens - lead - taskTokens - TURN_TEMPLATE_TOKENS);
  }

  /**
   * The plan of a later turn.
   *
   * @param server what is known of the server, never null
   * @param contextTokens the tokens before the new user message that a cache can hold: {@code
   *     P(t-1) + C(t-1) - 1}, at least 0
   * @param exactContext whether {@code contextTokens} comes from the server's own counts
   * @param promptTokens the server's prompt tokens of this turn, or null
   * @return the plan, expecting a hit when the context reaches past the template
   * @throws IllegalArgumentException if {@code contextTokens} is negative
   */
  public static CachePlan later(
      CachePlan.Server server, int contextTokens, boolean exactContext, Integer promptTokens) {
    if (contextTokens < 0) {
      throw new IllegalArgumentException(
          "context tokens: got " + contextTokens + ", expected >= 0");
    }
    int block = server.blockTokens();
    boolean leadUnknown = !server.exact() || !server.templateKnown();
    int lead = leadUnknown ? 0 : server.templateTokens();
    long cap = promptTokens != null && promptTokens > 0 ? promptTokens - 1L : Long.MAX_VALUE;
    int cached = roundDown(Math.min(contextTokens, cap), block);
    int template = roundDown(Math.min(lead, cap), block);
    boolean exact = exactContext && server.exact();
    int slack =
        exact ? 0 : (int) Math.ceil(CachePlan.INEXACT_SHARE * Math.max(0, cached - template));
    int unknownLead = leadUnknown ? CachePlan.UNKNOWN_TEMPLATE_TOKENS : 0;
    return new CachePlan(
        cached,
        cached > template ? CacheOutcome.HIT : CacheOutcome.MISS,
        template,
        Math.max(block, CachePlan.NONCE_TOKENS) + slack,
        block + slack,
        template + unknownLead,
        (int) Math.min(contextTokens, cap));
  }

  private static int roundDown(long tokens, int block) {
    long t = Math.max(0, tokens);
    return (int) Math.min(Integer.MAX_VALUE, t / block * block);
  }
}
