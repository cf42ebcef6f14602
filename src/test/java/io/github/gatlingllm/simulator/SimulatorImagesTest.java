package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageGenerator;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.image.PromptImages;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator's images: each of the three APIs' image parts counted as Qwen2-VL counts them and
 * cached by the image's bytes. Text counted with the estimate (a token a word; the template adds
 * {@code <|im_start|>user} and {@code <|im_start|>assistant}). A 512x512 image is 361 tokens, and
 * the prompt below 1 + 361 + 41 = 403; a block is 16 tokens.
 */
class SimulatorImagesTest {

  private static final ImageSpec SIDE_512 =
      new ImageSpec(1, 0, 512, 512, 512, 512, ImageFormat.PNG);
  private static final Image A = ImageGenerator.generate("test:a", SIDE_512);
  private static final Image B = ImageGenerator.generate("test:b", SIDE_512);

  private Simulator simulator;

  @BeforeEach
  void start() {
    simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0);
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  private static String words(int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(i == 0 ? "" : " ").append("w").append(i);
    }
    return s.toString();
  }

  /** {prompt tokens, cached tokens} of a non-streamed request with one image before 40 words. */
  private int[] send(WireApi api, Image image) throws Exception {
    RequestSettings settings =
        new RequestSettings(api, "m", 4, "max_tokens", false, true, null, null, null);
    byte[] body =
        api.dialect()
            .body(
                settings,
                words(40),
                new PromptImages(List.of(image), 1, ImageTokens.of("qwen2-vl")))
            .joined();
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/" + api.path()))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    JsonNode usage = new ObjectMapper().readTree(response.body()).path("usage");
    return switch (api) {
      case RESPONSES ->
          new int[] {
            usage.path("input_tokens").asInt(),
            usage.path("input_tokens_details").path("cached_tokens").asInt()
          };
      case MESSAGES ->
          new int[] {
            usage.path("input_tokens").asInt() + usage.path("cache_read_input_tokens").asInt(),
            usage.path("cache_read_input_tokens").asInt()
          };
      default ->
          new int[] {
            usage.path("prompt_tokens").asInt(),
            usage.path("prompt_tokens_details").path("cached_tokens").asInt()
          };
    };
  }

  private void countsAndCaches(WireApi api) throws Exception {
    int[] first = send(api, A);
    int[] again = send(api, A);
    int[] other = send(api, B);
    assertEquals(403, first[0]);
    assertEquals(0, first[1]);
    assertEquals(403, again[0]);
    assertEquals(400, again[1]);
    assertEquals(403, other[0]);
    assertEquals(0, other[1]);
  }

  @Test
  void chatImageUrlPartsAreCountedAndCached() throws Exception {
    countsAndCaches(WireApi.CHAT);
  }

  @Test
  void responsesInputImagesAreCountedAndCached() throws Exception {
    countsAndCaches(WireApi.RESPONSES);
  }

  @Test
  void messagesImageBlocksAreCountedAndCached() throws Exception {
    countsAndCaches(WireApi.MESSAGES);
  }

  @Test
  void aUrlThatIsNoDataUriIsRefused() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/chat/completions"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"m\",\"max_tokens\":4,\"messages\":[{\"role\":\"user\","
                                + "\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":"
                                + "\"https://example.com/a.png\"}}]}]}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(400, response.statusCode());
    assertTrue(
        response.body().contains("must be a data URI, data:image/<type>;base64,<data>"),
        response.body());
  }

  @Test
  void bytesThatAreNoImageAreRefused() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/chat/completions"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"m\",\"max_tokens\":4,\"messages\":[{\"role\":\"user\","
                                + "\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":"
                                + "\"data:image/png;base64,AQID\"}}]}]}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(400, response.statusCode());
    assertTrue(
        response.body().contains("is not a PNG, JPEG, GIF or BMP image the simulator can read"),
        response.body());
  }
}
