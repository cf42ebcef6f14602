package io.github.gatlingllm.bench;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageGenerator;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.image.PromptImages;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * CPU of building a request body with two 512x512 images (built ahead, as prompts are) against the
 * same request's text alone (issue 45's target: at most 1.2x), on the chat API: the text-only body
 * as a fed prompt's ({@code dialect.body(settings, text)} then its UTF-8 bytes), the body with
 * images as {@code dialect.body(settings, text, images)}: its parts, each image the array it was
 * built in (the client sends the parts, {@code internal.GatlingHttp.withBody}). Measured in this
 * thread's CPU time, in interleaved rounds of {@code N} bodies a side after 5 warm-up rounds;
 * prints each side's median microseconds a body, its bytes and the ratio; then what making one
 * image costs (the prompt builder's thread pays it, ahead of use). A benchmark that prints figures:
 * {@code java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt)
 * io.github.gatlingllm.bench.ImageBodyCost [ROUNDS [TOKENS [N]]]} (default 15, 1024, 2000).
 */
public final class ImageBodyCost {

  private ImageBodyCost() {}

  /**
   * Runs the benchmark.
   *
   * @param args rounds, the prompt's tokens, bodies a round
   */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
    int n = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
    String text =
        new PromptSource(
                PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 1, "bench", "measured", tokens)
            .take(0)
            .text();
    RequestSettings settings =
        new RequestSettings(WireApi.CHAT, "m", 128, "max_tokens", true, true, null, null, null);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (ImageFormat format : ImageFormat.values()) {
      ImageSpec spec = new ImageSpec(2, 0, 512, 512, 512, 512, format);
      // Making an image, warm: 5 made first, then the median of 15.
      double[] makes = new double[15];
      for (int i = -5; i < makes.length; i++) {
        long t0 = cpu.getCurrentThreadCpuTime();
        ImageGenerator.generate("bench:warm:" + format + ":" + i, spec);
        if (i >= 0) {
          makes[i] = (cpu.getCurrentThreadCpuTime() - t0) / 1e6;
        }
      }
      double makeMs = median(makes);
      Image a = ImageGenerator.generate("bench:a:" + format, spec);
      Image b = ImageGenerator.generate("bench:b:" + format, spec);
      PromptImages images = new PromptImages(List.of(a, b), 0, ImageTokens.of("qwen2-vl"));
      double[] textUs = new double[rounds];
      double[] imageUs = new double[rounds];
      long sink = 0;
      int textBytes = 0;
      int imageBytes = 0;
      for (int r = -5; r < rounds; r++) {
        long s = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
          byte[] body =
              WireApi.CHAT.dialect().body(settings, text).getBytes(StandardCharsets.UTF_8);
          sink += body.length;
          textBytes = body.length;
        }
        long m = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
          io.github.gatlingllm.api.BodyParts body =
              WireApi.CHAT.dialect().body(settings, text, images);
          sink += body.length();
          imageBytes = body.length();
        }
        long e = cpu.getCurrentThreadCpuTime();
        if (r >= 0) {
          textUs[r] = (m - s) / 1e3 / n;
          imageUs[r] = (e - m) / 1e3 / n;
        }
      }
      double text50 = median(textUs);
      double image50 = median(imageUs);
      System.out.printf(
          Locale.ROOT,
          "%s: text only %.2f us a body (%d bytes); with two 512x512 images %.2f us a body (%d"
              + " bytes, images %d + %d bytes encoded); ratio %.2fx; making an image (warm,"
              + " median) %.1f ms CPU (%d)%n",
          format.wireName(),
          text50,
          textBytes,
          image50,
          imageBytes,
          a.bytes(),
          b.bytes(),
          image50 / text50,
          makeMs,
          sink % 10);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
