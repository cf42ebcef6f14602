package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestSettingsTest {

  private static RequestSettings withExtra(Map<String, Object> extra) {
    return new RequestSettings(WireApi.CHAT, "m", 16, "max_tokens", true, true, null, null, extra);
  }

  private static String message(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void endpointPaths() {
    assertEquals("chat/completions", WireApi.CHAT.path());
    assertEquals("completions", WireApi.COMPLETIONS.path());
  }

  @Test
  void nullEndpointIsRejected() {
    assertEquals(
        "endpoint must be one of CHAT, COMPLETIONS, RESPONSES, MESSAGES, got null",
        message(
            () -> new RequestSettings(null, "m", 1, "max_tokens", true, true, null, null, null)));
  }

  @Test
  void blankModelIsRejected() {
    assertEquals(
        "model must be a non-blank name, got \"  \"",
        message(() -> RequestSettings.streaming(WireApi.CHAT, "  ", 16)));
  }

  @Test
  void zeroMaxTokensIsRejected() {
    assertEquals(
        "maxTokens must be >= 1, got 0",
        message(() -> RequestSettings.streaming(WireApi.CHAT, "m", 0)));
  }

  @Test
  void unknownMaxTokensFieldIsRejected() {
    assertEquals(
        "maxTokensField must be \"max_tokens\" or \"max_completion_tokens\", got \"max_new_tokens\"",
        message(
            () ->
                new RequestSettings(
                    WireApi.CHAT, "m", 1, "max_new_tokens", true, true, null, null, null)));
  }

  @Test
  void negativeTemperatureIsRejected() {
    assertEquals(
        "temperature must be a finite number >= 0 (or null not to send it), got -0.5",
        message(
            () ->
                new RequestSettings(
                    WireApi.CHAT, "m", 1, "max_tokens", true, true, null, -0.5, null)));
  }

  @Test
  void nanTemperatureIsRejected() {
    assertEquals(
        "temperature must be a finite number >= 0 (or null not to send it), got NaN",
        message(
            () ->
                new RequestSettings(
                    WireApi.CHAT, "m", 1, "max_tokens", true, true, null, Double.NaN, null)));
  }

  @Test
  void extraBodyMustNotSetAnAlwaysReservedKey() {
    assertEquals(
        "extraBody must not set \"max_tokens\": the request settings set it (always); reserved"
            + " keys here: model, messages, prompt, stream, stream_options, max_tokens,"
            + " max_completion_tokens",
        message(() -> withExtra(Map.of("max_tokens", 5))));
  }

  @Test
  void extraBodyMustNotSetStreamOptionsWhenUsageIsAskedFor() {
    assertEquals(
        "extraBody must not set \"stream_options\": the request settings set it (with these"
            + " settings); reserved keys here: model, messages, prompt, stream, stream_options,"
            + " max_tokens, max_completion_tokens",
        message(() -> withExtra(Map.of("stream_options", Map.of("include_usage", true)))));
  }

  @Test
  void extraBodyMaySetStreamOptionsWithoutIncludeUsage() {
    RequestSettings s =
        new RequestSettings(
            WireApi.CHAT,
            "m",
            16,
            "max_tokens",
            true,
            false,
            null,
            null,
            Map.of("stream_options", Map.of("continuous_usage_stats", true)));
    assertEquals(Map.of("stream_options", Map.of("continuous_usage_stats", true)), s.extraBody());
  }

  @Test
  void extraBodyMustNotSetTemperatureWhenTheSettingIsSet() {
    assertEquals(
        "extraBody must not set \"temperature\": the request settings set it (with these"
            + " settings); reserved keys here: model, messages, prompt, stream, stream_options,"
            + " max_tokens, max_completion_tokens, temperature",
        message(
            () ->
                new RequestSettings(
                    WireApi.CHAT,
                    "m",
                    1,
                    "max_tokens",
                    true,
                    true,
                    null,
                    0.0,
                    Map.of("temperature", 1.0))));
  }

  @Test
  void extraBodyMaySetIgnoreEosWhenTheSettingIsNull() {
    assertEquals(Map.of("ignore_eos", true), withExtra(Map.of("ignore_eos", true)).extraBody());
  }

  @Test
  void extraBodyValueThatJacksonCannotWriteIsRejected() {
    String m = message(() -> withExtra(Map.of("seed", new Object())));
    assertEquals(
        "extraBody value of \"seed\" must be writable as JSON (scalars, maps, lists, beans), got"
            + " java.lang.Object",
        m.substring(0, m.indexOf(':', m.indexOf("got"))));
  }

  @Test
  void extraBodyNonFiniteNumberIsRejected() {
    assertEquals(
        "extraBody value of \"top_p\" must be a finite number, got Infinity",
        message(() -> withExtra(Map.of("top_p", Double.POSITIVE_INFINITY))));
  }

  @Test
  void extraBodyIsCopiedDeeplyAndCannotChange() {
    List<Object> stop = new ArrayList<>(List.of("a"));
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("stop", stop);
    RequestSettings s = withExtra(extra);
    stop.add("b");
    extra.put("seed", 1);
    assertEquals(Map.of("stop", List.of("a")), s.extraBody());
    assertThrows(UnsupportedOperationException.class, () -> s.extraBody().put("seed", 2));
  }

  @Test
  void nullExtraBodyIsEmpty() {
    assertEquals(Map.of(), withExtra(null).extraBody());
  }

  @Test
  void reservedKeysDependOnTheSettings() {
    assertEquals(
        List.of(
            "model",
            "messages",
            "prompt",
            "stream",
            "max_tokens",
            "max_completion_tokens",
            "ignore_eos"),
        new RequestSettings(
                WireApi.COMPLETIONS, "m", 1, "max_tokens", false, true, true, null, null)
            .reservedKeys());
  }
}
