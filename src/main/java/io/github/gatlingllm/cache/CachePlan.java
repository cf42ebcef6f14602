package io.github.gatlingllm.cache;

import io.github.gatlingllm.prompt.PromptMode;
import java.util.Objects;

/**
 * The prompt tokens one request can expect from the server's prefix cache, from its prompt mode and
 * what the run sent before it, and the outcome its cached tokens then make ({@link #outcome}).
 *
 * <p>The plan, in the server's tokens, with {@code L} the chat template's leading tokens, {@code P}
 * the prompt tokens the server counted (its {@code usage.prompt_tokens}; our planned count plus
 * {@code L} when it reports none) and {@code B} the cache granularity:
 *
 * <ul>
 *   <li>{@code unique}, and the first request sent of a repeat prompt or of a shared-prefix group
 *       (per workload, warmup included): {@code L}, the template only;
 *   <li>{@code shared-prefix} after its group's first request: {@code L} plus the group prefix's
 *       tokens;
 *   <li>{@code trace}: {@code L} plus the tokens of the request's leading hash-id blocks that
 *       earlier requests of the run sent ({@code sharedPrefixTokens}, with {@code sentBefore} true
 *       when there is at least one);
 *   <li>{@code repeat} after the first request: {@code P - 1}, all but the last prompt token (which
 *       a server computes again for its logits);
 * </ul>
 *
 * never more than {@code P - 1}, rounded down to a multiple of {@code B}. The plan expects a {@link
 * CacheOutcome#HIT} when it holds more than the template's rounded tokens, else a {@link
 * CacheOutcome#MISS}. "Sent before" is {@link PrefixLedger}'s: a prefix is expected once a request
 * that sent it had its first token before this one was sent; a part of it still in prefill then (or
 * sent by another while this one was in prefill) is taken as the server found it ({@link
 * Sent#readyPrefixTokens()}).
 *
 * <p>Tolerance, in tokens: a hit may fall short of the plan by one block ({@code B}: the server may
 * tokenize the prefix's last token with what follows it), and any request may get up to {@code
 * max(B, }{@value #NONCE_TOKENS}{@code )} more than planned (at a granularity finer than a nonce,
 * two different 12-hex nonces may share their first digits by chance: a nonce in brackets is at
 * most 14 tokens); beyond that it is an {@link CacheOutcome#UNPLANNED_HIT}. When our counts are not
 * the server's ({@link Server#exact()} false: the {@code estimate} tokenizer against a real
 * server), the group prefix is scaled by {@code P} over our planned prompt tokens, the template is
 * taken as unknown, and both sides get a further {@value #INEXACT_SHARE} of the planned prefix.
 * When the template's lead is unknown (a template other than ChatML, or inexact counts), up to
 * {@value #UNKNOWN_TEMPLATE_TOKENS} tokens more are tolerated, and as many count as a miss.
 *
 * @param plannedCachedTokens the planned cached prompt tokens, at least 0
 * @param expected {@link CacheOutcome#HIT} or {@link CacheOutcome#MISS}
 * @param templateTokens the template's leading tokens rounded down to the block, at least 0
 * @param above tokens beyond the plan still not an unplanned hit, at least 0
 * @param below tokens under the plan still a hit, at least 0
 * @param missCeiling the most cached tokens that still count as a miss, at least 0
 * @param warmCeiling the most cached tokens any request of the whole test could have left in the
 *     cache for this one (before tolerance): the template for a unique prompt and for the first
 *     request of a repeat prompt or group sent in a run on one machine while no other request of it
 *     was in flight; the template and group prefix for a later shared-prefix request, for the first
 *     one when another of its group was sent before it ended (the two may reach the cache in either
 *     order), or any in a test run on several machines (another shard may have sent its group
 *     first); all but the last token for a later repeat request, a first one with another in
 *     flight, or any on several machines. More than this plus {@code above} is a {@link #warmStart
 *     warm start}: a hit no request of the test, sent before it or in flight with it, could have
 *     caused.
 */
public record CachePlan(
    int plannedCachedTokens,
    CacheOutcome expected,
    int templateTokens,
    int above,
    int below,
    int missCeiling,
    int warmCeiling) {

  /** The longest a nonce in brackets can be, in tokens, plus the token before it. */
  public static final int NONCE_TOKENS = 16;

  /** Tokens tolerated for a chat template whose lead is not known. */
  public static final int UNKNOWN_TEMPLATE_TOKENS = 32;

  /** The share of the planned prefix tolerated either way when our counts are not the server's. */
  public static final double INEXACT_SHARE = 0.2;

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException naming a field out of range
   */
  public CachePlan {
    if (plannedCachedTokens < 0
        || templateTokens < 0
        || above < 0
        || below < 0
        || missCeiling < 0) {
      throw new IllegalArgumentException(
          "cache plan: counts must be >= 0, got planned "
              + plannedCachedTokens
              + ", template "
              + templateTokens
              + ", above "
              + above
              + ", below "
              + below
              + ", miss ceiling "
              + missCeiling);
    }
    if (expected != CacheOutcome.HIT && expected != CacheOutcome.MISS) {
      throw new IllegalArgumentException(
          "cache plan: expected must be hit or miss, got " + expected);
    }
  }

  /**
   * What the plan knows of the server's prefix cache.
   *
   * @param templateTokens the chat template's leading tokens before the prompt (0 for completions),
   *     in the counter's tokens, at least 0
   * @param templateKnown whether {@code templateTokens} is known (a ChatML template, the embedded
   *     simulator's, or completions)
   * @param blockTokens the cache granularity, in tokens, at least 1
   * @param exact whether the prompts are counted in the server's tokens (its tokenizer, or the
   *     embedded simulator counting with ours)
   */
  public record Server(int templateTokens, boolean templateKnown, int blockTokens, boolean exact) {

    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException naming a field out of range
     */
    public Server {
      if (templateTokens < 0) {
        throw new IllegalArgumentException(
            "templateTokens: got " + templateTokens + ", expected >= 0");
      }
      if (blockTokens < 1) {
        throw new IllegalArgumentException("blockTokens: got " + blockTokens + ", expected >= 1");
      }
    }
  }

  /**
   * What is known of a request when it is sent.
   *
   * @param mode the prompt mode, never null
   * @param sentBefore whether a request with the same repeat prompt or group prefix was sent before
   *     it in the run (per workload, warmup included)
   * @param sharedPrefixTokens the group prefix's tokens (shared-prefix), or null
   * @param plannedTokens the prompt's planned tokens (without the template), or null
   * @param sharded whether the run is one shard of a test run on several machines, which may have
   *     sent the same repeat prompt or group prefix first
   * @param warmPrefixTokens the most prompt tokens (without the template) that any other request of
   *     the whole test could have left in the cache for this one, whatever the order requests reach
   *     the server in (a trace row: its leading hash ids that other rows hold), or null to judge by
   *     {@code sentBefore} and {@code sharded} alone; widens {@code warmCeiling} only
   * @param sentInFlight whether another request with the same repeat prompt or group prefix was
   *     sent after this one and before it ended: the two were in flight together and may reach the
   *     server's cache in either order, so this one may find the other's prefix (an {@link
   *     CacheOutcome#UNPLANNED_HIT} where a miss is planned, never a warm start); widens {@code
   *     warmCeiling} only
   * @param readyPrefixTokens how much of what {@code sentBefore} and {@code sharedPrefixTokens} let
   *     a cache hold was ready when this request was sent ({@link PrefixLedger}): null when all of
   *     it was (no part of it was still in prefill); else the tokens (without the template) of its
   *     ready part: 0 for a repeat prompt or group prefix whose requests were all still in prefill,
   *     a trace row's leading ready blocks. The plan then expects the ready part and takes what the
   *     server found of the rest ({@link CachePlan#of(Server, Sent, Integer, Integer)})
   */
  public record Sent(
      PromptMode mode,
      boolean sentBefore,
      Integer sharedPrefixTokens,
      Integer plannedTokens,
      boolean sharded,
      Integer warmPrefixTokens,
      boolean sentInFlight,
      Integer readyPrefixTokens) {

    /**
     * Checks the mode and the ready part.
     *
     * @throws NullPointerException if {@code mode} is null
     * @throws IllegalArgumentException if {@code readyPrefixTokens} is negative
     */
    public Sent {
      Objects.requireNonNull(mode, "mode");
      if (readyPrefixTokens != null && readyPrefixTokens < 0) {
        throw new IllegalArgumentException(
            "readyPrefixTokens: got " + readyPrefixTokens + ", expected >= 0 or null");
      }
    }

    /**
     * This request, with only {@code tokens} of its prefix ready when it was sent ({@link
     * #readyPrefixTokens}).
     *
     * @param tokens the ready part's tokens (without the template), at least 0, or null for all
     * @return a new value
     */
    public Sent withReadyPrefixTokens(Integer tokens) {
      return with(sentInFlight, tokens);
    }

    /** This request with {@code sentInFlight} and {@code readyPrefixTokens} as given. */
    private Sent with(boolean inFlight, Integer readyTokens) {
      return new Sent(
          mode,
          sentBefore,
          sharedPrefixTokens,
          plannedTokens,
          sharded,
          warmPrefixTokens,
          inFlight,
          readyTokens);
    }

    /**
     * Whether part of what this request can find was still in prefill (or left by requests that
     * never had a first token) when it was sent: its plan then takes what the server found of it.
     *
     * @return true when {@code sentBefore} and {@code readyPrefixTokens} is set
     */
    public boolean inPrefill() {
      return sentBefore && readyPrefixTokens != null;
    }

    /**
     * This request, with another of the same repeat prompt or group prefix sent while it was in
     * flight ({@code sentInFlight}).
     *
     * @return a new value
     */
    public Sent withSentInFlight() {
      return with(true, readyPrefixTokens);
    }

    /**
     * A request whose warm ceiling is judged by {@code sentBefore} and {@code sharded} alone.
     *
     * @param mode the prompt mode, never null
     * @param sentBefore whether a request with the same repeat prompt or group prefix was sent
     *     before it in the run
     * @param sharedPrefixTokens the group prefix's tokens (shared-prefix), or null
     * @param plannedTokens the prompt's planned tokens (without the template), or null
     * @param sharded whether the run is one shard of a test run on several machines
     */
    public Sent(
        PromptMode mode,
        boolean sentBefore,
        Integer sharedPrefixTokens,
        Integer plannedTokens,
        boolean sharded) {
      this(mode, sentBefore, sharedPrefixTokens, plannedTokens, sharded, null, false, null);
    }

    /**
     * A request of a run on one machine.
     *
     * @param mode the prompt mode, never null
     * @param sentBefore whether a request with the same repeat prompt or group prefix was sent
     *     before it in the run
     * @param sharedPrefixTokens the group prefix's tokens (shared-prefix), or null
     * @param plannedTokens the prompt's planned tokens (without the template), or null
     */
    public Sent(
        PromptMode mode, boolean sentBefore, Integer sharedPrefixTokens, Integer plannedTokens) {
      this(mode, sentBefore, sharedPrefixTokens, plannedTokens, false);
    }
  }

  /**
   * The plan of a request whose prefix was all ready when it was sent, or whose server reported no
   * cached tokens: {@link #of(Server, Sent, Integer, Integer)} without them.
   *
   * @param server what is known of the server, never null
   * @param sent what is known of the request, never null
   * @param promptTokens the server's prompt tokens, or null when it reported none
   * @return the plan
   */
  public static CachePlan of(Server server, Sent sent, Integer promptTokens) {
    return of(server, sent, promptTokens, null);
  }

  /**
   * The plan of a request. When part of its prefix was still in prefill as it was sent ({@link
   * Sent#inPrefill()}: the requests that sent that part had not had their first token yet), the
   * server may have computed this one alongside them (finding none of that part) or after them
   * (finding all of it): the plan expects the ready part ({@code lo}, as rounded) and takes what
   * the server found beyond it, up to the whole prefix ({@code hi}): {@code lo} when it found no
   * more than {@code lo + above}, else {@code min(cachedTokens, hi)}. Such a request is neither a
   * shortfall nor an excess of the plan within that range; below {@code lo} it is one, as any.
   *
   * @param server what is known of the server, never null
   * @param sent what is known of the request, never null
   * @param promptTokens the server's prompt tokens, or null when it reported none
   * @param cachedTokens the server's cached tokens, or null when it reported none (the plan then
   *     expects the ready part alone)
   * @return the plan
   */
  public static CachePlan of(Server server, Sent sent, Integer promptTokens, Integer cachedTokens) {
    int block = server.blockTokens();
    boolean leadUnknown = !server.exact() || !server.templateKnown();
    int lead = leadUnknown ? 0 : server.templateTokens();
    Integer planned = sent.plannedTokens();
    long prompt =
        promptTokens != null ? promptTokens : planned != null ? (long) planned + lead : -1;
    double scale =
        server.exact() || promptTokens == null || planned == null || planned == 0
            ? 1
            : promptTokens / (double) planned;
    long shareable = lead;
    if (sent.mode() == PromptMode.REPEAT) {
      shareable = prompt > 0 ? prompt - 1 : Long.MAX_VALUE;
    } else if ((sent.mode() == PromptMode.SHARED_PREFIX || sent.mode() == PromptMode.TRACE)
        && sent.sharedPrefixTokens() != null) {
      shareable = lead + Math.round(sent.sharedPrefixTokens() * scale);
    }
    long raw = sent.sentBefore() ? shareable : lead;
    long ceiling = sent.sentBefore() || sent.sharded() || sent.sentInFlight() ? shareable : lead;
    if (sent.warmPrefixTokens() != null) {
      ceiling = Math.max(ceiling, lead + Math.round(sent.warmPrefixTokens() * scale));
    }
    long cap = prompt > 0 ? prompt - 1 : Long.MAX_VALUE;
    int cached = roundDown(Math.min(raw, cap), block);
    int template = roundDown(Math.min(lead, cap), block);
    int unknownLead = leadUnknown ? UNKNOWN_TEMPLATE_TOKENS : 0;
    if (sent.inPrefill()) {
      // Part of the prefix was in prefill when sent: expect the ready part, take what was found.
      long ready =
          sent.mode() == PromptMode.REPEAT || sent.sharedPrefixTokens() == null
              ? (sent.readyPrefixTokens() > 0 ? shareable : lead)
              : lead
                  + Math.round(
                      Math.min(sent.readyPrefixTokens(), sent.sharedPrefixTokens()) * scale);
      int lo = roundDown(Math.min(ready, cap), block);
      int loSlack =
          server.exact() ? 0 : (int) Math.ceil(INEXACT_SHARE * Math.max(0, lo - template));
      long loAbove = (long) Math.max(block, NONCE_TOKENS) + unknownLead + loSlack;
      cached =
          cachedTokens == null || cachedTokens <= lo + loAbove
              ? lo
              : (int) Math.max(lo, Math.min(cached, (long) cachedTokens));
    }
    int slack =
        server.exact() ? 0 : (int) Math.ceil(INEXACT_SHARE * Math.max(0, cached - template));
    return new CachePlan(
        cached,
        cached > template ? CacheOutcome.HIT : CacheOutcome.MISS,
        template,
        Math.max(block, NONCE_TOKENS) + unknownLead + slack,
        block + slack,
        template + unknownLead,
        (int) Math.min(Integer.MAX_VALUE, Math.min(ceiling, cap)));
  }

  /**
   * The outcome of the server's cached tokens against this plan: {@link CacheOutcome#UNKNOWN}
   * without them; {@link CacheOutcome#UNPLANNED_HIT} beyond {@code planned + above}; where a hit is
   * planned, {@link CacheOutcome#HIT} from {@code planned - below} (and beyond the template), else
   * {@link CacheOutcome#MISS} up to {@code missCeiling}, else {@link CacheOutcome#PARTIAL}; where a
   * miss is planned, {@link CacheOutcome#MISS}.
   *
   * @param cachedTokens the server's {@code cached_tokens}, or null when it reported none
   * @return the outcome, never null
   */
  public CacheOutcome outcome(Integer cachedTokens) {
    if (cachedTokens == null) {
      return CacheOutcome.UNKNOWN;
    }
    long cached = cachedTokens;
    if (cached > (long) plannedCachedTokens + above) {
      return CacheOutcome.UNPLANNED_HIT;
    }
    if (expected == CacheOutcome.MISS) {
      return CacheOutcome.MISS;
    }
    if (cached >= (long) plannedCachedTokens - below && cached > templateTokens) {
      return CacheOutcome.HIT;
    }
    return cached <= missCeiling ? CacheOutcome.MISS : CacheOutcome.PARTIAL;
  }

  /**
   * Whether the server's cache held more of this prompt than any request of the test could have put
   * there: more than {@code warmCeiling + above} cached tokens. Such a request found this very
   * prompt (its nonce and beyond), or a repeat prompt or group prefix before the run sent it: the
   * cache was warm before the run, usually from an earlier run with the same seed.
   *
   * @param cachedTokens the server's {@code cached_tokens}, or null when it reported none
   * @return true for a request that reveals a warm start
   */
  public boolean warmStart(Integer cachedTokens) {
    return cachedTokens != null && (long) cachedTokens > (long) warmCeiling + above;
  }

  /**
   * Whether an outcome is what this plan expects: a hit where a hit is planned, a miss where a miss
   * is.
   *
   * @param outcome the outcome
   * @return true when it is the expected one
   */
  public boolean asPlanned(CacheOutcome outcome) {
    return outcome == expected;
  }

  private static int roundDown(long tokens, int block) {
    long t = Math.max(0, tokens);
    return (int) Math.min(Integer.MAX_VALUE, t / block * block);
  }
}
