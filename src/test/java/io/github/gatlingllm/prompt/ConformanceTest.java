package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every conformance vector: the shared set ({@code ../shared/conformance}, when present beside the
 * checkout), its copy in the test resources, and the trap vectors made with the reference
 * generator. Each prompt is taken then forgotten in list order, as the vectors were made.
 */
class ConformanceTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  Stream<DynamicTest> vectors() throws IOException {
    List<Path> files = new ArrayList<>();
    Path shared = Path.of(System.getProperty("test.conformance", "../shared/conformance"));
    if (Files.isRegularFile(shared.resolve("prompt-vectors.jsonl"))) {
      files.add(shared.resolve("prompt-vectors.jsonl"));
    }
    files.add(resource("prompt-vectors.jsonl"));
    files.add(resource("trap-vectors.jsonl"));
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      List<String> lines = Files.readAllLines(file);
      assertFalse(lines.isEmpty(), file + " holds no vectors");
      for (String line : lines) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode vector = JSON.readTree(line);
        String name =
            file.getParent().getFileName()
                + "/"
                + file.getFileName()
                + " "
                + vector.get("name").asText();
        tests.add(DynamicTest.dynamicTest(name, () -> check(vector)));
      }
    }
    return tests.stream();
  }

  private static Path resource(String name) {
    return Path.of("src/test/resources/conformance", name);
  }

  private static void check(JsonNode vector) {
    PromptSource source =
        new PromptSource(
            spec(vector.get("spec")),
            counter(vector.get("counter").asText()),
            vector.get("seed").asLong(),
            vector.get("case_id").asText(),
            vector.get("phase").asText(),
            vector.get("input_tokens").asInt());
    for (JsonNode expected : vector.get("prompts")) {
      long index = expected.get("index").asLong();
      Prompt prompt = source.take(index);
      String at = vector.get("name").asText() + " index " + index;
      assertEquals(expected.get("prompt_id").asText(), prompt.promptId(), at + " prompt_id");
      assertEquals(
          nullableInt(expected.get("prefix_group")), prompt.prefixGroup(), at + " prefix_group");
      assertEquals(
          nullableInt(expected.get("shared_prefix_tokens")),
          prompt.sharedPrefixTokens(),
          at + " shared_prefix_tokens");
      assertEquals(
          expected.get("planned_tokens").asInt(),
          prompt.plannedCount().value(),
          at + " planned_tokens");
      if (expected.has("text")) {
        assertEquals(expected.get("text").asText(), prompt.text(), at + " text");
      }
      assertEquals(expected.get("digest").asText(), prompt.digest(), at + " digest");
      source.forget(index);
    }
    assertEquals(
        vector.get("phase_digest").asText(), source.digest(), vector.get("name") + " phase_digest");
  }

  static PromptSpec spec(JsonNode record) {
    PromptMode mode = PromptMode.fromWireName(record.get("mode").asText());
    JsonNode ratio = record.get("shared_prefix_ratio");
    JsonNode groups = record.get("prefix_groups");
    return new PromptSpec(
        mode,
        ratio == null || ratio.isNull() ? null : ratio.asDouble(),
        groups == null || groups.isNull() ? null : groups.asInt());
  }

  static TokenCounter counter(String name) {
    if (name.equals("estimated")) {
      return EstimatedTokenCounter.INSTANCE;
    }
    if (name.startsWith("huggingface:")) {
      return TestTokenizers.named(name.substring("huggingface:".length()));
    }
    throw new AssertionError("unknown counter in a vector: " + name);
  }

  private static Integer nullableInt(JsonNode node) {
    return node == null || node.isNull() ? null : node.asInt();
  }
}
