package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.RunRecord;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConversationSectionTest {

  private static RequestRecord turn(
      String phase, long conversation, int turn, int prompt, int cached, double ttft) {
    return RequestRecordJson.fromJson(
            "{\"request\":\"chat\",\"phase\":\""
                + phase
                + "\",\"start_ms\":1000,\"status\":\"ok\",\"prompt_tokens\":"
                + prompt
                + ",\"cached_tokens\":"
                + cached
                + ",\"ttft_ms\":"
                + ttft
                + ",\"e2e_ms\":100,\"workload\":\"conversations\",\"planned_cached_tokens\":"
                + cached
                + ",\"cache_planned\":\"hit\",\"cache\":\"hit\"}")
        .withConversationTurn(new ConversationTurn(conversation, turn, cached, "00112233aabbccdd"));
  }

  @Test
  void nothingWithoutConversations() {
    assertEquals("", ConversationSection.render(null, List.of()));
  }

  @Test
  void totalsAndMeasuredTurnsByTurnIndex() {
    Map<String, Object> run =
        Map.of(
            "conversations",
            List.of(
                Map.of(
                    "workload",
                    "chats",
                    "unfinished",
                    0,
                    "phases",
                    Map.of(
                        "measured",
                        Map.of(
                            "conversations", 2,
                            "completed", 1,
                            "ended_by_context_limit", 1,
                            "ended_by_error", 0,
                            "turns", 3,
                            "turns_per_conversation", 1.5,
                            "digest", "4ee6d21f105721e2",
                            "duration_ms", Map.of("p50", 40, "p90", 90, "max", 90))))));
    String html =
        ConversationSection.render(
            RunRecord.of(run).conversations(),
            List.of(
                turn("measured", 0, 1, 600, 0, 90.0),
                turn("measured", 1, 1, 600, 0, 70.0),
                turn("measured", 0, 2, 800, 672, 20.0),
                turn("warmup", 0, 2, 800, 672, 500.0)));
    assertTrue(
        html.contains(
            "<tr><td class=\"l\">chats</td><td>2</td><td>1</td><td>1</td><td>0</td><td>0</td>"
                + "<td>3</td><td>1.5</td><td>40</td><td>90</td><td>90</td>"
                + "<td class=\"l\"><code>4ee6d21f105721e2</code></td></tr>"),
        html);
    assertTrue(
        html.contains(
            "<tr><td>1</td><td>2</td><td>2</td><td>70</td><td>90</td><td>80</td><td>600</td>"
                + "<td>0</td><td>0</td><td>0</td><td class=\"l\">2 hit</td></tr>"),
        html);
    assertTrue(
        html.contains(
            "<tr><td>2</td><td>1</td><td>1</td><td>20</td><td>20</td><td>20</td><td>800</td>"
                + "<td>672</td><td>672</td><td>0.84</td><td class=\"l\">1 hit</td></tr>"),
        html);
  }

  @Test
  void cacheOutcomesReadAsCountsInTheirOrder() {
    Map<CacheOutcome, Integer> counts = new EnumMap<>(CacheOutcome.class);
    counts.put(CacheOutcome.MISS, 4);
    counts.put(CacheOutcome.UNPLANNED_HIT, 1);
    counts.put(CacheOutcome.HIT, 26);
    assertEquals("26 hit, 4 miss, 1 unplanned hit", ConversationSection.outcomes(counts));
  }
}
