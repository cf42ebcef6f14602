package io.github.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gatlingllm.testing.TestTokenizers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromptsCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private record Result(int code, List<String> out, List<String> err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = GatlingLlm.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, lines(out), lines(err));
  }

  private static List<String> lines(StringWriter writer) {
    String text = writer.toString();
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  private static JsonNode vector(String name) throws IOException {
    for (String line :
        Files.readAllLines(Path.of("src/test/resources/conformance/prompt-vectors.jsonl"))) {
      JsonNode node = JSON.readTree(line);
      if (node.get("name").asText().equals(name)) {
        return node;
      }
    }
    throw new AssertionError("no vector " + name);
  }

  /** Runs the command with a vector's settings and compares every line with the vector. */
  private static void checkVector(String name, String tokenizer) throws IOException {
    JsonNode vector = vector(name);
    JsonNode spec = vector.get("spec");
    List<String> args =
        new ArrayList<>(List.of("prompts", "--text", "--mode", spec.get("mode").asText()));
    if (spec.has("shared_prefix_ratio")) {
      args.addAll(
          List.of(
              "--shared-prefix-ratio", spec.get("shared_prefix_ratio").asText(),
              "--prefix-groups", spec.get("prefix_groups").asText()));
    }
    args.addAll(
        List.of(
            "--seed", vector.get("seed").asText(),
            "--case-id", vector.get("case_id").asText(),
            "--phase", vector.get("phase").asText(),
            "--input-tokens", vector.get("input_tokens").asText(),
            "--requests", String.valueOf(vector.get("prompts").size()),
            "--tokenizer", tokenizer));
    Result result = run(args.toArray(String[]::new));
    assertEquals(0, result.code(), String.join("\n", result.err()));
    List<JsonNode> expected = new ArrayList<>();
    vector.get("prompts").forEach(expected::add);
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i), JSON.readTree(result.out().get(i)), name + " line " + i);
    }
    JsonNode summary = JSON.readTree(result.out().get(expected.size()));
    assertEquals(vector.get("phase_digest"), summary.get("phase_digest"));
    assertEquals(vector.get("spec"), summary.get("spec"));
    assertEquals(expected.size() + 1, result.out().size());
  }

  @Test
  void sharedPrefixOutputEqualsTheConformanceVectorWithQwen3() throws IOException {
    checkVector("pub-39", TestTokenizers.file("qwen3").toString());
  }

  @Test
  void uniqueOutputEqualsTheConformanceVectorWithTheEstimate() throws IOException {
    checkVector("pub-7", "estimate");
  }

  @Test
  void repeatOutputEqualsTheConformanceVectorFromATokenizerFolder() throws IOException {
    checkVector("pub-26", TestTokenizers.file("qwen3").getParent().toString());
  }

  @Test
  void summaryNamesEverySettingWithDefaults() throws IOException {
    Result result = run("prompts");
    assertEquals(0, result.code());
    assertEquals(2, result.out().size());
    ObjectNode summary = (ObjectNode) JSON.readTree(result.out().get(1));
    List<String> fields = new ArrayList<>();
    summary.fieldNames().forEachRemaining(fields::add);
    assertEquals(
        List.of(
            "phase_digest",
            "prompts",
            "spec",
            "generator_version",
            "seed",
            "case_id",
            "phase",
            "input_tokens",
            "tokenizer"),
        fields);
    assertEquals(1, summary.get("prompts").asInt());
    assertEquals("repeat", summary.get("spec").get("mode").asText());
    assertEquals(2, summary.get("generator_version").asInt());
    assertEquals(0, summary.get("seed").asLong());
    assertEquals("c1_in512_out128", summary.get("case_id").asText());
    assertEquals("measured", summary.get("phase").asText());
    assertEquals(512, summary.get("input_tokens").asInt());
    assertEquals("estimated", summary.get("tokenizer").get("source").asText());
  }

  @Test
  void caseIdDefaultsFromConcurrencyInputAndOutput() throws IOException {
    Result result =
        run("prompts", "--concurrency", "8", "--input-tokens", "64", "--output-tokens", "16");
    assertEquals("c8_in64_out16", JSON.readTree(result.out().get(1)).get("case_id").asText());
  }

  @Test
  void promptLinesHaveNoTextUnlessAsked() throws IOException {
    JsonNode line = JSON.readTree(run("prompts", "--mode", "unique").out().get(0));
    assertFalse(line.has("text"));
    assertEquals(
        List.of(
            "index",
            "prompt_id",
            "prefix_group",
            "shared_prefix_tokens",
            "planned_tokens",
            "digest"),
        fieldNames(line));
  }

  @Test
  void indicesComeOutInTheOrderGivenAndTheDigestIsByIndex() throws IOException {
    Result given = run("prompts", "--mode", "unique", "--indices", "5,2,9");
    List<Long> order = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      order.add(JSON.readTree(given.out().get(i)).get("index").asLong());
    }
    assertEquals(List.of(5L, 2L, 9L), order);
    Result sorted = run("prompts", "--mode", "unique", "--indices", "2,5,9");
    assertEquals(
        JSON.readTree(sorted.out().get(3)).get("phase_digest"),
        JSON.readTree(given.out().get(3)).get("phase_digest"));
  }

  @Test
  void requestsCoverIndicesFromZero() throws IOException {
    Result requests = run("prompts", "--mode", "unique", "--requests", "3");
    Result indices = run("prompts", "--mode", "unique", "--indices", "0,1,2");
    assertEquals(indices.out(), requests.out());
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static void assertUsage(String expectedError, String... args) {
    Result result = run(args);
    assertEquals(2, result.code());
    assertEquals(List.of(), result.out());
    assertEquals(List.of(expectedError), result.err());
  }

  @Test
  void unknownModeIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --mode: must be one of repeat, unique, shared-prefix, got \"shared\"",
        "prompts",
        "--mode",
        "shared");
  }

  @Test
  void sharedPrefixWithoutRatioIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --shared-prefix-ratio: required with --mode shared-prefix (a number"
            + " in (0, 1))",
        "prompts",
        "--mode",
        "shared-prefix");
  }

  @Test
  void ratioWithoutSharedPrefixIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --shared-prefix-ratio: goes with --mode shared-prefix only, got it"
            + " with --mode unique",
        "prompts",
        "--mode",
        "unique",
        "--shared-prefix-ratio",
        "0.5");
  }

  @Test
  void groupsWithoutSharedPrefixAreAUsageError() {
    assertUsage(
        "gatling-llm prompts: --prefix-groups: goes with --mode shared-prefix only, got it with"
            + " --mode repeat",
        "prompts",
        "--prefix-groups",
        "2");
  }

  @Test
  void ratioOutOfRangeIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --shared-prefix-ratio: must be between 0 and 1 (exclusive), got 1.0",
        "prompts",
        "--mode",
        "shared-prefix",
        "--shared-prefix-ratio",
        "1");
  }

  @Test
  void zeroGroupsAreAUsageError() {
    assertUsage(
        "gatling-llm prompts: --prefix-groups: must be >= 1, got 0",
        "prompts",
        "--mode",
        "shared-prefix",
        "--shared-prefix-ratio",
        "0.5",
        "--prefix-groups",
        "0");
  }

  @Test
  void nonNumericSeedIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: Invalid value for option '--seed': 'x' is not a long",
        "prompts",
        "--seed",
        "x");
  }

  @Test
  void zeroInputTokensAreAUsageError() {
    assertUsage(
        "gatling-llm prompts: --input-tokens: must be >= 1, got 0",
        "prompts",
        "--input-tokens",
        "0");
  }

  @Test
  void inputTokensAboveAnyContextAreAUsageError() {
    // It ran for minutes building a 2e9-token prompt before failing.
    assertUsage(
        "gatling-llm prompts: --input-tokens: must be <= 4194304, got 2000000000",
        "prompts",
        "--input-tokens",
        "2000000000");
  }

  @Test
  void unknownPhaseIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --phase: must be measured or warmup, got \"cooldown\"",
        "prompts",
        "--phase",
        "cooldown");
  }

  @Test
  void zeroRequestsAreAUsageError() {
    assertUsage(
        "gatling-llm prompts: --requests: must be >= 1, got 0", "prompts", "--requests", "0");
  }

  @Test
  void requestsAndIndicesTogetherAreAUsageError() {
    assertUsage(
        "gatling-llm prompts: --indices: give either --requests or --indices, not both",
        "prompts",
        "--requests",
        "2",
        "--indices",
        "1");
  }

  @Test
  void nonNumericIndexIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --indices: \"x\" is not a whole number (expected e.g. 5,2,9)",
        "prompts",
        "--indices",
        "1,x");
  }

  @Test
  void negativeIndexIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --indices: -3 is negative; request indices are >= 0",
        "prompts",
        "--indices",
        "-3");
  }

  @Test
  void missingTokenizerIsAUsageError() {
    assertUsage(
        "gatling-llm prompts: --tokenizer: tokenizer /no/tokenizer.json does not exist: expected a"
            + " Hugging Face tokenizer.json file, or a folder holding one",
        "prompts",
        "--tokenizer",
        "/no/tokenizer.json");
  }

  @Test
  void unknownOptionIsAUsageError() {
    assertUsage("gatling-llm prompts: Unknown option: '--bogus'", "prompts", "--bogus");
  }

  @Test
  void missingCommandIsAUsageError() {
    Result result = run();
    assertEquals(2, result.code());
    assertEquals(1, result.err().size());
    assertTrue(
        result.err().get(0).startsWith("gatling-llm: a command is required"), result.err().get(0));
  }
}
