package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TraceSettingsTest {

  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void defaultsAreMooncakesBlockAndRealTime() {
    TraceSettings s =
        TraceSettings.from(props(), Map.of("trace", "/data/conversation_trace.jsonl"));

    assertEquals("/data/conversation_trace.jsonl", s.path());
    assertEquals(512, s.blockTokens());
    assertEquals(1.0, s.timeScale());
    assertEquals("trace_conversation_trace.jsonl", s.caseId());
    assertEquals(0, s.seed());
    assertEquals("estimate", s.tokenizer());
  }

  @Test
  void propertiesWinOverTheBuilder() {
    TraceSettings s =
        TraceSettings.from(
            props(
                "llm.trace",
                "b.jsonl",
                "llm.trace.timeScale",
                "2.5",
                "llm.trace.blockTokens",
                "64"),
            Map.of("trace", "a.jsonl", "trace.timeScale", "1.0"));

    assertEquals("b.jsonl", s.path());
    assertEquals(2.5, s.timeScale());
    assertEquals(64, s.blockTokens());
  }

  @Test
  void aMissingPathIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TraceSettings.from(props(), Map.of()));
    assertEquals(
        "llm.trace: got \"\", expected the path of a Mooncake-format JSONL trace", e.getMessage());
  }

  @Test
  void aTimeScaleOfZeroIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TraceSettings.from(props("llm.trace.timeScale", "0"), Map.of("trace", "t")));
    assertEquals(
        "llm.trace.timeScale: got \"0\", expected a number above 0 (2.0 replays twice as fast)",
        e.getMessage());
  }

  @Test
  void aBlockOfNoTokensIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TraceSettings.from(props("llm.trace.blockTokens", "0"), Map.of("trace", "t")));
    assertEquals(
        "llm.trace.blockTokens: got \"0\", expected a whole number of tokens from 1 to 1048576",
        e.getMessage());
  }
}
