package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.image.PromptImages;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A prompt's images in each API's body ({@link Dialect#body(RequestSettings, String,
 * PromptImages)}).
 */
class ImageBodiesTest {

  private static final RequestSettings STREAMING =
      RequestSettings.streaming(WireApi.CHAT, "qwen3", 64);

  /** One shared PNG (bytes 1 2 3, base64 AQID) before the text, one JPEG (4 5 6, BAUG) after. */
  private static final PromptImages IMAGES =
      new PromptImages(
          List.of(
              Image.of(ImageFormat.PNG, 1, 1, new byte[] {1, 2, 3}),
              Image.of(ImageFormat.JPEG, 1, 1, new byte[] {4, 5, 6})),
          1,
          ImageTokens.of("qwen2-vl"));

  private static String body(WireApi api) {
    return new String(api.dialect().body(STREAMING, "Hi", IMAGES).joined(), StandardCharsets.UTF_8);
  }

  @Test
  void chatSendsImageUrlPartsWithDataUris() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":["
            + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AQID\"}},"
            + "{\"type\":\"text\",\"text\":\"Hi\"},"
            + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/jpeg;base64,BAUG\"}}"
            + "]}],\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        body(WireApi.CHAT));
  }

  @Test
  void responsesSendsInputImages() {
    assertEquals(
        "{\"model\":\"qwen3\",\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":["
            + "{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64,AQID\"},"
            + "{\"type\":\"input_text\",\"text\":\"Hi\"},"
            + "{\"type\":\"input_image\",\"image_url\":\"data:image/jpeg;base64,BAUG\"}"
            + "]}],\"stream\":true,\"max_output_tokens\":64}",
        body(WireApi.RESPONSES));
  }

  @Test
  void messagesSendsImageBlocksWithABase64Source() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":["
            + "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\","
            + "\"data\":\"AQID\"}},"
            + "{\"type\":\"text\",\"text\":\"Hi\"},"
            + "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/jpeg\","
            + "\"data\":\"BAUG\"}}"
            + "]}],\"stream\":true,\"max_tokens\":64}",
        body(WireApi.MESSAGES));
  }

  @Test
  void eachImageIsSentFromTheArrayItWasBuiltIn() {
    BodyParts body = WireApi.CHAT.dialect().body(STREAMING, "Hi", IMAGES);
    assertEquals(5, body.parts().size());
    assertSame(IMAGES.images().get(0).dataUriBytes(), body.parts().get(1).array());
    assertSame(IMAGES.images().get(1).dataUriBytes(), body.parts().get(3).array());
    assertEquals(body.joined().length, body.length());
  }

  @Test
  void messagesSendsTheBase64WithoutItsPrefix() {
    BodyParts body = WireApi.MESSAGES.dialect().body(STREAMING, "Hi", IMAGES);
    BodyParts.Part image = body.parts().get(1);
    assertSame(IMAGES.images().get(0).dataUriBytes(), image.array());
    assertEquals("data:image/png;base64,".length(), image.offset());
    assertEquals(4, image.length());
  }

  @Test
  void completionsTakesNoImages() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> body(WireApi.COMPLETIONS));
    assertEquals(
        "completions takes no images: prompts with images (llm.images.count, a prompts file's"
            + " images) need chat, responses or messages (llm.endpoint)",
        e.getMessage());
  }

  @Test
  void theTextIsEscapedAsInATextOnlyBody() {
    String body =
        new String(
            WireApi.CHAT.dialect().body(STREAMING, "a \"q\"\n\u00e9", IMAGES).joined(),
            StandardCharsets.UTF_8);
    assertEquals(true, body.contains("{\"type\":\"text\",\"text\":\"a \\\"q\\\"\\n\u00e9\"}"));
  }
}
