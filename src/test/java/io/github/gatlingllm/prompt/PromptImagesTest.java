package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Generated prompts with images ({@link PromptSource#withImages}). */
class PromptImagesTest {

  /** Three 56x28 PNG images a prompt (2 tokens each with Qwen2-VL's rule), two of the group's. */
  private static final ImageSpec THREE_TWO_SHARED =
      new ImageSpec(3, 2, 56, 56, 28, 28, ImageFormat.PNG);

  private static PromptSource source(PromptSpec spec) {
    return new PromptSource(spec, EstimatedTokenCounter.INSTANCE, 7, "img", "measured", 64);
  }

  private static PromptSource shared(ImageSpec images, String tokens) {
    return source(PromptSpec.sharedPrefix(0.5, 2)).withImages(images, ImageTokens.of(tokens));
  }

  @Test
  void noImagesLeavesTheSourceAsItIs() {
    PromptSource s = source(PromptSpec.unique());
    assertSame(s, s.withImages(ImageSpec.NONE, ImageTokens.of("qwen2-vl")));
  }

  @Test
  void aTextOnlyPromptsDigestIsItsTextsDigest() {
    Prompt p = source(PromptSpec.unique()).take(0);
    assertNull(p.images());
    assertEquals(Prompt.digestOf(p.text()), p.digest());
  }

  @Test
  void thePromptsDigestCoversItsImages() {
    Prompt p = shared(THREE_TWO_SHARED, "qwen2-vl").take(0);
    Prompt textOnly = source(PromptSpec.sharedPrefix(0.5, 2)).take(0);
    assertEquals(textOnly.text(), p.text());
    assertNotEquals(textOnly.digest(), p.digest());
    StringBuilder covered = new StringBuilder(textOnly.digest());
    for (Image image : p.images().images()) {
      covered.append('\n').append(image.sha256());
    }
    assertEquals(Prompt.digestOf(covered.toString()), p.digest());
  }

  @Test
  void twoSourcesOfOneCaseGiveTheSameDigests() {
    PromptSource a = shared(THREE_TWO_SHARED, "qwen2-vl");
    PromptSource b = shared(THREE_TWO_SHARED, "qwen2-vl");
    for (long i = 0; i < 4; i++) {
      assertEquals(a.take(i).digest(), b.take(i).digest());
    }
    assertEquals(a.digest(), b.digest());
  }

  @Test
  void aGroupsRequestsShareItsImagesAndNotTheirOwn() {
    PromptSource s = shared(THREE_TWO_SHARED, "qwen2-vl");
    Prompt first = null;
    Prompt sameGroup = null;
    for (long i = 0; first == null || sameGroup == null; i++) {
      Prompt p = s.take(i);
      if (p.prefixGroup() != 0) {
        continue;
      }
      if (first == null) {
        first = p;
      } else {
        sameGroup = p;
      }
    }
    List<Image> a = first.images().images();
    List<Image> b = sameGroup.images().images();
    assertEquals(2, first.images().shared());
    assertEquals(a.get(0).sha256(), b.get(0).sha256());
    assertEquals(a.get(1).sha256(), b.get(1).sha256());
    assertNotEquals(a.get(2).sha256(), b.get(2).sha256());
    assertNotEquals(a.get(0).sha256(), a.get(1).sha256());
  }

  @Test
  void anotherGroupHasOtherImages() {
    PromptSource s = shared(THREE_TWO_SHARED, "qwen2-vl");
    Prompt g0 = null;
    Prompt g1 = null;
    for (long i = 0; g0 == null || g1 == null; i++) {
      Prompt p = s.take(i);
      if (p.prefixGroup() == 0 && g0 == null) {
        g0 = p;
      } else if (p.prefixGroup() == 1 && g1 == null) {
        g1 = p;
      }
    }
    assertNotEquals(g0.images().images().get(0).sha256(), g1.images().images().get(0).sha256());
  }

  @Test
  void theGroupPrefixAndThePlanCountTheImagesTokens() {
    Prompt p = shared(THREE_TWO_SHARED, "qwen2-vl").take(0);
    Prompt textOnly = source(PromptSpec.sharedPrefix(0.5, 2)).take(0);
    // 56x28: ceil(28/28) * ceil(56/28) = 2 tokens an image
    assertEquals(textOnly.sharedPrefixTokens() + 4, p.sharedPrefixTokens());
    assertEquals(textOnly.sharedPrefixTokens(), p.sharedPrefixTextTokens());
    assertEquals(textOnly.plannedCount().value() + 6, p.plannedCount().value());
  }

  @Test
  void aServerRuleCountsTheImagesOnceLearnt() {
    PromptSource s = shared(THREE_TWO_SHARED, "server");
    Prompt p = s.take(0);
    Prompt textOnly = source(PromptSpec.sharedPrefix(0.5, 2)).take(0);
    assertEquals(textOnly.sharedPrefixTokens(), p.sharedPrefixTokens());
    assertEquals(textOnly.plannedCount().value(), p.plannedCount().value());
    p.images().tokens().learn(1000, 970, 3);
    assertEquals(textOnly.sharedPrefixTokens() + 20, p.sharedPrefixTokens());
    assertEquals(textOnly.plannedCount().value() + 30, p.plannedCount().value());
  }

  @Test
  void aRepeatPromptCarriesTheSameImagesInEveryPhase() {
    PromptSource measured =
        source(PromptSpec.repeat())
            .withImages(
                new ImageSpec(2, 0, 28, 28, 28, 28, ImageFormat.JPEG), ImageTokens.of("qwen2-vl"));
    PromptSource warmup = measured.forPhase("warmup");
    assertEquals(measured.take(0).digest(), measured.take(5).digest());
    assertEquals(measured.take(0).digest(), warmup.take(0).digest());
    assertEquals(2, measured.take(0).images().shared());
  }

  @Test
  void aUniquePromptsImagesAreItsOwn() {
    PromptSource s =
        source(PromptSpec.unique())
            .withImages(
                new ImageSpec(1, 0, 28, 28, 28, 28, ImageFormat.PNG), ImageTokens.of("qwen2-vl"));
    assertNotEquals(
        s.take(0).images().images().get(0).sha256(), s.take(1).images().images().get(0).sha256());
    assertEquals(0, s.take(0).images().shared());
  }

  @Test
  void theWarmupsImagesAreNotTheMeasuredOnes() {
    PromptSource measured =
        source(PromptSpec.unique())
            .withImages(
                new ImageSpec(1, 0, 28, 28, 28, 28, ImageFormat.PNG), ImageTokens.of("qwen2-vl"));
    assertNotEquals(
        measured.take(0).images().images().get(0).sha256(),
        measured.forPhase("warmup").take(0).images().images().get(0).sha256());
  }

  @Test
  void uniquePromptsWithSharedImagesAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                source(PromptSpec.unique())
                    .withImages(
                        new ImageSpec(2, 1, 28, 28, 28, 28, ImageFormat.PNG),
                        ImageTokens.of("qwen2-vl")));
    assertEquals(
        "llm.images.shared: got 1 with llm.promptMode=unique, expected 0 (unique prompts share"
            + " nothing; shared images need shared-prefix prompts, and a repeat prompt's are all"
            + " the same)",
        e.getMessage());
  }

  @Test
  void theSpecRecordNamesTheImages() {
    assertEquals(
        "{mode=shared-prefix, shared_prefix_ratio=0.5, prefix_groups=2, images={count=3,"
            + " shared=2, width=56, height=28, format=png, tokens=qwen2-vl}}",
        shared(THREE_TWO_SHARED, "qwen2-vl").specRecord().toString());
  }
}
