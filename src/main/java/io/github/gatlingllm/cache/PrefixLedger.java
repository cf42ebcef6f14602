package io.github.gatlingllm.cache;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which shared prefixes a workload's requests have sent, and which of them a server's prefix cache
 * can hold yet: the one rule the cache plan of every kind of request follows for what other
 * requests left it (a generated prompt's repeat prompt or group prefix, a trace row's hash-id
 * blocks, a conversation's system prompt, an agent session's system prompt and tools).
 *
 * <p>A prefix, named by a key (a group's name, a block's hash id), is, when a request is sent:
 *
 * <ul>
 *   <li><b>ready</b>: a request that sent it had its first token (or its whole answer, when not
 *       streamed) before: the server has computed it, and a server that keeps a prefix cache holds
 *       it. A request sent now is planned to find it;
 *   <li><b>in prefill</b>: requests sent it, and none has had its first token yet. The server may
 *       still be computing it: a request sent now may find none of it (computed alongside it, in
 *       one batch, as the embedded simulator and vLLM do), or all of it (queued behind it, as on
 *       llama.cpp with one slot). The same holds for a prefix whose requests all ended without a
 *       first token (failed or cancelled: the server may have cached part of it, or nothing);
 *   <li><b>not sent</b>.
 * </ul>
 *
 * <p>The same holds the other way: a request whose prefix another request sent while it was itself
 * still in prefill (the group's first request, with the second sent a moment after it) may find
 * that one's prefix, if the server computed that one first.
 *
 * <p>A request's {@link Ticket}, taken as it is sent, says how many of its leading keys were ready
 * ({@link Ticket#readyLead()}) and how many another request may have left for it ({@link
 * Ticket#foundLead()}: sent before it, or by another while it was in prefill); its plan expects the
 * ready part and takes what the server found of the rest ({@link
 * CachePlan.Sent#readyPrefixTokens()}). The request tells its ticket when its prefill ended ({@link
 * Ticket#prefillEnded()}, at its first token) and when it ended ({@link Ticket#ended}).
 *
 * <p>What it keeps: one entry a key ever sent (as the sent keys were kept before), and a small
 * counter a key while requests that send it are in prefill; a ticket lives as long as its request.
 * Thread-safe: every call takes this ledger's lock.
 */
public final class PrefixLedger {

  /** Sent, with no request in prefill and none that had its first token. */
  private static final Object SENT = "sent";

  /** A request that sent it had its first token. */
  private static final Object READY = "ready";

  /** Not ready yet: the requests that sent it and are still in prefill, and how many sent it. */
  private static final class Prefilling {
    int requests;
    long sends;
  }

  private final Map<Object, Object> keys = new HashMap<>();

  /**
   * A request with one shared prefix is being sent: what it can expect of it, and its prefix marked
   * as sent (in prefill until the request's first token). Call in the order requests are sent.
   *
   * @param key the prefix's key, never null
   * @return the request's ticket
   * @throws NullPointerException if {@code key} is null
   */
  public Ticket send(Object key) {
    return send(new Object[] {Objects.requireNonNull(key, "key")});
  }

  /**
   * A request whose prompt is a sequence of prefixes (a trace row's hash-id blocks, in order) is
   * being sent: how many of its leading keys a cache can hold, and its keys marked as sent. Call in
   * the order requests are sent.
   *
   * @param sequence the keys in prompt order, never null, no null element
   * @return the request's ticket
   * @throws NullPointerException if {@code sequence} or one of its keys is null
   */
  public synchronized Ticket send(Object[] sequence) {
    Object[] seq = sequence.clone();
    for (Object key : seq) {
      Objects.requireNonNull(key, "key");
    }
    int ready = 0;
    while (ready < seq.length && keys.get(seq[ready]) == READY) {
      ready++;
    }
    int sent = ready;
    while (sent < seq.length && keys.get(seq[sent]) != null) {
      sent++;
    }
    Prefilling[] prefilling = new Prefilling[seq.length];
    long[] marks = new long[seq.length];
    for (int i = 0; i < seq.length; i++) {
      Object state = keys.get(seq[i]);
      if (state == READY) {
        continue;
      }
      Prefilling p;
      if (state instanceof Prefilling existing) {
        p = existing;
      } else {
        p = new Prefilling();
        keys.put(seq[i], p);
      }
      p.requests++;
      p.sends++;
      prefilling[i] = p;
    }
    for (int i = 0; i < seq.length; i++) {
      // after all of this request's own sends (a key twice in one sequence counts once)
      marks[i] = prefilling[i] == null ? 0 : prefilling[i].sends;
    }
    return new Ticket(seq, ready, sent, prefilling, marks);
  }

  /**
   * One request's view of its prefixes: what was ready and sent when it left, and how it tells the
   * ledger that its prefill, or the request, ended. Its calls may come from any thread.
   */
  public final class Ticket {

    private final Object[] sequence;
    private final int readyLead;
    private final int sentLead;
    // the keys' prefill state this request joined (null where the key was ready), and its place
    private final Prefilling[] prefilling;
    private final long[] marks;
    private boolean open = true;
    private int foundLead = -1;

    private Ticket(
        Object[] sequence, int readyLead, int sentLead, Prefilling[] prefilling, long[] marks) {
      this.sequence = sequence;
      this.readyLead = readyLead;
      this.sentLead = sentLead;
      this.prefilling = prefilling;
      this.marks = marks;
    }

    /**
     * The leading keys that were ready when the request was sent: a request of the run had had its
     * first token on each. A server that keeps a prefix cache holds them for this request.
     *
     * @return from 0 to {@link #sentLead()}
     */
    public int readyLead() {
      return readyLead;
    }

    /**
     * The leading keys that requests of the run had sent before this one, ready or not.
     *
     * @return from {@link #readyLead()} to the number of keys
     */
    public int sentLead() {
      return sentLead;
    }

    /**
     * The leading keys another request of the run may have left in the cache for this one: sent
     * before it, or sent (or made ready) by another while this one was still in prefill (the two
     * were computed together, in either order). Fixed when the request's prefill ended ({@link
     * #prefillEnded()}, or {@link #ended}); until then, as of now.
     *
     * @return from {@link #sentLead()} to the number of keys
     */
    public int foundLead() {
      synchronized (PrefixLedger.this) {
        return open ? othersLead() : foundLead;
      }
    }

    /**
     * Whether every key another request may have left for this one was ready when it was sent: no
     * part of what it can find was in prefill (or left by requests that never had a first token).
     *
     * @return true when {@code readyLead == foundLead}
     */
    public boolean settled() {
      return readyLead == foundLead();
    }

    // Under the ledger's lock, while this ticket is open.
    private int othersLead() {
      int lead = sentLead;
      while (lead < sequence.length
          && (keys.get(sequence[lead]) == READY
              || prefilling[lead] != null && prefilling[lead].sends > marks[lead])) {
        lead++;
      }
      return lead;
    }

    /**
     * The number of keys the request sent.
     *
     * @return at least 0
     */
    public int keys() {
      return sequence.length;
    }

    /**
     * The request had its first token (or its whole answer): its prefixes are ready from now on.
     * Only the first call of this or {@link #ended} counts.
     */
    public void prefillEnded() {
      ended(true);
    }

    /**
     * The request ended, however (or was never sent). With {@code prefilled} (it had a first token,
     * or a whole answer) its prefixes are ready from now on; without, its claim is withdrawn: a key
     * no other request is prefilling any more is left sent but not ready. Only the first call of
     * this or {@link #prefillEnded} counts.
     *
     * @param prefilled whether the server computed the request's prompt
     */
    public void ended(boolean prefilled) {
      synchronized (PrefixLedger.this) {
        if (!open) {
          return;
        }
        foundLead = othersLead();
        open = false;
        for (Object key : sequence) {
          if (prefilled) {
            keys.put(key, READY);
          } else if (keys.get(key) instanceof Prefilling p && --p.requests == 0) {
            keys.put(key, SENT);
          }
        }
      }
    }
  }
}
