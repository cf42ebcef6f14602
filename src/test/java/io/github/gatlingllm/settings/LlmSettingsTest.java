package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.assertRejected;
import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.server.ServerInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class LlmSettingsTest {

  @Test
  void defaults() {
    LlmSettings s = settings();
    assertNull(s.baseUrl());
    assertNull(s.apiKey());
    assertEquals("chat", s.endpoint());
    assertEquals(PromptMode.REPEAT, s.promptMode());
    assertEquals(512, s.inputTokens());
    assertEquals(128, s.outputTokens());
    assertEquals(0, s.seed());
    assertEquals("estimate", s.tokenizer());
    assertEquals(0, s.warmupRequests());
    assertEquals(100, s.requests());
    assertEquals(1, s.concurrency());
    assertTrue(s.stream());
    assertFalse(s.ignoreEos());
    assertEquals(Duration.ofSeconds(60), s.timeout());
    assertEquals("c1_in512_out128", s.caseId());
    assertEquals("target/gatling", s.resultsFolder());
  }

  @Test
  void propertiesWinOverSimulationDefaults() {
    Properties properties = new Properties();
    properties.setProperty("llm.concurrency", "3");
    LlmSettings s =
        LlmSettings.from(properties, Map.of("concurrency", "8", "requests", "7"), name -> null);
    assertEquals(3, s.concurrency());
    assertEquals(7, s.requests());
  }

  @Test
  void apiKeyFallsBackToTheEnvironment() {
    LlmSettings s =
        LlmSettings.from(
            new Properties(), Map.of(), name -> name.equals("OPENAI_API_KEY") ? "sk-env" : null);
    assertEquals("sk-env", s.apiKey());
  }

  @Test
  void toStringNeverShowsTheApiKeyOrUrlCredentials() {
    LlmSettings s =
        settings("llm.apiKey", "sk-secret", "llm.baseUrl", "http://user:pw@host:8000/v1");
    assertFalse(s.toString().contains("sk-secret"));
    assertFalse(s.toString().contains("pw"));
    assertEquals("http://host:8000/v1", s.redactedBaseUrl());
  }

  @Test
  void durationsTakeUnits() {
    assertEquals(Duration.ofMillis(500), settings("llm.timeout", "500ms").timeout());
    assertEquals(Duration.ofMillis(1500), settings("llm.timeout", "1.5s").timeout());
    assertEquals(Duration.ofMinutes(2), settings("llm.timeout", "2m").timeout());
    assertEquals(Duration.ofSeconds(5), settings("llm.timeout", "5").timeout());
  }

  @Test
  void metricsIntervalDefaultsToFiveSecondsAndZeroTurnsItOff() {
    assertEquals(Duration.ofSeconds(5), settings().metricsInterval());
    assertEquals(Duration.ZERO, settings("llm.metricsInterval", "0").metricsInterval());
    assertEquals(
        Duration.ofMillis(250), settings("llm.metricsInterval", "250ms").metricsInterval());
    assertEquals(
        Duration.ofSeconds(5),
        LlmSettings.from(new Properties(), Map.of("metricsInterval", "5000ms"), name -> null)
            .metricsInterval());
  }

  @Test
  void metricsIntervalBelow100MsIsRefused() {
    assertRejected(
        "llm.metricsInterval: got \"50ms\", expected 0 (no scraping) or a duration of at least"
            + " 100ms, e.g. 5s",
        "llm.metricsInterval",
        "50ms");
    assertRejected(
        "llm.metricsInterval: got \"-1000ms\", expected 0 (no scraping) or a duration of at least"
            + " 100ms, e.g. 5s",
        "llm.metricsInterval",
        "-1s");
  }

  @Test
  void promptModeOnTheCommandLineDropsTheSimulationsSharedPrefixDefaults() {
    Properties properties = new Properties();
    properties.setProperty("llm.promptMode", "unique");
    LlmSettings s =
        LlmSettings.from(
            properties,
            Map.of("promptMode", "shared-prefix", "sharedPrefixRatio", "0.5", "prefixGroups", "4"),
            name -> null);
    assertEquals(PromptMode.UNIQUE, s.promptMode());
    assertNull(s.sharedPrefixRatio());
    assertNull(s.prefixGroups());
  }

  @Test
  void unknownSettingIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> settings("llm.concurency", "8"));
    assertEquals(
        "llm.concurency: unknown setting; did you mean llm.concurrency? (every setting:"
            + " docs/settings.md)",
        e.getMessage());
  }

  @Test
  void unknownSettingFarFromEveryNameSaysWhereTheListIs() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> settings("llm.foo", "1"));
    assertEquals(
        "llm.foo: unknown setting; every llm.* setting is listed in docs/settings.md (e.g."
            + " llm.baseUrl, llm.requests, llm.concurrency, llm.promptMode)",
        e.getMessage());
  }

  @Test
  void shardSettingsAreKnown() {
    // Read by feeder.Shard and the start barrier, not held in the settings.
    assertEquals(
        8,
        settings("llm.shard", "1/2", "llm.shards", "2", "llm.startAt", "0", "llm.concurrency", "8")
            .concurrency());
  }

  @Test
  void nonNumericConcurrencyIsRejected() {
    assertRejected(
        "llm.concurrency: got \"eight\", expected a whole number", "llm.concurrency", "eight");
  }

  @Test
  void zeroConcurrencyIsRejected() {
    assertRejected("llm.concurrency: got 0, expected a whole number >= 1", "llm.concurrency", "0");
  }

  @Test
  void zeroRequestsAreRejected() {
    assertRejected("llm.requests: got 0, expected a whole number >= 1", "llm.requests", "0");
  }

  @Test
  void negativeWarmupIsRejected() {
    assertRejected(
        "llm.warmupRequests: got -1, expected a whole number >= 0", "llm.warmupRequests", "-1");
  }

  @Test
  void zeroInputTokensAreRejected() {
    assertRejected("llm.inputTokens: got 0, expected a whole number >= 1", "llm.inputTokens", "0");
  }

  @Test
  void zeroOutputTokensAreRejected() {
    assertRejected(
        "llm.outputTokens: got 0, expected a whole number >= 1", "llm.outputTokens", "0");
  }

  @Test
  void responsesEndpointIsAccepted() {
    assertEquals("responses", settings("llm.endpoint", "responses").endpoint());
  }

  @Test
  void messagesEndpointIsAccepted() {
    assertEquals("messages", settings("llm.endpoint", "messages").endpoint());
  }

  @Test
  void historyIsKeptByTheClientByDefault() {
    assertEquals(false, settings("llm.endpoint", "responses").historyOnServer());
  }

  @Test
  void serverHistoryIsAccepted() {
    assertEquals(true, settings("llm.responses.history", "server").historyOnServer());
  }

  @Test
  void unknownHistoryIsRejected() {
    assertRejected(
        "llm.responses.history: got \"stored\", expected client (each turn sends the whole"
            + " history) or server (previous_response_id; the Responses API only)",
        "llm.responses.history",
        "stored");
  }

  @Test
  void unknownEndpointIsRejected() {
    assertRejected(
        "llm.endpoint: got \"embeddings\", expected chat, completions, responses or messages",
        "llm.endpoint",
        "embeddings");
  }

  @Test
  void unknownPromptModeIsRejected() {
    assertRejected(
        "llm.promptMode: got \"shared\", expected repeat, unique, shared-prefix",
        "llm.promptMode",
        "shared");
  }

  @Test
  void ratioWithoutSharedPrefixIsRejected() {
    assertRejected(
        "llm.sharedPrefixRatio: 0.5 goes with llm.promptMode=shared-prefix only, not repeat",
        "llm.sharedPrefixRatio",
        "0.5");
  }

  @Test
  void sharedPrefixWithoutRatioIsRejected() {
    assertRejected(
        "llm.sharedPrefixRatio: required with llm.promptMode=shared-prefix (a number in (0, 1))",
        "llm.promptMode",
        "shared-prefix");
  }

  @Test
  void groupsWithoutSharedPrefixAreRejected() {
    assertRejected(
        "llm.prefixGroups: 4 goes with llm.promptMode=shared-prefix only, not unique",
        "llm.promptMode",
        "unique",
        "llm.prefixGroups",
        "4");
  }

  @Test
  void ratioOutOfRangeIsRejected() {
    assertRejected(
        "llm.sharedPrefixRatio: got 1.5, expected a number between 0 and 1, exclusive",
        "llm.promptMode",
        "shared-prefix",
        "llm.sharedPrefixRatio",
        "1.5");
  }

  @Test
  void zeroGroupsAreRejected() {
    assertRejected(
        "llm.prefixGroups: got 0, expected a whole number >= 1",
        "llm.promptMode",
        "shared-prefix",
        "llm.sharedPrefixRatio",
        "0.5",
        "llm.prefixGroups",
        "0");
  }

  @Test
  void nonBooleanStreamIsRejected() {
    assertRejected("llm.stream: got \"yes\", expected true or false", "llm.stream", "yes");
  }

  @Test
  void badTimeoutIsRejected() {
    assertRejected(
        "llm.timeout: got \"soon\", expected a duration such as 60s, 500ms or 2m (a bare number is seconds)",
        "llm.timeout",
        "soon");
  }

  @Test
  void zeroTimeoutIsRejected() {
    assertRejected(
        "llm.timeout: got \"0ms\", expected a duration > 0, e.g. 60s or 500ms",
        "llm.timeout",
        "0s");
  }

  @Test
  void nonHttpBaseUrlIsRejectedWithoutShowingIt() {
    assertRejected(
        "llm.baseUrl: not an http(s) URL such as http://127.0.0.1:8000/v1 (value not shown: it may hold credentials)",
        "llm.baseUrl",
        "ftp://user:secret@host/v1");
  }

  @Test
  void baseUrlWithQueryIsRejected() {
    assertRejected(
        "llm.baseUrl: not a URL without query or fragment (value not shown: it may hold credentials)",
        "llm.baseUrl",
        "http://host/v1?key=1");
  }

  @Test
  void blankModelIsUnset() {
    LlmSettings s = settings("llm.model", "  ");
    assertNull(s.model());
  }

  @Test
  void anUnsetModelIsTheServersFirstModel() {
    ServerInfo served =
        new ServerInfo("vLLM", "0.11.0", List.of("Qwen/Qwen3-0.6B", "other"), 4096, null, Map.of());
    assertEquals("Qwen/Qwen3-0.6B", settings("llm.baseUrl", "http://h/v1").modelFor(served));
  }

  @Test
  void aSetModelWinsOverTheServersModels() {
    ServerInfo served =
        new ServerInfo("vLLM", "0.11.0", List.of("Qwen/Qwen3-0.6B"), 4096, null, Map.of());
    assertEquals(
        "mine", settings("llm.baseUrl", "http://h/v1", "llm.model", "mine").modelFor(served));
  }

  @Test
  void anUnsetModelIsDefaultWhenTheServerListsNone() {
    ServerInfo silent =
        new ServerInfo(null, null, List.of(), null, null, Map.of("/v1/models", 404));
    assertEquals("default", settings("llm.baseUrl", "http://h/v1").modelFor(silent));
    assertEquals("default", settings("llm.baseUrl", "http://h/v1").modelFor(null));
  }

  @Test
  void apiKeyWithALineBreakIsRejectedWithoutShowingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> settings("llm.apiKey", "sk-abc\nX-Evil: 1"));
    assertEquals(
        "llm.apiKey: not a bearer token of visible ASCII characters without spaces (nor"
            + " OPENAI_API_KEY) (value not shown: it may hold credentials)",
        e.getMessage());
  }

  @Test
  void apiKeyWithASpaceIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> settings("llm.apiKey", "sk-abc def"));
  }

  @Test
  void apiKeyFromTheEnvironmentIsCheckedToo() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LlmSettings.from(new Properties(), Map.of(), name -> "sk-\u00e9t\u00e9"));
    assertFalse(e.getMessage().contains("sk-"), e.getMessage());
  }

  @Test
  void tokenizerPathThatDoesNotExistIsRejected() {
    assertRejected(
        "llm.tokenizer: got \"/nonexistent/gatling-llm/tokenizer.json\", expected estimate, or the"
            + " path of an existing tokenizer.json or of a folder holding one",
        "llm.tokenizer",
        "/nonexistent/gatling-llm/tokenizer.json");
  }

  @Test
  void tokenizerFolderThatExistsIsAccepted() {
    assertEquals("src", settings("llm.tokenizer", "src").tokenizer());
  }

  @Test
  void baseUrlWithoutSchemeIsRejected() {
    assertRejected(
        "llm.baseUrl: not an http(s) URL such as http://127.0.0.1:8000/v1 (value not shown: it may"
            + " hold credentials)",
        "llm.baseUrl",
        "127.0.0.1:8000/v1");
  }

  @Test
  void baseUrlWithAPortAbove65535IsRejected() {
    assertRejected(
        "llm.baseUrl: not a URL whose port is between 1 and 65535 (value not shown: it may hold"
            + " credentials)",
        "llm.baseUrl",
        "http://127.0.0.1:99999/v1");
  }

  @Test
  void baseUrlWithAnApiKeyParameterIsRejectedWithoutShowingTheKey() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings("llm.baseUrl", "https://host/v1?api-key=sk-live-123456789"));
    assertFalse(e.getMessage().contains("sk-live-123456789"), e.getMessage());
    assertTrue(e.getMessage().startsWith("llm.baseUrl: "), e.getMessage());
  }

  @Test
  void nonNumericSeedIsRejected() {
    assertRejected(
        "llm.seed: got \"abc\", expected a whole number, or auto (a fresh seed from the clock)",
        "llm.seed",
        "abc");
  }

  @Test
  void nonNumericRatioIsRejected() {
    assertRejected(
        "llm.sharedPrefixRatio: got \"half\", expected a number",
        "llm.promptMode",
        "shared-prefix",
        "llm.sharedPrefixRatio",
        "half");
  }

  @Test
  void nanRatioIsRejected() {
    assertRejected(
        "llm.sharedPrefixRatio: got NaN, expected a number between 0 and 1, exclusive",
        "llm.promptMode",
        "shared-prefix",
        "llm.sharedPrefixRatio",
        "NaN");
  }

  @Test
  void requestsBeyondAnIntAreRejected() {
    assertRejected(
        "llm.requests: got \"3000000000\", expected a whole number", "llm.requests", "3000000000");
  }

  @Test
  void fractionalOutputTokensAreRejected() {
    assertRejected(
        "llm.outputTokens: got \"1.5\", expected a whole number", "llm.outputTokens", "1.5");
  }

  @Test
  void negativeTimeoutIsRejected() {
    assertRejected(
        "llm.timeout: got \"-5000ms\", expected a duration > 0, e.g. 60s or 500ms",
        "llm.timeout",
        "-5s");
  }

  @Test
  void inputTokensAboveAnyContextAreRejected() {
    // 2e9 tokens failed building the prompts (NegativeArraySizeException, a stack trace) after
    // the embedded simulator had started.
    assertRejected(
        "llm.inputTokens: got 2000000000, expected a whole number of tokens from 1 to 4194304",
        "llm.inputTokens",
        "2000000000");
  }

  @Test
  void nonBooleanDebugIsRejected() {
    // It was read as false and the run went on.
    assertRejected("llm.debug: got \"yes\", expected true or false", "llm.debug", "yes");
  }

  @Test
  void timeoutInDaysIsRejected() {
    // Double.parseDouble reads "1d" as 1.0: a user's day was one second.
    assertRejected(
        "llm.timeout: got \"1d\", expected a duration such as 60s, 500ms or 2m (a bare number is"
            + " seconds)",
        "llm.timeout",
        "1d");
  }

  @Test
  void timeoutLongerThanGatlingHoldsIsRejected() {
    // Gatling holds it as nanoseconds in a long: longer failed the run after the target's probe.
    assertRejected(
        "llm.timeout: got \"9223372036854775s\", expected a duration > 0 and at most 153722867m,"
            + " e.g. 60s or 500ms",
        "llm.timeout",
        "9223372036854775807ms");
  }

  @Test
  void timeoutInHoursIsRejected() {
    assertRejected(
        "llm.timeout: got \"1h\", expected a duration such as 60s, 500ms or 2m (a bare number is"
            + " seconds)",
        "llm.timeout",
        "1h");
  }

  @Test
  void nonBooleanIgnoreEosIsRejected() {
    assertRejected("llm.ignoreEos: got \"1\", expected true or false", "llm.ignoreEos", "1");
  }

  @Test
  void temperatureAndConnectionsDefaults() {
    LlmSettings s = settings();
    assertNull(s.temperature());
    assertEquals("shared", s.connections());
  }

  @Test
  void temperatureIsRead() {
    assertEquals(0.0, settings("llm.temperature", "0").temperature());
    assertEquals(0.7, settings("llm.temperature", "0.7").temperature());
  }

  @Test
  void negativeTemperatureIsRejected() {
    assertRejected(
        "llm.temperature: got -0.5, expected a finite number >= 0, or unset",
        "llm.temperature",
        "-0.5");
  }

  @Test
  void nanTemperatureIsRejected() {
    assertRejected(
        "llm.temperature: got NaN, expected a finite number >= 0, or unset",
        "llm.temperature",
        "NaN");
  }

  @Test
  void infiniteTemperatureIsRejected() {
    assertRejected(
        "llm.temperature: got Infinity, expected a finite number >= 0, or unset",
        "llm.temperature",
        "Infinity");
  }

  @Test
  void nonNumericTemperatureIsRejected() {
    assertRejected("llm.temperature: got \"warm\", expected a number", "llm.temperature", "warm");
  }

  @Test
  void everyConnectionsValueIsRead() {
    assertEquals("shared", settings("llm.connections", "shared").connections());
    assertEquals("per-user", settings("llm.connections", "per-user").connections());
    assertEquals("per-request", settings("llm.connections", "per-request").connections());
  }

  @Test
  void unknownConnectionsValueIsRejected() {
    assertRejected(
        "llm.connections: got \"pooled\", expected shared, per-user, per-request",
        "llm.connections",
        "pooled");
  }

  @Test
  void connectionsInAnotherCaseAreRejected() {
    assertRejected(
        "llm.connections: got \"PER_REQUEST\", expected shared, per-user, per-request",
        "llm.connections",
        "PER_REQUEST");
  }

  @Test
  void connectionsAndTemperatureAreKnownSettings() {
    assertTrue(LlmSettings.KNOWN.contains("temperature"));
    assertTrue(LlmSettings.KNOWN.contains("connections"));
  }

  @Test
  void theBuildersConnectionsAreTheSettingsValues() {
    for (LlmProtocolBuilder.Connections c : LlmProtocolBuilder.Connections.values()) {
      assertEquals(c.wireName(), settings("llm.connections", c.wireName()).connections());
    }
    assertEquals(
        LlmSettings.CONNECTIONS,
        java.util.Arrays.stream(LlmProtocolBuilder.Connections.values())
            .map(LlmProtocolBuilder.Connections::wireName)
            .toList());
  }

  @Test
  void unknownEndpointInAnotherCaseIsRejected() {
    assertRejected(
        "llm.endpoint: got \"Chat\", expected chat, completions, responses or messages",
        "llm.endpoint",
        "Chat");
  }

  @Test
  void cacheSettingsDefaultToTheServersBlockAndAFivePercentTolerance() {
    LlmSettings s = settings();
    assertNull(s.cacheBlockTokens());
    assertEquals(0.05, s.cacheTolerance());
    assertNull(s.cacheAsPlanned());
    assertFalse(s.warmGroups());
    assertFalse(s.seedAuto());
  }

  @Test
  void cacheSettingsAreRead() {
    LlmSettings s =
        settings(
            "llm.cacheBlockTokens", "1",
            "llm.cacheTolerance", "0.1",
            "llm.assert.cacheAsPlanned", "0.9");
    assertEquals(1, s.cacheBlockTokens());
    assertEquals(0.1, s.cacheTolerance());
    assertEquals(0.9, s.cacheAsPlanned());
  }

  @Test
  void cacheSettingsOutOfRangeAreRefused() {
    assertRejected(
        "llm.cacheBlockTokens: got 0, expected a whole number of tokens >= 1, or unset",
        "llm.cacheBlockTokens",
        "0");
    assertRejected(
        "llm.cacheTolerance: got 1.5, expected a share of the prompt tokens in [0, 1]",
        "llm.cacheTolerance",
        "1.5");
    assertRejected(
        "llm.assert.cacheAsPlanned: got 0.0, expected a share in (0, 1], e.g. 0.95",
        "llm.assert.cacheAsPlanned",
        "0");
  }

  @Test
  void autoSeedIsOneClockSeedPerJvm() {
    LlmSettings a = settings("llm.seed", "auto");
    LlmSettings b = settings("llm.seed", "AUTO");
    assertTrue(a.seedAuto());
    assertEquals(LlmSettings.autoSeed(), a.seed());
    assertEquals(a.seed(), b.seed());
    assertTrue(a.seed() > 1_700_000_000_000L, "epoch milliseconds: " + a.seed());
  }

  @Test
  void warmGroupsAreRead() {
    LlmSettings s =
        settings(
            "llm.promptMode", "shared-prefix",
            "llm.sharedPrefixRatio", "0.5",
            "llm.warmupRequests", "4",
            "llm.warmGroups", "true");
    assertTrue(s.warmGroups());
    assertRejected("llm.warmGroups: got \"yes\", expected true or false", "llm.warmGroups", "yes");
  }

  @Test
  void aPromptModeOtherThanSharedPrefixDropsTheSimulationsWarmGroups() {
    Properties properties = new Properties();
    properties.setProperty("llm.promptMode", "unique");
    LlmSettings s =
        LlmSettings.from(
            properties,
            Map.of(
                "promptMode", "shared-prefix",
                "sharedPrefixRatio", "0.5",
                "warmupRequests", "4",
                "warmGroups", "true"),
            name -> null);
    assertFalse(s.warmGroups());
  }
}
