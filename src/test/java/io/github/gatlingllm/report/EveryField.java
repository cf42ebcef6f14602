package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.List;

/**
 * A request record with every field set, for the tests that hold the record's three hand-written
 * paths (the line writer, the streaming reader, Jackson's tree) to one another. {@code
 * RecordFieldsTest} fails when a field added to {@link RequestRecord} is not set here.
 */
final class EveryField {

  static RequestRecord record(String text, List<Double> itl) {
    return RequestRecord.builder()
        .request("chat " + text)
        .phase("measured")
        .index(9_007_199_254_740_993L)
        .promptId("p-" + text)
        .digest("0123456789abcdef")
        .prefixGroup(7)
        .sharedPrefixTokens(256)
        .plannedTokens(512)
        .startMs(1_700_000_000_123L)
        .promptTokens(530)
        .promptTokensExact(true)
        .cachedTokens(256)
        .completionTokens(64)
        .completionTokensExact(true)
        .ttftMs(12.346)
        .timeToFirstEventMs(0.001)
        .itlMs(itl)
        .tpotMs(2.5170000000000003)
        .e2eMs(999_999_999.999)
        .outputTokensPerS(66.66518521810626)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .error("error: " + text)
        .workload("work " + text)
        .plannedCachedTokens(256)
        .cachePlanned(CacheOutcome.HIT)
        .cache(CacheOutcome.PARTIAL)
        .cacheWarmStart(true)
        .conversationTurn(new ConversationTurn(3L, 2, 1_024, "fedcba9876543210"))
        .sentMs(1_700_000_000_123.456)
        .scheduledMs(1_700_000_000_122.001)
        .traceRow(41L)
        .ttfoMs(47.5)
        .reasoningTokens(30)
        .reasoningTokensSource("usage")
        .answerTokens(34)
        .reasoningTpotMs(1.25)
        .answerTpotMs(12.5)
        .answerItlFrom(29)
        .cancelAfterMs(100.0)
        .sessionId("agent_l4_r256_t128-measured-7")
        .toolCalls(2)
        .images(2)
        .imageBytes(123_456L)
        .requestBytes(170_000L)
        .uploadMs(0.75)
        .build();
  }

  private EveryField() {}
}
