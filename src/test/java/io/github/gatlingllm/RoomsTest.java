package io.github.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rooms' one-way rule at its top: the API package (the DSL users call) builds the rooms below
 * it, and no room imports it back, as Gatling's core never imports its Java DSL. Read from the
 * sources, comments left out.
 */
class RoomsTest {

  private static final Path MAIN = Path.of("src/main/java/io/github/gatlingllm");

  /** A name of the API package: {@code io.github.gatlingllm.} and a capitalised type name. */
  private static final Pattern API_NAME = Pattern.compile("io\\.github\\.gatlingllm\\.[A-Z]\\w*");

  private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

  @Test
  void noRoomImportsTheApiPackage() throws IOException {
    List<String> found;
    try (Stream<Path> files = Files.walk(MAIN)) {
      found =
          files
              .filter(f -> f.toString().endsWith(".java"))
              .filter(f -> !f.getParent().equals(MAIN))
              .flatMap(RoomsTest::apiNames)
              .sorted()
              .toList();
    }
    assertEquals(List.of(), found);
  }

  private static Stream<String> apiNames(Path file) {
    String code;
    try {
      code = COMMENTS.matcher(Files.readString(file)).replaceAll("");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Stream.Builder<String> names = Stream.builder();
    Matcher m = API_NAME.matcher(code);
    while (m.find()) {
      names.add(MAIN.relativize(file) + ": " + m.group());
    }
    return names.build();
  }
}
