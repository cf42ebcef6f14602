package io.github.gatlingllm.metrics;

import java.util.List;

/**
 * When a request's output tokens arrived at the client: the one definition behind the report's
 * tokens-by-arrival chart and a load level's served output tokens/s ({@link LevelResult}). A
 * successful request's completion tokens are shared equally among its token-bearing events, the
 * first at start + TTFT and each next one an ITL later; without ITLs (not recorded), one token at
 * the first token and the others spread evenly from there to the request's end; without a TTFT (not
 * streamed), all at the end, when the body arrived.
 */
public final class TokenArrivals {

  private TokenArrivals() {}

  /** Receives a request's output tokens as they arrived. */
  public interface Sink {

    /**
     * Tokens that arrived at one instant.
     *
     * @param atMs the instant, epoch ms (fractional)
     * @param tokens how many, more than 0 (fractional when a request's tokens are shared)
     */
    void at(double atMs, double tokens);

    /**
     * Tokens that arrived evenly over an interval.
     *
     * @param fromMs its start, epoch ms
     * @param toMs its end, epoch ms, at least {@code fromMs}
     * @param tokens how many, more than 0
     */
    void spread(double fromMs, double toMs, double tokens);
  }

  /**
   * Hands a request's output tokens to a sink by arrival; nothing for a request that did not
   * succeed or has no completion token.
   *
   * @param r the request, never null
   * @param sink where the tokens go, never null
   */
  public static void visit(RequestRecord r, Sink sink) {
    if (r.status() != RequestStatus.OK
        || r.completionTokens() == null
        || r.completionTokens() == 0) {
      return;
    }
    double tokens = r.completionTokens();
    if (r.ttftMs() == null) {
      sink.at(r.endMs(), tokens);
      return;
    }
    double t = r.startMs() + r.ttftMs();
    List<Double> itl = r.itlMs();
    if (itl != null && !itl.isEmpty()) {
      double each = tokens / (itl.size() + 1);
      sink.at(t, each);
      for (double gap : itl) {
        t += gap;
        sink.at(t, each);
      }
      return;
    }
    sink.at(t, Math.min(1, tokens));
    if (tokens > 1) {
      sink.spread(t, Math.max(t, r.endMs()), tokens - 1);
    }
  }
}
