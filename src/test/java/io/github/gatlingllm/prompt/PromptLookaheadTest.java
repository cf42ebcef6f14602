package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCount;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromptLookaheadTest {

  private final List<Long> builds = new ArrayList<>();

  private Prompt build(long index) {
    if (index >= 100) {
      throw new IllegalArgumentException("row " + index + " is past the end");
    }
    synchronized (builds) {
      builds.add(index);
    }
    return Prompt.of(
        "prompt " + index,
        "p" + index,
        EstimatedTokenCounter.INSTANCE,
        new TokenCount(2, "estimate", false),
        null,
        null);
  }

  @Test
  void theFirstTakeBuildsTheNextDepthAhead() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 4);
    assertNull(ahead.take(0));
    PromptLookahead.awaitIdle();
    assertEquals(List.of(1L, 2L, 3L, 4L), builds);
    assertEquals("prompt 1", ahead.take(1).text());
    assertEquals(3, ahead.builtCount());
  }

  @Test
  void startBuildsTheFirstPromptsBeforeAnyTake() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 3);
    ahead.start(0);
    PromptLookahead.awaitIdle();
    assertEquals(List.of(0L, 1L, 2L), builds);
    assertEquals("prompt 0", ahead.take(0).text());
  }

  @Test
  void aBatchIsQueuedOnlyOnceHalfTheDepthIsTaken() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 4);
    ahead.take(0);
    PromptLookahead.awaitIdle();
    ahead.take(1);
    PromptLookahead.awaitIdle();
    assertEquals(List.of(1L, 2L, 3L, 4L), builds);
    ahead.take(2);
    PromptLookahead.awaitIdle();
    assertEquals(List.of(1L, 2L, 3L, 4L), builds);
    ahead.take(3);
    PromptLookahead.awaitIdle();
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), builds);
  }

  @Test
  void theStrideOfAShardIsFollowed() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 2);
    ahead.take(3);
    PromptLookahead.awaitIdle();
    builds.clear();
    ahead.take(6);
    PromptLookahead.awaitIdle();
    assertEquals(List.of(9L, 12L), builds);
    assertEquals("prompt 9", ahead.take(9).text());
  }

  @Test
  void aBuildThatFailsAheadIsDroppedQuietly() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 4);
    ahead.take(97);
    PromptLookahead.awaitIdle();
    assertEquals(List.of(98L, 99L), builds);
    assertEquals(2, ahead.builtCount());
    assertNull(ahead.take(100));
  }

  @Test
  void theBuiltPromptsStayWithinTheDepth() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 4);
    for (long i = 0; i < 20; i++) {
      ahead.take(i);
      PromptLookahead.awaitIdle();
    }
    // 20, 21 and 22 built (a batch of 20-22 queued at take(18)); 1 to 22 built once each
    assertEquals(3, ahead.builtCount());
    assertEquals(22, builds.size());
  }

  @Test
  void aDepthBelowOneIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new PromptLookahead(this::build, 0));
    assertEquals("depth must be at least 1, got 0", e.getMessage());
  }

  @Test
  void aSourceHandsOutTheSamePromptsAndDigestWithTheLookahead() throws Exception {
    PromptSpec spec = PromptSpec.sharedPrefix(0.5, 2);
    PromptSource ahead =
        new PromptSource(spec, EstimatedTokenCounter.INSTANCE, 11, "case", "measured", 64);
    PromptSource plain =
        new PromptSource(spec, EstimatedTokenCounter.INSTANCE, 11, "case", "measured", 64);
    ahead.warm();
    PromptLookahead.awaitIdle();
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (long i = 0; i < 40; i++) {
      a.add(ahead.take(i).text());
      ahead.forget(i);
      PromptLookahead.awaitIdle();
    }
    // plain: every prompt built by its taker before the lookahead's thread gets to it
    for (long i = 39; i >= 0; i--) {
      b.add(0, plain.take(i).text());
    }
    assertEquals(b, a);
    assertEquals(plain.digest(), ahead.digest());
  }

  @Test
  void aPromptBuiltAheadCarriesItsTextAsAJsonString() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 4);
    ahead.take(0);
    PromptLookahead.awaitIdle();
    assertEquals("\"prompt 1\"", new String(ahead.take(1).takeJson(), StandardCharsets.UTF_8));
  }

  @Test
  void aPromptsJsonStringIsTakenOnceAndNotKept() throws Exception {
    PromptLookahead ahead = new PromptLookahead(this::build, 4);
    ahead.take(0);
    PromptLookahead.awaitIdle();
    Prompt prompt = ahead.take(2);
    prompt.takeJson();
    assertNull(prompt.takeJson());
  }

  @Test
  void aPromptItsTakerBuiltHasNoJsonString() {
    PromptLookahead ahead = new PromptLookahead(this::build, 4);
    assertNull(ahead.take(0));
    assertNull(build(0).takeJson());
  }

  @Test
  void aMessagesRowIsNotPreparedAsAJsonString() throws Exception {
    PromptFile.Row row =
        new PromptFile.Row(
            1,
            "[{\"role\":\"user\",\"content\":\"hi\"}]",
            List.of(new PromptFile.Message("user", "hi")),
            null);
    PromptLookahead ahead =
        new PromptLookahead(
            i -> Prompt.ofRow(row, "row-" + i, EstimatedTokenCounter.INSTANCE, null), 2);
    ahead.take(0);
    PromptLookahead.awaitIdle();
    assertNull(ahead.take(1).takeJson());
  }

  @Test
  void aLoneSurrogateIsEncodedAsTheBodyEncodesIt() {
    assertEquals("\"a?b\"", new String(Prompt.jsonBytes("a\uD83Db"), StandardCharsets.UTF_8));
  }

  @Test
  void theJsonStringEscapesAsJackson() {
    assertEquals(
        "\"q\\\" b\\\\ n\\n t\\t \\u0001 \u00e9 \uD83D\uDE00 \u4f60 a/b\"",
        new String(
            Prompt.jsonBytes("q\" b\\ n\n t\t \u0001 \u00e9 \uD83D\uDE00 \u4f60 a/b"),
            StandardCharsets.UTF_8));
  }
}
