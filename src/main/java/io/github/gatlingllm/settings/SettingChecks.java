package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.SettingValues.bad;
import static io.github.gatlingllm.settings.SettingValues.badRedacted;

import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.prompt.PromptMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Not API. The checks of {@link LlmSettings} that take more than a range: the target (base URL, API
 * key), the prompt shape (which settings go with which prompt mode), the tokenizer's file, the
 * durations, and the assertions that need an SLO. Each throws {@link IllegalArgumentException} with
 * one line naming the {@code llm.*} setting, its value (never a secret's) and what is allowed.
 */
final class SettingChecks {

  private SettingChecks() {}

  /**
   * Checks where requests go and as whom: {@code llm.baseUrl} (an http or https URL with a host, a
   * port between 1 and 65535 if any, without query or fragment), {@code llm.apiKey} (visible ASCII,
   * never quoted in the error), {@code llm.model} (not blank) and {@code llm.endpoint}.
   *
   * @param baseUrl the base URL, or null for the embedded simulator
   * @param apiKey the bearer token, or null
   * @param model the model name, or null
   * @param endpoint {@code chat}, {@code completions}, {@code responses} or {@code messages}
   * @throws IllegalArgumentException naming the first bad one
   */
  static void target(String baseUrl, String apiKey, String model, String endpoint) {
    if (baseUrl != null) {
      baseUrl(baseUrl);
    }
    if (apiKey != null && !isVisibleAscii(apiKey)) {
      throw badRedacted(
          "apiKey",
          "a bearer token of visible ASCII characters without spaces (nor OPENAI_API_KEY)");
    }
    if (model != null && model.isBlank()) {
      throw bad("model", model, "a model name, or unset");
    }
    if (!List.of("chat", "completions", "responses", "messages").contains(endpoint)) {
      throw bad("endpoint", endpoint, "chat, completions, responses or messages");
    }
  }

  /**
   * Checks the prompt shape: {@code llm.sharedPrefixRatio} is required with, and only with, {@code
   * llm.promptMode=shared-prefix}, in (0, 1); {@code llm.prefixGroups} only with it, at least 1.
   *
   * @param promptMode the mode, never null
   * @param sharedPrefixRatio the ratio, or null
   * @param prefixGroups the groups, or null
   * @throws NullPointerException if {@code promptMode} is null
   * @throws IllegalArgumentException naming the first bad one
   */
  static void promptShape(PromptMode promptMode, Double sharedPrefixRatio, Integer prefixGroups) {
    Objects.requireNonNull(promptMode, "promptMode");
    boolean shared = promptMode == PromptMode.SHARED_PREFIX;
    if (shared && sharedPrefixRatio == null) {
      throw new IllegalArgumentException(
          "llm.sharedPrefixRatio: required with llm.promptMode=shared-prefix (a number in (0, 1))");
    }
    if (!shared) {
      onlyWithSharedPrefix("sharedPrefixRatio", sharedPrefixRatio, promptMode);
      onlyWithSharedPrefix("prefixGroups", prefixGroups, promptMode);
    }
    if (sharedPrefixRatio != null && !(sharedPrefixRatio > 0 && sharedPrefixRatio < 1)) {
      throw bad("sharedPrefixRatio", sharedPrefixRatio, "a number between 0 and 1, exclusive");
    }
    if (prefixGroups != null && prefixGroups < 1) {
      throw bad("prefixGroups", prefixGroups, "a whole number >= 1");
    }
  }

  /**
   * Checks {@code llm.tokenizer}: {@code estimate}, or the path of a file or folder that exists.
   *
   * @param tokenizer the setting, or null
   * @throws IllegalArgumentException if null, blank or not there
   */
  static void tokenizer(String tokenizer) {
    if (tokenizer == null || tokenizer.isBlank() || !tokenizerExists(tokenizer)) {
      throw bad(
          "tokenizer",
          tokenizer,
          "estimate, or the path of an existing tokenizer.json or of a folder holding one");
    }
  }

  /**
   * Checks {@code llm.timeout}: more than 0, and at most {@link #MAX_TIMEOUT} (Gatling holds its
   * request timeout as whole nanoseconds in a {@code long}; a longer one fails the run after the
   * target was probed, with Gatling's stack trace).
   *
   * @param timeout the timeout, or null
   * @throws IllegalArgumentException if null, zero, negative or longer than {@link #MAX_TIMEOUT}
   */
  static void timeout(Duration timeout) {
    if (timeout == null || timeout.isZero() || timeout.isNegative()) {
      throw bad(
          "timeout",
          timeout == null ? null : timeout.toMillis() + "ms",
          "a duration > 0, e.g. 60s or 500ms");
    }
    if (timeout.compareTo(MAX_TIMEOUT) > 0) {
      throw bad(
          "timeout",
          timeout.getSeconds() + "s",
          "a duration > 0 and at most " + MAX_TIMEOUT.toMinutes() + "m, e.g. 60s or 500ms");
    }
  }

  /** The longest {@code llm.timeout}: what a {@code long} of nanoseconds holds, about 292 years. */
  static final Duration MAX_TIMEOUT =
      Duration.ofMinutes(Duration.ofNanos(Long.MAX_VALUE).toMinutes());

  /**
   * Checks {@code llm.metricsInterval}: 0 (no scraping) or at least 100 ms.
   *
   * @param metricsInterval the interval, never null
   * @throws IllegalArgumentException if negative or between 0 and 100 ms
   */
  static void metricsInterval(Duration metricsInterval) {
    if (metricsInterval.isNegative()
        || !metricsInterval.isZero() && metricsInterval.toMillis() < 100) {
      throw bad(
          "metricsInterval",
          metricsInterval.toMillis() + "ms",
          "0 (no scraping) or a duration of at least 100ms, e.g. 5s");
    }
  }

  /**
   * Checks that an assertion on the SLO has an SLO to judge by.
   *
   * @param name the assertion's setting without {@code llm.}, e.g. {@code assert.goodputRatio}
   * @param value its value, or null when unset (nothing to check)
   * @param slo the run's SLO, never null
   * @throws IllegalArgumentException if the value is set and no SLO bound is
   */
  static void needsSlo(String name, Double value, Slo slo) {
    if (value != null && !slo.isSet()) {
      throw new IllegalArgumentException(
          LlmSettings.PREFIX
              + name
              + ": "
              + value
              + " needs an SLO: set at least one of llm.slo.ttftMs, llm.slo.itlMs, llm.slo.tpotMs,"
              + " llm.slo.e2eMs, llm.slo.ttfoMs");
    }
  }

  private static void onlyWithSharedPrefix(String name, Object value, PromptMode promptMode) {
    if (value != null) {
      throw new IllegalArgumentException(
          LlmSettings.PREFIX
              + name
              + ": "
              + value
              + " goes with llm.promptMode=shared-prefix only, not "
              + promptMode.wireName());
    }
  }

  private static void baseUrl(String baseUrl) {
    URI uri;
    try {
      uri = new URI(baseUrl);
    } catch (URISyntaxException e) {
      throw badRedacted("baseUrl", "an http(s) URL such as http://127.0.0.1:8000/v1");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      throw badRedacted("baseUrl", "an http(s) URL such as http://127.0.0.1:8000/v1");
    }
    if (uri.getQuery() != null || uri.getFragment() != null) {
      throw badRedacted("baseUrl", "a URL without query or fragment");
    }
    if (uri.getPort() == 0 || uri.getPort() > 65_535) {
      throw badRedacted("baseUrl", "a URL whose port is between 1 and 65535");
    }
  }

  /** Whether a bearer token can go into an HTTP header as it is: {@code !} to {@code ~} only. */
  private static boolean isVisibleAscii(String token) {
    if (token.isEmpty()) {
      return false;
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c <= ' ' || c > '~') {
        return false;
      }
    }
    return true;
  }

  /** Whether the tokenizer is {@code estimate} or names a file or folder that exists. */
  private static boolean tokenizerExists(String tokenizer) {
    String t = tokenizer.strip();
    if (t.equals("estimate")) {
      return true;
    }
    try {
      return Files.exists(Path.of(t));
    } catch (InvalidPathException e) {
      return false;
    }
  }
}
