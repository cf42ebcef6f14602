package io.github.gatlingllm.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ImageSpecTest {

  @Test
  void moreSharedThanImagesIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ImageSpec(2, 3, 512, 512, 512, 512, ImageFormat.PNG));
    assertEquals("llm.images.shared: got 3, expected 0 to llm.images.count (2)", e.getMessage());
  }

  @Test
  void anInvertedRangeIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ImageSpec(1, 0, 600, 500, 512, 512, ImageFormat.PNG));
    assertEquals(
        "llm.images.width: got 600-500, expected pixels from 1 to 8192, or a range MIN-MAX of"
            + " them",
        e.getMessage());
  }

  @Test
  void theRecordGivesARangeAsText() {
    assertEquals(
        Map.of("count", 2, "shared", 1, "width", "256-768", "height", 512, "format", "jpeg"),
        new ImageSpec(2, 1, 256, 768, 512, 512, ImageFormat.JPEG).toRecord());
  }

  @Test
  void jpgIsJpeg() {
    assertEquals(ImageFormat.JPEG, ImageFormat.fromWireName("JPG"));
  }
}
