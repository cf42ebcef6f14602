package io.github.gatlingllm.bench;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Prints the send-time cost of one prompt's request body (issue 43): the body written and encoded
 * to UTF-8 bytes as the prompt sender does, with the prompt's text escaped and encoded at send time
 * ({@code text}: {@code dialect.body(...).getBytes(UTF_8)}) or copied around its JSON string
 * prepared ahead ({@code prepared}: {@code dialect.bodyBytes(...)} of {@link Prompt#jsonBytes},
 * which the lookahead thread works out before the due time). Run: {@code java -cp ...
 * io.github.gatlingllm.bench.BodyCost MODE FORM TOKENS [API]}, one fresh JVM per line for the cold
 * modes ({@code scripts/bench-bodies.sh}).
 *
 * <ul>
 *   <li>{@code cold}: the first body of a fresh JVM (nothing of the body path loaded);
 *   <li>{@code warmedup}: the first long body after the client warm-up's 300 short bodies (half of
 *       them prepared), as in a run whose clock just started;
 *   <li>{@code warm}: the median of 200 bodies after 500.
 * </ul>
 */
public final class BodyCost {

  private BodyCost() {}

  /**
   * Runs one measurement and prints one line.
   *
   * @param args mode ({@code cold}, {@code warmedup}, {@code warm}), form ({@code text}, {@code
   *     prepared}), prompt tokens, and optionally the API ({@code chat} by default)
   */
  public static void main(String[] args) {
    String mode = args[0];
    boolean prepared = args[1].equals("prepared");
    int tokens = Integer.parseInt(args[2]);
    WireApi api = args.length > 3 ? WireApi.valueOf(args[3].toUpperCase()) : WireApi.CHAT;
    RequestSettings settings = RequestSettings.streaming(api, "qwen3", 128);
    String text =
        new PromptSource(
                PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 7, "bench", "measured", tokens)
            .take(0)
            .text();
    // Worked out before the clock, as the lookahead thread does; its own cost printed apart.
    long p0 = System.nanoTime();
    byte[] json = prepared ? Prompt.jsonBytes(text) : null;
    long prepareNanos = System.nanoTime() - p0;
    if (mode.equals("warmedup")) {
      for (int i = 0; i < 300; i++) {
        String t = "warm-up prompt " + i + " of the client's request path";
        sink(
            i % 2 == 1
                ? api.dialect().bodyBytes(settings, t, Prompt.jsonBytes(t))
                : api.dialect().body(settings, t).getBytes(StandardCharsets.UTF_8));
      }
    }
    double micros;
    if (mode.equals("warm")) {
      for (int i = 0; i < 500; i++) {
        once(api, settings, text, json);
      }
      long[] times = new long[200];
      for (int i = 0; i < times.length; i++) {
        times[i] = once(api, settings, text, json);
      }
      Arrays.sort(times);
      micros = times[times.length / 2] / 1000.0;
    } else {
      micros = once(api, settings, text, json) / 1000.0;
    }
    System.out.printf(
        "%-8s %-8s %-10s %,7d tokens %,9d chars: body at send time %,10.1f us%s%n",
        mode,
        prepared ? "prepared" : "text",
        api.settingName(),
        tokens,
        text.length(),
        micros,
        prepared
            ? String.format(
                " (prepared ahead in %,.1f us, %,d bytes kept)", prepareNanos / 1000.0, json.length)
            : "");
  }

  private static long once(WireApi api, RequestSettings settings, String text, byte[] json) {
    long t0 = System.nanoTime();
    byte[] body =
        json != null
            ? api.dialect().bodyBytes(settings, text, json)
            : api.dialect().body(settings, text).getBytes(StandardCharsets.UTF_8);
    long t = System.nanoTime() - t0;
    sink(body.length);
    return t;
  }

  private static volatile Object sunk;

  private static void sink(Object o) {
    sunk = o;
  }
}
