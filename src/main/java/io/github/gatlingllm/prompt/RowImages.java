package io.github.gatlingllm.prompt;

import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.image.PromptImages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Not API. The images a prompts file's row names ({@link PromptFile.Row#images()}): each a data URI
 * ({@code data:image/png;base64,...} or {@code image/jpeg}) or the path of a PNG or JPEG file,
 * relative to the prompts file's folder. Checked when the file is read (a path must name a readable
 * file, a data URI must decode); read when the row's prompt is built, ahead of use, and dropped
 * with it.
 */
final class RowImages {

  private RowImages() {}

  /**
   * Checks a reference without reading a file's bytes.
   *
   * @param promptsFile the prompts file
   * @param ref the reference
   * @throws IllegalArgumentException saying what is wrong with it
   */
  static void check(Path promptsFile, String ref) {
    if (ref.startsWith("data:")) {
      Image.read(dataUri(ref));
      return;
    }
    Path path = path(promptsFile, ref);
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new IllegalArgumentException(
          "no readable file " + path + ", expected a PNG or JPEG file or a data URI");
    }
  }

  /**
   * The images of a row, all after its text.
   *
   * @param promptsFile the prompts file
   * @param refs the row's references, never null nor empty
   * @param tokens the images' token rule
   * @return the images
   * @throws IllegalArgumentException naming a reference that is no PNG or JPEG image
   * @throws UncheckedIOException if a file cannot be read
   */
  static PromptImages load(Path promptsFile, List<String> refs, ImageTokens tokens) {
    List<Image> images = new ArrayList<>(refs.size());
    for (String ref : refs) {
      byte[] bytes;
      if (ref.startsWith("data:")) {
        bytes = dataUri(ref);
      } else {
        Path path = path(promptsFile, ref);
        try {
          bytes = Files.readAllBytes(path);
        } catch (IOException e) {
          throw new UncheckedIOException("prompts file image " + path + ": cannot be read", e);
        }
      }
      try {
        images.add(Image.read(bytes));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "prompts file " + promptsFile + ": image " + ref + ": " + e.getMessage(), e);
      }
    }
    return new PromptImages(images, 0, tokens);
  }

  private static Path path(Path promptsFile, String ref) {
    try {
      Path base = promptsFile.toAbsolutePath().getParent();
      return base == null ? Path.of(ref) : base.resolve(ref);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("not a path: " + e.getMessage(), e);
    }
  }

  private static byte[] dataUri(String ref) {
    int comma = ref.indexOf(',');
    if (!ref.startsWith("data:image/")
        || comma < 0
        || !ref.substring(0, comma).endsWith(";base64")) {
      throw new IllegalArgumentException("a data URI that is not data:image/<type>;base64,<data>");
    }
    try {
      return Base64.getDecoder().decode(ref.substring(comma + 1));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a data URI whose data is not base64", e);
    }
  }
}
