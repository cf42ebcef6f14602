package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.examples.QuickstartSimulation;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Prompts with images (issue 45) in the real Gatling engine against the embedded simulator, on each
 * API: the quickstart's shared-prefix prompts, each with two 64x64 images, the first its group's.
 * Every request is recorded with its images and bytes, the cache plan counts the images' tokens
 * (known, Qwen2-VL's rule, or learnt from the server's count) and holds on every request, and
 * {@code llm-run.json} splits the requests by what they carried.
 */
@Tag("forked")
@Tag("parallel")
class ImagesRunsTest {

  @TempDir Path results;

  @ParameterizedTest
  @CsvSource({"chat, qwen2-vl", "responses, qwen2-vl", "messages, qwen2-vl", "chat, server"})
  void imagesAreSentCountedAndCachedAsPlanned(String api, String tokens) throws Exception {
    DslRun run =
        DslRun.run(
            QuickstartSimulation.class,
            results,
            "-Dllm.endpoint=" + api,
            "-Dllm.requests=40",
            "-Dllm.concurrency=4",
            "-Dllm.images.count=2",
            "-Dllm.images.shared=1",
            "-Dllm.images.width=64",
            "-Dllm.images.height=64",
            "-Dllm.images.tokens=" + tokens);
    assertEquals(0, run.exitCode, run.log);
    List<JsonNode> requests = run.requests();
    Set<String> digests = new HashSet<>();
    for (JsonNode r : requests) {
      assertEquals("ok", r.path("status").asText(), r.toString());
      assertEquals(2, r.path("images").asInt(), r.toString());
      assertTrue(r.path("image_bytes").asLong() > 0, r.toString());
      // the body carries both images in base64 (4/3 of their bytes)
      assertTrue(
          r.path("request_bytes").asLong() > r.path("image_bytes").asLong() * 4 / 3, r.toString());
      // 64x64: ceil(64/28)^2 = 9 tokens an image
      assertTrue(r.path("prompt_tokens").asInt() >= 256 + 18, r.toString());
      digests.add(r.path("digest").asText());
    }
    assertEquals(48, digests.size());
    assertTrue(run.log.contains("cache as planned"), run.log);
    JsonNode images = run.record().path("images");
    assertEquals(40, images.path("requests_with_images").asLong(), images.toString());
    assertEquals(0, images.path("requests_text_only").asLong(), images.toString());
    assertEquals(80, images.path("images").asLong(), images.toString());
    assertEquals(40, images.path("with_images").path("ttft_ms").path("count").asLong());
    assertTrue(images.path("with_images").path("upload_ms").path("count").asLong() > 0);
    assertEquals(
        "{\"count\":2,\"shared\":1,\"width\":64,\"height\":64,\"format\":\"png\",\"tokens\":\""
            + tokens
            + "\"}",
        run.record().path("prompts").path("spec").path("images").toString());
    assertTrue(run.log.contains("  images: requests 40 with 80 images"), run.log);
  }

  /**
   * A refusal at the very first request: the run lasts less than a millisecond, Gatling's log
   * reader refuses it ("Run didn't last"), and before the fix that Error ended the run record's
   * termination task, so Gatling never stopped its thread pools and the JVM ran on (this test hung
   * 300 s). It must end at once with the refusal's line.
   */
  @org.junit.jupiter.api.Test
  void completionsWithImagesStopsBeforeAnyRequest() throws Exception {
    DslRun run =
        DslRun.run(
            QuickstartSimulation.class,
            results,
            "-Dllm.endpoint=completions",
            "-Dllm.requests=4",
            "-Dllm.images.count=1");
    run.stopsWithOneLine(
        "llm(\"chat\"): completions takes no images, and its prompts carry them"
            + " (llm.images.count, a prompts file's images); expected llm.endpoint=chat,"
            + " responses or messages");
    assertEquals(List.of(), run.requests());
  }
}
