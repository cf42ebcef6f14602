package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.TraceBlocks;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trace's rows with an image count (and size): seeded images after the row's text. */
class TraceImagesTest {

  @TempDir Path dir;

  private Trace trace(String... lines) throws Exception {
    Path p = dir.resolve("t.jsonl");
    Files.write(p, List.of(lines));
    return Trace.read(p, 4);
  }

  private static final String WITH =
      "{\"timestamp\": 0, \"input_length\": 4, \"output_length\": 3, \"hash_ids\": [1],"
          + " \"images\": 2, \"image_width\": 56, \"image_height\": 28}";
  private static final String WITHOUT =
      "{\"timestamp\": 5, \"input_length\": 4, \"output_length\": 3, \"hash_ids\": [1]}";

  @Test
  void aRowSaysItsImagesAndTheirSize() throws Exception {
    Trace t = trace(WITH, WITHOUT);
    assertEquals(2, t.images(0));
    assertEquals(56, t.imageWidth(0));
    assertEquals(28, t.imageHeight(0));
    assertEquals(0, t.images(1));
  }

  @Test
  void aTraceWithoutImagesHasNone() throws Exception {
    Trace t = trace(WITHOUT);
    assertEquals(0, t.images(0));
    assertNull(t.imageShapes);
  }

  @Test
  void theReplayMakesARowsImagesAfterItsText() throws Exception {
    Trace t = trace(WITH, WITHOUT);
    TraceReplay replay =
        new TraceReplay(
            t,
            new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 4),
            1.0,
            "c",
            ImageTokens.of("qwen2-vl"),
            ImageFormat.JPEG);
    Prompt with = replay.source().take(0);
    Prompt without = replay.source().take(1);
    assertEquals(2, with.images().count());
    assertEquals(0, with.images().shared());
    assertEquals(56, with.images().images().get(0).width());
    assertEquals(ImageFormat.JPEG, with.images().images().get(0).format());
    assertNotEquals(with.images().images().get(0).sha256(), with.images().images().get(1).sha256());
    // the same text as the row without images (same hash ids): only the images differ
    assertEquals(without.text(), with.text());
    assertNotEquals(without.digest(), with.digest());
    assertNull(without.images());
    // 56x28 is 2 tokens with Qwen2-VL's rule
    assertEquals(without.plannedCount().value() + 4, with.plannedCount().value());
  }

  @Test
  void tooManyImagesAreRefused() throws Exception {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                trace(
                    "{\"timestamp\": 0, \"input_length\": 4, \"output_length\": 3, \"hash_ids\":"
                        + " [1], \"images\": 65}"));
    assertEquals(true, e.getMessage().contains("images"), e.getMessage());
    assertEquals(true, e.getMessage().contains("0 to 64"), e.getMessage());
  }
}
