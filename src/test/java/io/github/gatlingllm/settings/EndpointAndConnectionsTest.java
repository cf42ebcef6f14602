package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.LlmProtocolBuilder.Connections;
import io.github.gatlingllm.api.WireApi;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@code llm.endpoint} and {@code llm.connections} read as their enums, not compared as text. */
class EndpointAndConnectionsTest {

  private static LlmSettings read(String name, String value) {
    Properties properties = new Properties();
    properties.setProperty(name, value);
    return LlmSettings.from(properties, Map.of(), n -> null);
  }

  @Test
  void chatIsTheChatEndpoint() {
    assertEquals(WireApi.CHAT, read("llm.endpoint", "chat").endpointKind());
  }

  @Test
  void completionsIsTheCompletionsEndpoint() {
    assertEquals(WireApi.COMPLETIONS, read("llm.endpoint", "completions").endpointKind());
  }

  @Test
  void eachConnectionsValueIsItsEnum() {
    assertEquals(
        Connections.SHARED, Connections.of(read("llm.connections", "shared").connections()));
    assertEquals(
        Connections.PER_USER, Connections.of(read("llm.connections", "per-user").connections()));
    assertEquals(
        Connections.PER_REQUEST,
        Connections.of(read("llm.connections", "per-request").connections()));
  }

  @Test
  void anUnknownConnectionsValueIsRefusedNamingTheSetting() {
    assertEquals(
        "llm.connections: got \"pooled\", expected one of shared, per-user, per-request",
        assertThrows(IllegalArgumentException.class, () -> Connections.of("pooled")).getMessage());
  }

  @Test
  void sharedConnectionsAreSharedAndKeptOpen() {
    LlmSettings s = read("llm.connections", "shared");
    assertEquals(true, s.sharesConnections());
    assertEquals(false, s.connectionPerRequest());
  }

  @Test
  void perUserConnectionsAreNotShared() {
    LlmSettings s = read("llm.connections", "per-user");
    assertEquals(false, s.sharesConnections());
    assertEquals(false, s.connectionPerRequest());
  }

  @Test
  void perRequestConnectionsAreOneARequest() {
    LlmSettings s = read("llm.connections", "per-request");
    assertEquals(true, s.sharesConnections());
    assertEquals(true, s.connectionPerRequest());
  }
}
