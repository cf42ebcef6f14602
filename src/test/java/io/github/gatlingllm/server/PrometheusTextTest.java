package io.github.gatlingllm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.server.PrometheusText.Exposition;
import io.github.gatlingllm.server.PrometheusText.Sample;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link PrometheusText}: one test per rule of the text exposition format. */
class PrometheusTextTest {

  private static Sample only(String text) {
    Exposition e = PrometheusText.parse(text);
    assertEquals(List.of(), e.errors());
    assertEquals(1, e.samples().size());
    return e.samples().get(0);
  }

  @Test
  void sampleWithoutLabels() {
    assertEquals(
        new Sample("llamacpp:prompt_tokens_total", Map.of(), 26, null),
        only("llamacpp:prompt_tokens_total 26\n"));
  }

  @Test
  void sampleWithLabelsKeepsTheirOrder() {
    Sample s = only("vllm:num_requests_running{model_name=\"Qwen/Qwen3-0.6B\",engine=\"0\"} 3.0");
    assertEquals(List.of("model_name", "engine"), List.copyOf(s.labels().keySet()));
    assertEquals("Qwen/Qwen3-0.6B", s.labels().get("model_name"));
    assertEquals(3.0, s.value());
  }

  @Test
  void labelValueEscapes() {
    Sample s = only("m{a=\"back\\\\slash\",b=\"quo\\\"te\",c=\"new\\nline\",d=\"other\\x\"} 1");
    assertEquals("back\\slash", s.labels().get("a"));
    assertEquals("quo\"te", s.labels().get("b"));
    assertEquals("new\nline", s.labels().get("c"));
    // An unknown escape is kept as written.
    assertEquals("other\\x", s.labels().get("d"));
  }

  @Test
  void labelValueMayHoldBracesCommasAndHashes() {
    Sample s = only("m{path=\"/a{b},c # d\"} 2");
    assertEquals(Map.of("path", "/a{b},c # d"), s.labels());
  }

  @Test
  void trailingCommaAfterTheLastLabel() {
    assertEquals(Map.of("a", "1"), only("m{a=\"1\",} 1").labels());
  }

  @Test
  void emptyLabelSet() {
    assertEquals(new Sample("m", Map.of(), 1, null), only("m{} 1"));
  }

  @Test
  void blanksAndTabsBetweenTokens() {
    assertEquals(
        new Sample("m", Map.of("a", "x"), 5, 1700000000000L),
        only("  m { a = \"x\" , }\t 5 \t1700000000000  "));
  }

  @Test
  void specialValues() {
    Exposition e =
        PrometheusText.parse(
            "a +Inf\nb -Inf\nc NaN\nd inf\ne Infinity\nf nan\ng -infinity\nh 1.5e-3\n");
    assertEquals(List.of(), e.errors());
    assertEquals(Double.POSITIVE_INFINITY, e.sum("a"));
    assertEquals(Double.NEGATIVE_INFINITY, e.sum("b"));
    assertEquals(Double.NaN, e.sum("c"));
    assertEquals(Double.POSITIVE_INFINITY, e.sum("d"));
    assertEquals(Double.POSITIVE_INFINITY, e.sum("e"));
    assertEquals(Double.NaN, e.sum("f"));
    assertEquals(Double.NEGATIVE_INFINITY, e.sum("g"));
    assertEquals(0.0015, e.sum("h"));
  }

  @Test
  void histogramBucketWithInfBound() {
    Sample s = only("vllm:time_to_first_token_seconds_bucket{le=\"+Inf\",engine=\"0\"} 44");
    assertEquals("+Inf", s.labels().get("le"));
    assertEquals(44.0, s.value());
  }

  @Test
  void timestampIsOptional() {
    assertNull(only("m 1").timestampMs());
    assertEquals(-5L, only("m 1 -5").timestampMs());
  }

  @Test
  void openMetricsTimestampInSecondsWithAFraction() {
    assertEquals(1700000000250L, only("m 1 1700000000.25").timestampMs());
  }

  @Test
  void openMetricsExemplarIsDropped() {
    assertEquals(
        new Sample("m_bucket", Map.of("le", "1"), 3, null),
        only("m_bucket{le=\"1\"} 3 # {trace_id=\"abc\"} 0.5 1700000000.1"));
  }

  @Test
  void helpAndTypeLines() {
    Exposition e =
        PrometheusText.parse(
            "# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed, excluding"
                + " cached tokens\n"
                + "# TYPE llamacpp:prompt_tokens_total counter\n"
                + "llamacpp:prompt_tokens_total 26\n");
    assertEquals(
        Map.of(
            "llamacpp:prompt_tokens_total",
            "Number of prompt tokens processed, excluding cached tokens"),
        e.help());
    assertEquals(Map.of("llamacpp:prompt_tokens_total", "counter"), e.types());
    assertEquals(1, e.samples().size());
  }

  @Test
  void helpEscapes() {
    Exposition e = PrometheusText.parse("# HELP m a\\\\b\\nc \\\"d\\\"\n");
    // \\ and \n are escapes in HELP; \" is not.
    assertEquals(Map.of("m", "a\\b\nc \\\"d\\\""), e.help());
  }

  @Test
  void emptyHelpText() {
    assertEquals(Map.of("m", "", "n", ""), PrometheusText.parse("# HELP m\n# HELP n \n").help());
  }

  @Test
  void otherCommentsAreSkipped() {
    Exposition e =
        PrometheusText.parse(
            "# a comment\n#no blank after the hash\n  # indented comment\n# EOF\n# HELP\nm 1\n");
    assertEquals(List.of(), e.errors());
    assertEquals(1, e.samples().size());
    assertEquals(Map.of(), e.help());
  }

  @Test
  void blankLinesAndCarriageReturns() {
    Exposition e = PrometheusText.parse("\n\r\na 1\r\n\t\nb 2\r\n");
    assertEquals(List.of(), e.errors());
    assertEquals(Set.of("a", "b"), e.names());
    assertEquals(1.0, e.sum("a"));
  }

  @Test
  void lastLineWithoutNewline() {
    assertEquals(2.0, PrometheusText.parse("a 1\nb 2").sum("b"));
  }

  @Test
  void quotedUtf8MetricAndLabelNames() {
    Sample s = only("{\"my.metric\", \"label.name\"=\"v\", plain=\"w\"} 7");
    assertEquals("my.metric", s.name());
    assertEquals(Map.of("label.name", "v", "plain", "w"), s.labels());
    assertEquals(7.0, s.value());
  }

  @Test
  void quotedNameInTypeLine() {
    assertEquals(
        Map.of("my.metric", "gauge"), PrometheusText.parse("# TYPE \"my.metric\" gauge\n").types());
  }

  @Test
  void colonsInMetricNames() {
    assertEquals("sglang:cache_hit_rate", only("sglang:cache_hit_rate{tp_rank=\"0\"} 0.5").name());
  }

  @Test
  void badLinesAreNamedAndSkipped() {
    Exposition e =
        PrometheusText.parse(
            String.join(
                "\n",
                "good 1",
                "novalue",
                "m{a=\"1\" 2",
                "m{a=1} 2",
                "m{a=\"open} 2",
                "m abc",
                "m 1f",
                "m 1 2 3",
                "9metric 1",
                "m{a=\"1\",a=\"2\"} 1",
                "m 1 notatime",
                "m{a=\"1\"}2",
                "also_good{x=\"y\"} 2"));
    assertEquals(2, e.samples().size());
    assertEquals(
        List.of(
            "line 2: novalue: no value",
            "line 3: m: expected , or } between labels",
            "line 4: m: label a: expected a quoted value",
            "line 5: a quoted string opened at column 5 is not closed",
            "line 6: m: value \"abc\" is not a number",
            "line 7: m: value \"1f\" is not a number",
            "line 8: m: unexpected text after the value and timestamp: 3",
            "line 9: expected a metric name at column 1, found '9'",
            "line 10: m: label a given twice",
            "line 11: m: timestamp \"notatime\" is not a number",
            "line 12: m: unexpected '2' at column 9"),
        e.errors());
  }

  @Test
  void badTypeLine() {
    assertEquals(
        List.of(
            "line 1: # TYPE m: expected one of counter, gauge, histogram, summary, untyped",
            "line 2: # TYPE m: expected one of counter, gauge, histogram, summary, untyped"),
        PrometheusText.parse("# TYPE m\n# TYPE m counter extra\n").errors());
  }

  @Test
  void sumAndMeanOverLabelSets() {
    Exposition e =
        PrometheusText.parse(
            "vllm:kv_cache_usage_perc{engine=\"0\"} 0.25\n"
                + "vllm:kv_cache_usage_perc{engine=\"1\"} 0.75\n");
    assertEquals(1.0, e.sum("vllm:kv_cache_usage_perc"));
    assertEquals(0.5, e.mean("vllm:kv_cache_usage_perc"));
    assertNull(e.sum("absent"));
    assertNull(e.mean("absent"));
  }

  @Test
  void realLlamaCppExposition() {
    // llama-server b11669 --metrics (scripts/llama-server.sh) after two chat requests, trimmed.
    Exposition e =
        PrometheusText.parse(
            """
            # HELP llamacpp:prompt_tokens_total Number of prompt tokens processed, excluding \
            cached tokens
            # TYPE llamacpp:prompt_tokens_total counter
            llamacpp:prompt_tokens_total 26
            # HELP llamacpp:prompt_tokens_cached_total Number of prompt tokens reused from the \
            cache
            # TYPE llamacpp:prompt_tokens_cached_total counter
            llamacpp:prompt_tokens_cached_total 24
            # HELP llamacpp:prompt_seconds_total Total time spent processing prompts
            # TYPE llamacpp:prompt_seconds_total counter
            llamacpp:prompt_seconds_total 0.033751
            # HELP llamacpp:requests_processing Number of requests processing
            # TYPE llamacpp:requests_processing gauge
            llamacpp:requests_processing 0
            # HELP llamacpp:requests_deferred Number of requests deferred
            # TYPE llamacpp:requests_deferred gauge
            llamacpp:requests_deferred 0
            """);
    assertEquals(List.of(), e.errors());
    assertEquals(5, e.samples().size());
    assertEquals(24.0, e.sum("llamacpp:prompt_tokens_cached_total"));
    assertEquals(0.033751, e.sum("llamacpp:prompt_seconds_total"));
    assertEquals("gauge", e.types().get("llamacpp:requests_deferred"));
  }
}
