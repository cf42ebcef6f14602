package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The Gatling class {@link GatlingFeeds} looks for on the stack, checked on Gatling 3.16.0. */
class GatlingFeedsTest {

  @Test
  void feedBuilderBuildsItsFeedActorFromTheSupplier() throws Exception {
    Class<?> builder = Class.forName(GatlingFeeds.FEED_BUILDER);
    assertEquals(
        true,
        Arrays.stream(builder.getDeclaredMethods())
            .anyMatch(m -> m.getName().contains("newFeedActor")),
        "FeedBuilder has no newFeedActor: " + Arrays.toString(builder.getDeclaredMethods()));
  }

  @Test
  void aFeederBuiltOutsideGatlingIsNotBuiltForARun() {
    assertFalse(GatlingFeeds.buildingFeedAction());
  }
}
