package io.github.gatlingllm.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ImageTokensTest {

  @Test
  void qwen2VlCountsA28PixelTileAToken() {
    assertEquals(361, ImageTokens.of("qwen2-vl").tokens(512, 512));
    assertEquals(88, ImageTokens.of("qwen2-vl").tokens(300, 200));
    assertEquals(1, ImageTokens.of("qwen2-vl").tokens(1, 1));
  }

  @Test
  void qwen3VlCountsA32PixelTileAToken() {
    assertEquals(256, ImageTokens.of("qwen3-vl").tokens(512, 512));
  }

  @Test
  void llavaIs576AnImage() {
    assertEquals(576, ImageTokens.of("llava").tokens(1024, 64));
  }

  @Test
  void gemma3Is256AnImage() {
    assertEquals(256, ImageTokens.of("GEMMA3").tokens(896, 896));
  }

  @Test
  void aNumberIsThatManyAnImage() {
    assertEquals(77, ImageTokens.of("77").tokens(10, 10));
    assertEquals("77", ImageTokens.of(" 77 ").name());
  }

  @Test
  void unsetLearnsFromTheServer() {
    ImageTokens rule = ImageTokens.of(null);
    assertTrue(rule.learns());
    assertEquals("server", rule.name());
    assertNull(rule.tokens(512, 512));
  }

  @Test
  void theFirstRequestTeachesTheTokensAnImage() {
    ImageTokens rule = ImageTokens.of("server");
    // 800 prompt tokens, 78 of them the template's and the text's, two images
    assertEquals(361, rule.learn(800, 78, 2));
    assertEquals(361, rule.tokens(512, 512));
    assertEquals(361, rule.learn(900, 78, 2));
  }

  @Test
  void aCountWithoutRoomForTheImagesTeachesNothing() {
    ImageTokens rule = ImageTokens.of("server");
    assertNull(rule.learn(80, 78, 3));
    assertNull(rule.tokens(512, 512));
  }

  @Test
  void aKnownRuleLearnsNothing() {
    ImageTokens rule = ImageTokens.of("llava");
    assertFalse(rule.learns());
    assertNull(rule.learn(800, 78, 2));
    assertEquals(576, rule.tokens(512, 512));
  }

  @Test
  void anUnknownNameIsRefusedWithTheAllowedOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ImageTokens.of("clip"));
    assertEquals(
        "llm.images.tokens: got \"clip\", expected one of qwen2-vl, qwen3-vl, llava, gemma3,"
            + " server or a whole number of tokens an image (at least 1)",
        e.getMessage());
  }

  @Test
  void zeroIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ImageTokens.of("0"));
  }
}
