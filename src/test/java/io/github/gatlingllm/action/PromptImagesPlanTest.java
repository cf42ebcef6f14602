package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import org.junit.jupiter.api.Test;

/**
 * {@link PromptSender.PromptPart#replanned}: a request sent before the server taught its images'
 * tokens ({@code llm.images.tokens=server}) is judged with them once they are known. Before, it was
 * judged with its text alone: against llama.cpp with a 256-token projector, a later request of a
 * group that found the group's image and prefix in the cache (388 tokens) was called a warm start
 * (its ceiling, 131, held the template and the text prefix only).
 */
class PromptImagesPlanTest {

  private static final CachePlan.Server SERVER = new CachePlan.Server(3, true, 1, true);

  /** A shared-prefix prompt with two 28x28 images, the first its group's. */
  private static Prompt prompt(String tokens) {
    return new PromptSource(
            PromptSpec.sharedPrefix(0.5, 4), EstimatedTokenCounter.INSTANCE, 1, "c", "m", 256)
        .withImages(new ImageSpec(2, 1, 28, 28, 28, 28, ImageFormat.PNG), ImageTokens.of(tokens))
        .take(0);
  }

  @Test
  void aRequestSentBeforeTheTokensWereLearntIsJudgedWithThem() {
    Prompt p = prompt("server");
    // sent before any answer: the group prefix is its text's 128 tokens
    CachePlan.Sent sent =
        new CachePlan.Sent(
            PromptMode.SHARED_PREFIX,
            true,
            p.sharedPrefixTokens(),
            p.plannedCount().value(),
            false);
    assertEquals(128, sent.sharedPrefixTokens());
    // the first answer teaches 256 tokens an image
    p.images().tokens().learn(3 + 256 + 2 * 256, 3 + 256, 2);
    CachePlan.Sent again = PromptSender.PromptPart.replanned(sent, p);
    assertEquals(128 + 256, again.sharedPrefixTokens());
    assertEquals(256 + 2 * 256, again.plannedTokens());
    // the server found the template, the group's image and its text prefix: 3 + 256 + 128
    int cached = 3 + 256 + 128;
    int promptTokens = 3 + 256 + 2 * 256;
    assertTrue(CachePlan.of(SERVER, sent, promptTokens, cached).warmStart(cached));
    assertFalse(CachePlan.of(SERVER, again, promptTokens, cached).warmStart(cached));
  }

  @Test
  void aKnownRuleLeavesThePlanAsSent() {
    Prompt p = prompt("256");
    CachePlan.Sent sent =
        new CachePlan.Sent(
            PromptMode.SHARED_PREFIX,
            true,
            p.sharedPrefixTokens(),
            p.plannedCount().value(),
            false);
    assertSame(sent, PromptSender.PromptPart.replanned(sent, p));
    assertEquals(128 + 256, sent.sharedPrefixTokens());
  }
}
