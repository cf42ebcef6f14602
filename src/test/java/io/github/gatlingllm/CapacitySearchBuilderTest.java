package io.github.gatlingllm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.capacity.SearchSettings;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class CapacitySearchBuilderTest {

  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static String refusal(CapacitySearchBuilder b, Properties p) {
    return assertThrows(IllegalArgumentException.class, () -> b.resolve(p)).getMessage();
  }

  @Test
  void theDefaults() {
    assertEquals(
        new SearchSettings(false, 32, 4, 0.05, 60, 10, 20, 5, 60, 0.1, null),
        LlmDsl.capacitySearch().maxRate(32).resolve(props()));
  }

  @Test
  void propertiesWinOverTheBuilder() {
    assertEquals(
        new SearchSettings(false, 10, 3, 0.1, 15, 3, 30, 2, 20, 0.2, 8.0),
        LlmDsl.capacitySearch()
            .maxRate(32)
            .coarseLevels(5)
            .hold(Duration.ofSeconds(30))
            .resolve(
                props(
                    "llm.search.maxRate", "10",
                    "llm.search.coarseLevels", "3",
                    "llm.search.precision", "0.1",
                    "llm.search.holdSeconds", "15",
                    "llm.search.warmupSeconds", "3",
                    "llm.search.minRequests", "30",
                    "llm.search.minSeconds", "2",
                    "llm.search.maxSeconds", "20",
                    "llm.search.margin", "0.2",
                    "llm.assert.capacityAtLeast", "8")));
  }

  @Test
  void maxUsersAsAPropertyMakesAConcurrencySearch() {
    SearchSettings s =
        LlmDsl.capacitySearch().maxRate(32).resolve(props("llm.search.maxUsers", "16"));
    assertEquals(true, s.closed());
    assertEquals(16.0, s.max());
  }

  @Test
  void noHighestLoadIsRefused() {
    assertEquals(
        "llm.search.maxRate: got nothing, expected the highest arrival rate to search, users/s > 0"
            + " (or llm.search.maxUsers for a concurrency search): capacitySearch().maxRate(32) or"
            + " -Dllm.search.maxRate=32",
        refusal(LlmDsl.capacitySearch(), props()));
  }

  @Test
  void aRateThatIsNoNumberIsRefused() {
    assertEquals(
        "llm.search.maxRate: got \"fast\", expected a number",
        refusal(LlmDsl.capacitySearch(), props("llm.search.maxRate", "fast")));
  }

  @Test
  void aRateOfZeroIsRefused() {
    assertEquals(
        "llm.search.maxRate: got 0, expected a number of users/s in (0, 100000]",
        refusal(LlmDsl.capacitySearch(), props("llm.search.maxRate", "0")));
  }

  @Test
  void fractionalUsersAreRefused() {
    assertEquals(
        "llm.search.maxUsers: got \"2.5\", expected a whole number",
        refusal(LlmDsl.capacitySearch(), props("llm.search.maxUsers", "2.5")));
  }

  @Test
  void aPrecisionOfZeroIsRefused() {
    assertEquals(
        "llm.search.precision: got 0, expected a share in [0.005, 1], e.g. 0.05 for 5%",
        refusal(LlmDsl.capacitySearch().maxRate(4), props("llm.search.precision", "0")));
  }

  @Test
  void aLongestLevelShorterThanItsShortestIsRefused() {
    assertEquals(
        "llm.search.maxSeconds: got 3, expected whole seconds in [llm.search.minSeconds (5),"
            + " 86400]",
        refusal(LlmDsl.capacitySearch().maxRate(4), props("llm.search.maxSeconds", "3")));
  }

  @Test
  void aNegativeCapacityBoundIsRefused() {
    assertEquals(
        "llm.assert.capacityAtLeast: got -1, expected a load above 0 (users/s, or users)",
        refusal(LlmDsl.capacitySearch().maxRate(4), props("llm.assert.capacityAtLeast", "-1")));
  }
}
