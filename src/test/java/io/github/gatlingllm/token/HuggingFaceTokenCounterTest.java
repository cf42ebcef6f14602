package io.github.gatlingllm.token;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.testing.TestTokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the real Qwen3 and GPT-4o tokenizer files of the conformance README. */
class HuggingFaceTokenCounterTest {

  @TempDir Path temp;

  @Test
  void countsWithoutSpecialTokens() {
    // Qwen3 adds no BOS; "<|im_start|>" in the text is one special token.
    assertEquals(1, TestTokenizers.qwen3().count("<|im_start|>"));
  }

  @Test
  void countsFillerWordsOneTokenEachAfterASpace() {
    assertEquals(3, TestTokenizers.qwen3().count(" profile inference latency"));
  }

  @Test
  void countAllEqualsCountingEachText() {
    HuggingFaceTokenCounter qwen3 = TestTokenizers.qwen3();
    String[] texts = {"[0a1b2c3d4e5f]", "", "日本語 🚀", "[ffffffffffff]", " profile inference"};
    int[] each = new int[texts.length];
    for (int i = 0; i < texts.length; i++) {
      each[i] = qwen3.count(texts[i]);
    }
    assertArrayEquals(each, qwen3.countAll(texts));
  }

  @Test
  void emptyTextIsZeroTokens() {
    assertEquals(0, TestTokenizers.qwen3().count(""));
  }

  @Test
  void countTextIsExactWithSource() {
    TokenCount count = TestTokenizers.qwen3().countText("hello world");
    assertEquals(new TokenCount(2, "huggingface", true), count);
  }

  @Test
  void doesNotTruncateLongTexts() {
    String text = " profile".repeat(20_000);
    assertEquals(20_000, TestTokenizers.qwen3().count(text));
  }

  @Test
  void tokenIdsRoundTripThroughDecode() {
    HuggingFaceTokenCounter qwen3 = TestTokenizers.qwen3();
    String text = "naïve 日本語 🚀 code\r\n  x = 1";
    long[] ids = qwen3.tokenIds(text);
    assertEquals(ids.length, qwen3.count(text));
    assertEquals(text, qwen3.decode(ids));
  }

  @Test
  void sameFileSameIds() {
    HuggingFaceTokenCounter again = HuggingFaceTokenCounter.load(TestTokenizers.file("qwen3"));
    try (again) {
      assertArrayEquals(
          TestTokenizers.qwen3().tokenIds("[a1b2c3] profile"), again.tokenIds("[a1b2c3] profile"));
    }
  }

  @Test
  void otherVocabularyCountsDifferently() {
    String text = "antidisestablishmentarianism 日本語のテキスト";
    HuggingFaceTokenCounter gpt4o = TestTokenizers.named("gpt4o");
    assertTrue(gpt4o.count(text) > 0);
    assertTrue(
        gpt4o.count(text) != TestTokenizers.qwen3().count(text)
            || !java.util.Arrays.equals(
                gpt4o.tokenIds(text), TestTokenizers.qwen3().tokenIds(text)));
  }

  @Test
  void identityNamesFileHashLibraryAndChatTemplate() {
    var identity = TestTokenizers.qwen3().identity();
    assertEquals(
        List.of(
            "source",
            "exact",
            "name",
            "path",
            "sha256",
            "library",
            "library_version",
            "chat_template_digest"),
        List.copyOf(identity.keySet()));
    assertEquals("huggingface", identity.get("source"));
    assertEquals(true, identity.get("exact"));
    assertEquals("qwen3/tokenizer.json", identity.get("name"));
    assertEquals(
        "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4", identity.get("sha256"));
    assertEquals("ai.djl.huggingface:tokenizers", identity.get("library"));
    assertEquals("0.38.0", identity.get("library_version"));
    assertEquals("87a2728cb8dc9fe4", identity.get("chat_template_digest"));
  }

  @Test
  void loadsFromAFolderHoldingTokenizerJson() {
    Path folder = TestTokenizers.file("qwen3").getParent();
    try (HuggingFaceTokenCounter counter = HuggingFaceTokenCounter.load(folder)) {
      assertEquals(TestTokenizers.file("qwen3").toAbsolutePath().normalize(), counter.file());
    }
  }

  @Test
  void noChatTemplateGivesNullDigest() throws IOException {
    Path copy = temp.resolve("tokenizer.json");
    Files.copy(TestTokenizers.file("qwen3"), copy);
    try (HuggingFaceTokenCounter counter = HuggingFaceTokenCounter.load(copy)) {
      assertEquals(null, counter.identity().get("chat_template_digest"));
    }
  }

  @Test
  void missingPathNamesItAndWhatWasExpected() {
    Path missing = temp.resolve("nope/tokenizer.json");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HuggingFaceTokenCounter.load(missing));
    assertEquals(
        "tokenizer "
            + missing
            + " does not exist: expected a Hugging Face tokenizer.json file, or a folder holding"
            + " one",
        e.getMessage());
  }

  @Test
  void folderWithoutTokenizerJsonIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HuggingFaceTokenCounter.load(temp));
    assertEquals(
        "tokenizer folder "
            + temp
            + " holds no tokenizer.json: expected a Hugging Face tokenizer.json file, or a folder"
            + " holding one",
        e.getMessage());
  }

  @Test
  void nonJsonFileIsRejected() throws IOException {
    Path file = Files.writeString(temp.resolve("tokenizer.json"), "not json at all");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HuggingFaceTokenCounter.load(file));
    assertTrue(e.getMessage().startsWith("tokenizer " + file + " is not JSON ("), e.getMessage());
    assertTrue(
        e.getMessage().endsWith("): expected a Hugging Face tokenizer.json"), e.getMessage());
  }

  @Test
  void jsonWithoutModelIsRejected() throws IOException {
    Path file = Files.writeString(temp.resolve("tokenizer.json"), "{\"version\": \"1.0\"}");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HuggingFaceTokenCounter.load(file));
    assertEquals(
        "tokenizer " + file + " has no \"model\" object: expected a Hugging Face tokenizer.json",
        e.getMessage());
  }

  @Test
  void brokenTokenizerJsonIsRejectedByTheLibrary() throws IOException {
    Path file =
        Files.writeString(
            temp.resolve("tokenizer.json"), "{\"model\": {\"type\": \"NoSuchModel\"}}");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HuggingFaceTokenCounter.load(file));
    assertTrue(
        e.getMessage()
            .startsWith(
                "tokenizer "
                    + file
                    + " is not a Hugging Face tokenizer.json the tokenizers library can load: "),
        e.getMessage());
  }

  @Test
  void closedCounterRefusesToCount() {
    HuggingFaceTokenCounter counter = HuggingFaceTokenCounter.load(TestTokenizers.file("qwen3"));
    counter.close();
    counter.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> counter.count("x"));
    assertEquals("tokenizer " + counter.file() + " is closed", e.getMessage());
  }

  @Test
  void countsConcurrentlyAsAlone() throws Exception {
    HuggingFaceTokenCounter qwen3 = TestTokenizers.qwen3();
    List<String> texts =
        List.of("[0a1b2c3d4e5f] profile inference", "日本語 text", "x y ".repeat(2000));
    int[] alone = texts.stream().mapToInt(qwen3::count).toArray();
    var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      var futures = new java.util.ArrayList<java.util.concurrent.Future<int[]>>();
      for (int t = 0; t < 8; t++) {
        futures.add(
            pool.submit(
                () -> {
                  int[] counts = new int[texts.size()];
                  for (int round = 0; round < 200; round++) {
                    for (int i = 0; i < texts.size(); i++) {
                      counts[i] = qwen3.count(texts.get(i));
                    }
                  }
                  return counts;
                }));
      }
      for (var future : futures) {
        assertArrayEquals(alone, future.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
