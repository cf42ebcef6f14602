package io.github.gatlingllm.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EstimatedTokenCounterTest {

  private final EstimatedTokenCounter counter = EstimatedTokenCounter.INSTANCE;

  @Test
  void countsSpaceSeparatedWords() {
    assertEquals(3, counter.count("profile inference latency"));
  }

  @Test
  void emptyTextCountsOne() {
    assertEquals(1, counter.count(""));
  }

  @Test
  void onlySpacesCountOne() {
    assertEquals(1, counter.count("    "));
  }

  @Test
  void runsOfSpacesAreOneSeparator() {
    assertEquals(2, counter.count("  a   b  "));
  }

  @Test
  void newlineSeparatesWords() {
    assertEquals(3, counter.count("a\nb\n\nc"));
  }

  @Test
  void tabIsNotASeparator() {
    assertEquals(1, counter.count("a\tb"));
  }

  @Test
  void carriageReturnIsNotASeparator() {
    assertEquals(2, counter.count("a\r\nb"));
  }

  @Test
  void loneCarriageReturnIsAWord() {
    assertEquals(3, counter.count("a \r b"));
  }

  @Test
  void nonBreakingSpaceIsNotASeparator() {
    assertEquals(1, counter.count("a\u00a0b"));
  }

  @Test
  void countTextCarriesSourceAndInexactness() {
    assertEquals(new TokenCount(2, "estimated", false), counter.countText("[abc] profile"));
  }

  @Test
  void identityIsTheReferences() {
    assertEquals(
        Map.of("source", "estimated", "exact", false, "name", "whitespace words"),
        counter.identity());
  }

  @Test
  void isNotExact() {
    assertFalse(counter.exact());
  }

  @Test
  void nullTextIsRejected() {
    assertThrows(NullPointerException.class, () -> counter.count(null));
  }
}
