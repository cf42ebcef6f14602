package io.github.gatlingllm.testing;

import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real tokenizers the tests use, loaded once per JVM from {@code .cache/tokenizers/<name>/}
 * (the {@code test.tokenizers} system property), where the build (or {@code
 * scripts/fetch-tokenizers.sh}) puts them. A missing tokenizer fails the test: these cases are
 * never skipped.
 */
public final class TestTokenizers {

  private static final Map<String, HuggingFaceTokenCounter> LOADED = new ConcurrentHashMap<>();

  private TestTokenizers() {}

  /** The folder holding {@code <name>/tokenizer.json}. */
  public static Path folder() {
    return Path.of(System.getProperty("test.tokenizers", ".cache/tokenizers"));
  }

  /** The {@code tokenizer.json} of a named tokenizer, checked to exist. */
  public static Path file(String name) {
    Path file = folder().resolve(name).resolve("tokenizer.json");
    if (!Files.isRegularFile(file)) {
      throw new AssertionError(
          "tokenizer "
              + name
              + " is missing at "
              + file.toAbsolutePath()
              + ": ./mvnw verify fetches it (or run scripts/fetch-tokenizers.sh)");
    }
    return file;
  }

  /** The Qwen3 tokenizer of the conformance vectors. */
  public static HuggingFaceTokenCounter qwen3() {
    return named("qwen3");
  }

  /** A tokenizer by its folder name under {@link #folder()}. */
  public static HuggingFaceTokenCounter named(String name) {
    return LOADED.computeIfAbsent(name, n -> HuggingFaceTokenCounter.load(file(n)));
  }
}
