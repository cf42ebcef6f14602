package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageSpec;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ImageSettingsTest {

  private static ImageSettings read(Map<String, String> values, String... properties) {
    Properties p = new Properties();
    for (int i = 0; i < properties.length; i += 2) {
      p.setProperty(properties[i], properties[i + 1]);
    }
    return ImageSettings.from(p, values);
  }

  private static String refused(String name, String value) {
    return assertThrows(IllegalArgumentException.class, () -> read(Map.of(), name, value))
        .getMessage();
  }

  @Test
  void unsetIsTextOnly() {
    ImageSettings s = read(Map.of());
    assertEquals(new ImageSpec(0, 0, 512, 512, 512, 512, ImageFormat.PNG), s.spec());
    assertEquals("server", s.tokenRule().name());
  }

  @Test
  void aPropertyWinsOverTheBuilder() {
    ImageSettings s =
        read(
            Map.of("images.count", "1", "images.format", "png"),
            "llm.images.count",
            "3",
            "llm.images.shared",
            "2",
            "llm.images.width",
            "256-768",
            "llm.images.format",
            "JPG",
            "llm.images.tokens",
            "llava");
    assertEquals(new ImageSpec(3, 2, 256, 768, 512, 512, ImageFormat.JPEG), s.spec());
    assertEquals(576, s.tokenRule().tokens(1, 1));
  }

  @Test
  void aNegativeCountIsRefused() {
    assertEquals(
        "llm.images.count: got \"-1\", expected a whole number from 0 to 64",
        refused("llm.images.count", "-1"));
  }

  @Test
  void moreSharedThanImagesIsRefused() {
    assertEquals(
        "llm.images.shared: got \"1\", expected a whole number from 0 to llm.images.count (0)",
        refused("llm.images.shared", "1"));
  }

  @Test
  void aSideOutOfRangeIsRefused() {
    assertEquals(
        "llm.images.height: got \"0\", expected pixels from 1 to 8192, or a seeded range MIN-MAX"
            + " of them",
        refused("llm.images.height", "0"));
  }

  @Test
  void aSideThatIsNoNumberIsRefused() {
    assertEquals(
        "llm.images.width: got \"wide\", expected pixels from 1 to 8192, or a seeded range"
            + " MIN-MAX of them",
        refused("llm.images.width", "wide"));
  }

  @Test
  void anotherFormatIsRefused() {
    assertEquals(
        "llm.images.format: got \"webp\", expected png or jpeg",
        refused("llm.images.format", "webp"));
  }

  @Test
  void anUnknownProcessorIsRefused() {
    assertEquals(
        "llm.images.tokens: got \"clip\", expected one of qwen2-vl, qwen3-vl, llava, gemma3,"
            + " server or a whole number of tokens an image (at least 1)",
        refused("llm.images.tokens", "clip"));
  }

  @Test
  void everyImageSettingIsKnown() {
    for (String name : ImageSettings.NAMES) {
      assertEquals(true, LlmSettings.KNOWN.contains(name), name);
    }
  }
}
