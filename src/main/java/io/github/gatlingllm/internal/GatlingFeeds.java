package io.github.gatlingllm.internal;

/**
 * For internal use only. Whether Gatling 3.16 is building a {@code feed(...)} action now: its
 * {@code io.gatling.core.action.builder.FeedBuilder} asks the feeder supplier for its feeder while
 * it builds the scenario ({@code newFeedActor}), once per supplier, before any load. Gatling hands
 * the supplier nothing of the run, so the call stack is what tells a feeder built for a run from
 * one built by a test or a tool. {@code GatlingFeedsTest} fails when an upgrade moves the class.
 */
public final class GatlingFeeds {

  /** Gatling's builder of feed actions. */
  static final String FEED_BUILDER = "io.gatling.core.action.builder.FeedBuilder";

  private GatlingFeeds() {}

  /**
   * Whether the caller runs inside Gatling's building of a feed action.
   *
   * @return true when Gatling's {@code FeedBuilder} is on the call stack
   */
  public static boolean buildingFeedAction() {
    return StackWalker.getInstance()
        .walk(frames -> frames.anyMatch(f -> f.getClassName().startsWith(FEED_BUILDER)));
  }
}
