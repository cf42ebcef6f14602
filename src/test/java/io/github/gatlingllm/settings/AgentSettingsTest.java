package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.prompt.AgentSpec;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AgentSettingsTest {

  private static AgentSettings read(String... properties) {
    Properties p = new Properties();
    for (int i = 0; i < properties.length; i += 2) {
      p.setProperty("llm." + properties[i], properties[i + 1]);
    }
    return AgentSettings.from(p, Map.of());
  }

  private static String refused(String... properties) {
    return assertThrows(IllegalArgumentException.class, () -> read(properties)).getMessage();
  }

  @Test
  void defaults() {
    AgentSettings s = read();
    assertEquals(10, s.sessions());
    assertEquals(0, s.warmupSessions());
    assertEquals(AgentSpec.defaults(), s.spec());
    assertEquals("X-Session-Affinity", s.sessionHeader());
  }

  @Test
  void propertiesOverTheBuildersValues() {
    Properties p = new Properties();
    p.setProperty("llm.agent.toolCalls", "2");
    AgentSettings s =
        AgentSettings.from(p, Map.of("agent.toolCalls", "6", "agent.toolResultTokens", "64"));
    assertEquals(2, s.spec().toolCalls());
    assertEquals(64, s.spec().toolResultTokens());
  }

  @Test
  void toolLatencyRange() {
    AgentSpec spec = read("agent.toolLatencyMs", "100-800").spec();
    assertEquals(100, spec.minToolLatencyMs());
    assertEquals(800, spec.maxToolLatencyMs());
  }

  @Test
  void negativeLoopsRefused() {
    assertEquals(
        "llm.agent.toolCalls: got \"-1\", expected a whole number >= 0",
        refused("agent.toolCalls", "-1"));
  }

  @Test
  void zeroToolResultTokensRefused() {
    assertEquals(
        "llm.agent.toolResultTokens: got \"0\", expected a whole number >= 1",
        refused("agent.toolResultTokens", "0"));
  }

  @Test
  void tooManyToolsRefused() {
    assertEquals(
        "llm.agent.tools: got \"500\", expected a whole number from 0 to 128",
        refused("agent.tools", "500"));
  }

  @Test
  void toolLatencyBackwardsRefused() {
    assertEquals(
        "llm.agent.toolLatencyMs: got \"800-100\", expected milliseconds >= 0, or MIN-MAX"
            + " milliseconds (100-800) drawn uniformly",
        refused("agent.toolLatencyMs", "800-100"));
  }

  @Test
  void unknownToolChoiceRefused() {
    assertEquals(
        "llm.agent.toolChoice: got \"always\", expected auto, required or none",
        refused("agent.toolChoice", "always"));
  }

  @Test
  void requiredWithoutToolsRefused() {
    assertEquals(
        "llm.agent.toolChoice: got \"required\", expected auto or none with llm.agent.tools=0 (no"
            + " tool to require)",
        refused("agent.tools", "0", "agent.toolChoice", "required"));
  }

  @Test
  void aSessionHeaderOfYourOwn() {
    assertEquals("X-Agent-Session", read("sessionHeader", "X-Agent-Session").sessionHeader());
  }

  @Test
  void anEmptySessionHeaderIsNone() {
    assertNull(read("sessionHeader", "").sessionHeader());
  }

  @Test
  void aSessionHeaderWithASpaceRefused() {
    assertEquals(
        "llm.sessionHeader: got \"X Session\", expected an HTTP header name (letters, digits and"
            + " !#$%&'*+-.^_`|~, e.g. X-Session-Affinity), or empty for none",
        refused("sessionHeader", "X Session"));
  }

  @Test
  void aSessionHeaderWithAColonRefused() {
    assertEquals(
        "llm.sessionHeader: got \"X-Session:\", expected an HTTP header name (letters, digits and"
            + " !#$%&'*+-.^_`|~, e.g. X-Session-Affinity), or empty for none",
        refused("sessionHeader", "X-Session:"));
  }

  @Test
  void aSessionHeaderTheRequestSetsRefused() {
    assertEquals(
        "llm.sessionHeader: got \"content-type\", expected a header the request does not set"
            + " itself (not Accept, Authorization, Connection, Content-Length, Content-Type, Host,"
            + " Transfer-Encoding or X-Request-Id)",
        refused("sessionHeader", "content-type"));
  }

  @Test
  void theRunsSettingsCarryTheDefaultSessionHeader() {
    assertEquals(
        "X-Session-Affinity",
        LlmSettings.fromBesidePrompts(new Properties(), Map.of(), name -> null).sessionHeader());
  }

  @Test
  void theRunsSettingsRefuseABadSessionHeader() {
    Properties p = new Properties();
    p.setProperty("llm.sessionHeader", "X:Y");
    assertEquals(
        "llm.sessionHeader: got \"X:Y\", expected an HTTP header name (letters, digits and"
            + " !#$%&'*+-.^_`|~, e.g. X-Session-Affinity), or empty for none",
        assertThrows(
                IllegalArgumentException.class,
                () -> LlmSettings.fromBesidePrompts(p, Map.of(), name -> null))
            .getMessage());
  }

  @Test
  void theRunsSettingsTakeAnEmptySessionHeaderAsNone() {
    Properties p = new Properties();
    p.setProperty("llm.sessionHeader", "");
    assertNull(LlmSettings.fromBesidePrompts(p, Map.of(), name -> null).sessionHeader());
  }
}
