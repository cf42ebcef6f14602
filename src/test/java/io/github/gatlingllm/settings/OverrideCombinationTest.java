package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.prompt.PromptMode;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * A {@code -D} override changes one knob of what the simulation set (issue 30, point 5): the prompt
 * shape's properties are checked with the {@code prompts()} shape they change, not with the
 * protocol's (which has none).
 */
class OverrideCombinationTest {

  /** The quickstart's {@code prompts().sharedPrefix(0.5, 4)}. */
  private static final Map<String, String> SHARED =
      Map.of("promptMode", "shared-prefix", "sharedPrefixRatio", "0.5", "prefixGroups", "4");

  private static Properties properties(String... nameValues) {
    Properties properties = new Properties();
    for (int i = 0; i < nameValues.length; i += 2) {
      properties.setProperty(nameValues[i], nameValues[i + 1]);
    }
    return properties;
  }

  @Test
  void prefixGroupsOverASharedPrefixFeederChangesItsGroups() {
    LlmSettings s = LlmSettings.from(properties("llm.prefixGroups", "1"), SHARED, name -> null);
    assertEquals(PromptMode.SHARED_PREFIX, s.promptMode());
    assertEquals(0.5, s.sharedPrefixRatio());
    assertEquals(1, s.prefixGroups());
  }

  @Test
  void prefixGroupsBesideTheProtocolIsLeftToTheFeeders() {
    LlmSettings s =
        LlmSettings.fromBesidePrompts(
            properties("llm.prefixGroups", "1"), Map.of("outputTokens", "32"), name -> null);
    assertEquals(PromptMode.REPEAT, s.promptMode());
    assertNull(s.prefixGroups());
    assertEquals(32, s.outputTokens());
  }

  @Test
  void prefixGroupsOverARepeatFeederIsRefused() {
    assertEquals(
        "llm.prefixGroups: 1 goes with llm.promptMode=shared-prefix only, not repeat",
        assertThrows(
                IllegalArgumentException.class,
                () -> LlmSettings.from(properties("llm.prefixGroups", "1"), Map.of(), name -> null))
            .getMessage());
  }

  @Test
  void aBadPrefixGroupsBesideTheProtocolIsStillRefused() {
    assertEquals(
        "llm.prefixGroups: got 0, expected a whole number >= 1",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    LlmSettings.fromBesidePrompts(
                        properties("llm.prefixGroups", "0"), Map.of(), name -> null))
            .getMessage());
  }

  @Test
  void aBadPromptModeBesideTheProtocolIsStillRefused() {
    assertEquals(
        "llm.promptMode: got \"shared\", expected " + PromptMode.allowed(),
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    LlmSettings.fromBesidePrompts(
                        properties("llm.promptMode", "shared"), Map.of(), name -> null))
            .getMessage());
  }
}
