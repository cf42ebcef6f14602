package io.github.gatlingllm.action;

import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.settings.CancelSettings;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.concurrent.ScheduledFuture;
import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;

/**
 * Not API. The client's cancellation of one request ({@code llm.cancelRate}, {@link
 * CancelSettings}): whether the run's cancellation chose it, and the delay that starts once the
 * request is fully written and, when it is over, has the request's {@link Target} cut it. Every
 * method runs on the request's event loop; the delay's checks hold the target's lock, the lock its
 * callbacks hold, so a request ends exactly once, cancelled or not.
 */
final class Cancellation {

  /** The request a cancellation cuts: its listener. */
  interface Target {
    /**
     * Whether the request has ended (called holding the target's lock).
     *
     * @return true once it ended, one way or another
     */
    boolean ended();

    /** The delay is over: cut the request now (called on the event loop, without the lock). */
    void cancelNow();
  }

  private final Double afterMs;

  /** The chosen delay in nanoseconds, or -1 when this request is not cancelled. */
  private final long afterNanos;

  private Channel channel;
  private ScheduledFuture<?> timer;
  private boolean fired;

  private Cancellation(Double afterMs) {
    this.afterMs = afterMs;
    this.afterNanos = afterMs == null ? -1 : Math.round(afterMs * 1_000_000.0);
  }

  /**
   * The cancellation of one request: chosen by {@link CancelSettings#chosen} from the run's seed
   * and the request's name, phase and index; never for a conversation's turn (a cut reply would end
   * the conversation) or a request without an index.
   *
   * @param cancel the run's cancellation settings ({@code llm.cancelRate}), never null
   * @param seed the run's seed
   * @param identity the request
   * @param conversationTurn whether the request is a conversation's turn
   * @return its cancellation, never null
   */
  static Cancellation choose(
      CancelSettings cancel, long seed, RequestIdentity identity, boolean conversationTurn) {
    boolean chosen =
        !conversationTurn
            && identity.index() != null
            && cancel.chosen(seed, identity.request(), identity.phase(), identity.index());
    return new Cancellation(chosen ? cancel.afterMs() : null);
  }

  /**
   * Whether the run's cancellation chose this request.
   *
   * @return true when it is to be cancelled after {@link #afterMs()}
   */
  boolean chosen() {
    return afterNanos >= 0;
  }

  /**
   * The chosen delay.
   *
   * @return milliseconds, or null when the request is not cancelled
   */
  Double afterMs() {
    return afterMs;
  }

  /**
   * Whether the delay ran out and the request was cut.
   *
   * @return true after {@link #fire()}
   */
  boolean fired() {
    return fired;
  }

  /**
   * Starts the delay once the request is fully written: {@code onWrite} runs on the channel's event
   * loop just before Gatling's client writes and flushes the request in the same task, so a task
   * queued now runs once that write is done; if the socket did not take every byte yet (a large
   * prompt), it looks again every millisecond until the outbound buffer is empty. A request written
   * again on a new connection (the pooled one closed before any answer) starts the delay again.
   *
   * @param channel the channel the request is written to
   * @param target the request
   */
  void written(Channel channel, Target target) {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
    this.channel = channel;
    channel.eventLoop().execute(() -> whenWritten(channel, target));
  }

  private void whenWritten(Channel channel, Target target) {
    synchronized (target) {
      if (target.ended() || channel != this.channel) {
        return;
      }
      ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
      if (out != null && channel.isActive() && !out.isEmpty()) {
        timer =
            channel
                .eventLoop()
                .schedule(() -> whenWritten(channel, target), 1, TimeUnit.MILLISECONDS);
        return;
      }
      timer = channel.eventLoop().schedule(target::cancelNow, afterNanos, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * The delay is over and the request is cut: closes its connection (never returned to the pool
   * half-read). Call holding the target's lock.
   */
  void fire() {
    fired = true;
    timer = null;
    if (channel != null) {
      channel.close();
    }
  }

  /** Stops the delay of a request that ended first. */
  void stop() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  /**
   * The record's error text of a cancelled request.
   *
   * @return e.g. {@code cancelled by the client 100 ms after the request was written
   *     (llm.cancelRate)}
   */
  String description() {
    String ms = BigDecimal.valueOf(afterMs).stripTrailingZeros().toPlainString();
    return "cancelled by the client " + ms + " ms after the request was written (llm.cancelRate)";
  }
}
