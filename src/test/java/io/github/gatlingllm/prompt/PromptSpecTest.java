package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromptSpecTest {

  @Test
  void repeatRecordIsModeOnly() {
    assertEquals(Map.of("mode", "repeat"), PromptSpec.repeat().toRecord());
  }

  @Test
  void sharedPrefixRecordHasRatioAndGroupsInOrder() {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("mode", "shared-prefix");
    expected.put("shared_prefix_ratio", 0.25);
    expected.put("prefix_groups", 4);
    assertEquals(
        expected.entrySet().stream().toList(),
        PromptSpec.sharedPrefix(0.25, 4).toRecord().entrySet().stream().toList());
  }

  @Test
  void unsetGroupsAreOneInTheRecord() {
    assertEquals(
        1, new PromptSpec(PromptMode.SHARED_PREFIX, 0.5, null).toRecord().get("prefix_groups"));
  }

  @Test
  void nullModeIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new PromptSpec(null, null, null));
    assertEquals(
        "prompt mode must be one of repeat, unique, shared-prefix, got null", e.getMessage());
  }

  @Test
  void sharedPrefixWithoutRatioIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new PromptSpec(PromptMode.SHARED_PREFIX, null, 2));
    assertEquals(
        "shared-prefix prompts need a shared-prefix ratio (between 0 and 1, exclusive)",
        e.getMessage());
  }

  @Test
  void ratioWithoutSharedPrefixIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new PromptSpec(PromptMode.UNIQUE, 0.5, null));
    assertEquals(
        "a shared-prefix ratio (0.5) goes with shared-prefix prompts only, not with mode unique",
        e.getMessage());
  }

  @Test
  void groupsWithoutSharedPrefixAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new PromptSpec(PromptMode.REPEAT, null, 3));
    assertEquals(
        "prefix groups (3) go with shared-prefix prompts only, not with mode repeat",
        e.getMessage());
  }

  @Test
  void ratioOfZeroIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PromptSpec.sharedPrefix(0.0, 1));
    assertEquals(
        "shared-prefix ratio must be between 0 and 1 (exclusive), got 0.0", e.getMessage());
  }

  @Test
  void ratioOfOneIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> PromptSpec.sharedPrefix(1.0, 1));
  }

  @Test
  void nanRatioIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PromptSpec.sharedPrefix(Double.NaN, 1));
    assertEquals(
        "shared-prefix ratio must be between 0 and 1 (exclusive), got NaN", e.getMessage());
  }

  @Test
  void zeroGroupsAreRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PromptSpec.sharedPrefix(0.5, 0));
    assertEquals("prefix groups must be >= 1, got 0", e.getMessage());
  }

  @Test
  void modeNamesRoundTrip() {
    for (PromptMode mode : PromptMode.values()) {
      if (mode != PromptMode.TRACE) {
        assertEquals(mode, PromptMode.fromWireName(mode.wireName()));
      }
    }
  }

  @Test
  void traceIsNotAModeToPick() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PromptMode.fromWireName("trace"));
    assertEquals(
        "prompt mode must be one of repeat, unique, shared-prefix, got \"trace\"", e.getMessage());
  }

  @Test
  void unknownModeNameIsRejectedWithTheChoices() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PromptMode.fromWireName("Unique"));
    assertEquals(
        "prompt mode must be one of repeat, unique, shared-prefix, got \"Unique\"", e.getMessage());
  }
}
