package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gatlingllm.api.DialectClient;
import io.github.gatlingllm.api.DialectClient.Result;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 45's real server: llama.cpp serving images through a multimodal projector, over plain HTTP
 * with the product's own stream parsers ({@link DialectClient}). The server is {@code
 * scripts/llama-server.sh start-vision}: the random-weight Qwen3-vocabulary model with a projector
 * of random weights ({@code scripts/llama-model.py --mmproj}: LLaVA-1.5 style, clip type {@code
 * mlp}, a tiny CLIP tower of 224 px images and 14 px patches, so every image is {@value
 * #IMAGE_TOKENS} tokens whatever its size). One slot.
 *
 * <p>Checked: a streamed chat request with an {@code image_url} part (a PNG data URI) is answered
 * 200 and streamed to its end; {@code usage.prompt_tokens} counts the image as {@value
 * #IMAGE_TOKENS} tokens (the same request without the image has exactly that many fewer); a second
 * request whose prompt starts with the same image (then other text) reads the image from the
 * server's prefix cache, and one with another image in its place does not (the cache holds the
 * image's bytes, not its place); an identical request reads all but its last token. The Responses
 * API's {@code input_image} and the Messages API's base64 {@code image} block are accepted and
 * counted the same way, and an image sent on one API is found in the cache by the next request on
 * another (all three template to the same prompt). Images are noise of a fresh seed, so no earlier
 * run's cache holds them.
 *
 * <p>Runs when {@code LLAMA_VISION_BASE_URL} (environment, as {@code .ci/run} exports it) or {@code
 * -Dllm.it.llamaVisionBaseUrl} names the server's {@code /v1} URL; skipped otherwise, except with
 * {@code CI=true}, where a missing server fails.
 */
@Tag("forked")
class LlamaImagesTest {

  private static final Logger LOG = LoggerFactory.getLogger(LlamaImagesTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Tokens an image costs with the projector of {@code llama-model.py --mmproj}: (224/14)². */
  static final int IMAGE_TOKENS = 256;

  private static String baseUrl;

  @BeforeAll
  static void server() {
    String url =
        System.getProperty("llm.it.llamaVisionBaseUrl", System.getenv("LLAMA_VISION_BASE_URL"));
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no llama.cpp image server is named (LLAMA_VISION_BASE_URL or"
                + " -Dllm.it.llamaVisionBaseUrl): .ci/run starts one with"
                + " scripts/llama-server.sh start-vision");
      }
      Assumptions.abort(
          "no llama.cpp image server: set LLAMA_VISION_BASE_URL (eval \"$(scripts/llama-server.sh"
              + " start-vision)\"; export LLAMA_VISION_BASE_URL) to run these tests");
    }
    baseUrl = url.endsWith("/") ? url : url + "/";
  }

  /** A PNG data URI of {@code size} x {@code size} pixels of seeded noise. */
  static String png(long seed, int size) throws Exception {
    return image(seed, size, "png");
  }

  /** A data URI of {@code size} x {@code size} pixels of seeded noise, as PNG or JPEG. */
  static String image(long seed, int size, String format) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < size; y++) {
      for (int x = 0; x < size; x++) {
        image.setRGB(x, y, random.nextInt(1 << 24));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertTrue(ImageIO.write(image, format, out), "no " + format + " writer");
    return "data:image/"
        + format
        + ";base64,"
        + Base64.getEncoder().encodeToString(out.toByteArray());
  }

  /**
   * A streamed chat body of one user message: the image (when not null) then the text, as an image
   * shared by a group sits at the start of the prompt.
   */
  private static String chat(String image, String text, int maxTokens) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", "qwen3-vocab-random-vision");
    body.put("stream", true);
    body.putObject("stream_options").put("include_usage", true);
    body.put("max_tokens", maxTokens);
    body.put("ignore_eos", true);
    ObjectNode user = body.putArray("messages").addObject();
    user.put("role", "user");
    ArrayNode content = user.putArray("content");
    if (image != null) {
      content.addObject().put("type", "image_url").putObject("image_url").put("url", image);
    }
    content.addObject().put("type", "text").put("text", text);
    return body.toString();
  }

  /** A streamed Responses body: {@code input_image} (when not null) then {@code input_text}. */
  private static String responses(String image, String text, int maxTokens) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", "qwen3-vocab-random-vision");
    body.put("stream", true);
    body.put("max_output_tokens", maxTokens);
    body.put("ignore_eos", true);
    ObjectNode user = body.putArray("input").addObject();
    user.put("role", "user");
    ArrayNode content = user.putArray("content");
    if (image != null) {
      content.addObject().put("type", "input_image").put("image_url", image);
    }
    content.addObject().put("type", "input_text").put("text", text);
    return body.toString();
  }

  /** A Messages body, not streamed: a base64 {@code image} block, then a text block. */
  private static String messages(String image, String text, int maxTokens) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", "qwen3-vocab-random-vision");
    body.put("max_tokens", maxTokens);
    body.put("ignore_eos", true);
    ObjectNode user = body.putArray("messages").addObject();
    user.put("role", "user");
    ArrayNode content = user.putArray("content");
    String[] uri = image.substring("data:".length()).split(";base64,", 2);
    ObjectNode source = content.addObject().put("type", "image").putObject("source");
    source.put("type", "base64").put("media_type", uri[0]).put("data", uri[1]);
    content.addObject().put("type", "text").put("text", text);
    return body.toString();
  }

  private static Result send(String body, int outputTokens) throws Exception {
    return send(WireApi.CHAT, body, outputTokens);
  }

  private static Result send(WireApi api, String body, int outputTokens) throws Exception {
    Result r = DialectClient.send(baseUrl, api, body, null, true);
    if (r.status() != 200) {
      fail(api + " answered " + r.status() + ": " + r.body());
    }
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome(), r.timings().streamError());
    assertTrue(r.timings().promptTokensExact(), "no usage in the stream");
    assertEquals(outputTokens, r.timings().completionTokens());
    return r;
  }

  private static String text(String nonce) {
    StringBuilder p = new StringBuilder(nonce);
    for (int i = 0; i < 20; i++) {
      p.append(" word").append(i % 7).append(" of the question");
    }
    return p.toString();
  }

  private static void log(String what, Result r) {
    LOG.info(
        "llama.cpp image server, {}: prompt {} tokens, cached {}, TTFT {} ms",
        what,
        r.timings().promptTokens(),
        r.timings().cachedTokens(),
        r.timings().ttftMs());
  }

  @Test
  void chatAcceptsPngAndJpegImagesAndCountsEachAs256PromptTokens() throws Exception {
    long seed = System.nanoTime();
    String words = text("t" + seed);
    Result textOnly = send(chat(null, words, 4), 4);
    Result withImage = send(chat(png(seed, 64), words, 4), 4);
    log("text only", textOnly);
    log("the same text after a 64 px PNG", withImage);
    assertEquals(
        textOnly.timings().promptTokens() + IMAGE_TOKENS, withImage.timings().promptTokens());
    // a JPEG of another size: resized to the projector's 224 px, the same count
    Result jpeg = send(chat(image(seed, 500, "jpeg"), words, 4), 4);
    log("the same text after a 500 px JPEG", jpeg);
    assertEquals(withImage.timings().promptTokens(), jpeg.timings().promptTokens());
  }

  @Test
  void aRepeatedImageIsReadFromTheCacheAndAnotherInItsPlaceIsNot() throws Exception {
    long seed = System.nanoTime();
    String image = png(seed, 224);
    Result first = send(chat(image, text("a" + seed), 4), 4);
    // the same image, other text: the template's header and the image are cached
    Result sameImage = send(chat(image, text("b" + seed), 4), 4);
    // another image in its place: only the header
    Result otherImage = send(chat(png(seed + 1, 224), text("b" + seed), 4), 4);
    // the same request again: all but its last token (llama.cpp always evaluates it again)
    Result again = send(chat(png(seed + 1, 224), text("b" + seed), 4), 4);
    log("first image", first);
    log("the same image, other text", sameImage);
    log("another image, the same text", otherImage);
    log("the same request again", again);
    // "<|im_start|>user\n" is 3 tokens: the header every chat prompt of this template starts with
    int header = 3;
    assertEquals(header + IMAGE_TOKENS, sameImage.timings().cachedTokens());
    assertEquals(header, otherImage.timings().cachedTokens());
    assertEquals(again.timings().promptTokens() - 1, again.timings().cachedTokens());
  }

  @Test
  void responsesAndMessagesAcceptImagesCountThemAndFindTheCacheChatWouldFind() throws Exception {
    long seed = System.nanoTime();
    String image = png(seed, 224);
    String words = text("r" + seed);
    Result textOnly = send(WireApi.RESPONSES, responses(null, words, 4), 4);
    Result withImage = send(WireApi.RESPONSES, responses(image, words, 4), 4);
    log("Responses, text only", textOnly);
    log("Responses, the same text after an input_image", withImage);
    assertEquals(
        textOnly.timings().promptTokens() + IMAGE_TOKENS, withImage.timings().promptTokens());
    assertEquals(3, withImage.timings().cachedTokens());
    // Messages (not streamed: llama.cpp can leave out message_start, the stream's only usage),
    // the same image and other text: the header and the image the Responses request left
    Result m =
        DialectClient.send(
            baseUrl, WireApi.MESSAGES, messages(image, text("m" + seed), 4), null, false);
    assertEquals(200, m.status(), m.body());
    JsonNode usage = JSON.readTree(m.body()).get("usage");
    LOG.info("llama.cpp image server, Messages, the same image, other text: usage {}", usage);
    assertEquals(3 + IMAGE_TOKENS, usage.get("cache_read_input_tokens").asInt());
    assertEquals(
        withImage.timings().promptTokens(),
        usage.get("cache_read_input_tokens").asInt() + usage.get("input_tokens").asInt());
    assertEquals(4, usage.get("output_tokens").asInt());
  }
}
