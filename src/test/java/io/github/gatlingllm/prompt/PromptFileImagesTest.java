package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageGenerator;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A prompts file's rows with images: paths beside the file, or data URIs. */
class PromptFileImagesTest {

  @TempDir Path dir;

  private static final Image PNG =
      ImageGenerator.generate("file:png", new ImageSpec(1, 0, 56, 56, 28, 28, ImageFormat.PNG));
  private static final Image JPEG =
      ImageGenerator.generate("file:jpeg", new ImageSpec(1, 0, 28, 28, 28, 28, ImageFormat.JPEG));

  private Path file(String jsonl) throws Exception {
    Files.write(dir.resolve("shot.png"), PNG.encoded());
    Path f = dir.resolve("prompts.jsonl");
    Files.writeString(f, jsonl);
    return f;
  }

  private static PromptSource source(PromptFile file) {
    return PromptSource.ofFile(
        file, EstimatedTokenCounter.INSTANCE, 0, "f", "measured", false, false);
  }

  @Test
  void aRowsImagesAreReadFromItsPathsAndDataUris() throws Exception {
    Path f =
        file(
            "{\"prompt\": \"What is on screen?\", \"images\": [\"shot.png\", \""
                + JPEG.dataUri()
                + "\"]}\n{\"prompt\": \"No image\"}\n");
    PromptFile file = PromptFile.read(f, PromptFile.DEFAULT_COLUMN);
    assertEquals(List.of("shot.png", JPEG.dataUri()), file.rows().get(0).images());
    Prompt p = source(file).take(0);
    assertEquals(PNG.sha256(), p.images().images().get(0).sha256());
    assertEquals(JPEG.sha256(), p.images().images().get(1).sha256());
    assertEquals(0, p.images().shared());
    assertEquals(
        Prompt.digestOf(
            Prompt.digestOf("What is on screen?") + "\n" + PNG.sha256() + "\n" + JPEG.sha256()),
        p.digest());
    Prompt plain = source(file).take(1);
    assertNull(plain.images());
    assertEquals(Prompt.digestOf("No image"), plain.digest());
  }

  @Test
  void aMissingImageFileIsRefusedWhenTheFileIsRead() throws Exception {
    Path f = file("{\"prompt\": \"x\", \"images\": [\"gone.png\"]}\n");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PromptFile.read(f, PromptFile.DEFAULT_COLUMN));
    assertEquals(
        "prompts file "
            + f
            + " line 1: image \"gone.png\": no readable file "
            + dir.resolve("gone.png").toAbsolutePath()
            + ", expected a PNG or JPEG file or a data URI",
        e.getMessage());
  }

  @Test
  void imagesWithMessagesAreRefused() throws Exception {
    Path f =
        file(
            "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"images\":"
                + " [\"shot.png\"]}\n");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PromptFile.read(f, PromptFile.DEFAULT_COLUMN));
    assertEquals(
        "prompts file "
            + f
            + " line 1: \"images\" with \"messages\", expected them with a \"prompt\" row (its"
            + " images are sent after its text)",
        e.getMessage());
  }
}
