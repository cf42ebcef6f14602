package io.github.gatlingllm.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.levels.LoadLevel;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.settings.LiveSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/grafana/gatling-llm.json against the endpoint: every PromQL query of the dashboard names
 * only metrics a real scrape of {@link LiveEndpoint} serves.
 */
class DashboardTest {

  static final Path DASHBOARD = Path.of("deploy/grafana/gatling-llm.json");

  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  /** PromQL's words that are not metric names: aggregations, functions, keywords. */
  private static final Set<String> WORDS =
      Set.of(
          "sum",
          "min",
          "max",
          "avg",
          "count",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "and",
          "or",
          "unless",
          "bool",
          "offset",
          "topk",
          "bottomk",
          "quantile",
          "stddev",
          "stdvar",
          "count_values",
          "group",
          "inf",
          "nan");

  /**
   * The metric names of a PromQL expression: identifiers outside strings, label matchers, ranges
   * and grouping lists that are neither a function call nor a PromQL word.
   */
  static Set<String> metricNames(String expr) {
    String bare =
        expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
    Set<String> names = new TreeSet<>();
    Matcher m = NAME.matcher(bare);
    while (m.find()) {
      String word = m.group();
      int after = m.end();
      while (after < bare.length() && bare.charAt(after) == ' ') {
        after++;
      }
      boolean call = after < bare.length() && bare.charAt(after) == '(';
      boolean number = m.start() > 0 && Character.isDigit(bare.charAt(m.start() - 1));
      if (!call && !number && !WORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) {
        names.add(word);
      }
    }
    return names;
  }

  /** Every PromQL text of the dashboard: the panels' targets and the variables' queries. */
  static List<String> queries(JsonNode dashboard) {
    List<String> out = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.add(target.path("expr").asText());
      }
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      String q = variable.path("definition").asText();
      Matcher m = Pattern.compile("label_values\\(([^,)]+)").matcher(q);
      if (m.find()) {
        out.add(m.group(1).strip());
      }
    }
    return out;
  }

  /** The names a real scrape of the endpoint serves, fed one request of each kind. */
  private static Set<String> served() throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    LiveMetrics metrics =
        new LiveMetrics(
            "0",
            new LiveMetrics.Gauges(
                () -> 3, () -> List.of(new LoadLevel("chat", true, 4, 0, 0, 1_000)), () -> 0.25));
    LiveEndpoint endpoint = LiveEndpoint.start(new LiveSettings(port, Duration.ZERO), metrics);
    try {
      endpoint.record(
          RequestRecord.builder()
              .request("chat")
              .phase("measured")
              .startMs(1_000)
              .promptTokens(10)
              .cachedTokens(5)
              .completionTokens(3)
              .ttftMs(20.0)
              .itlMs(List.of(5.0, 6.0))
              .tpotMs(5.5)
              .e2eMs(31.0)
              .sentMs(1_001.0)
              .scheduledMs(1_000.0)
              .httpStatus(200)
              .status(RequestStatus.OK)
              .build());
      endpoint.drain();
      String text =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      Set<String> names = new TreeSet<>();
      text.lines()
          .filter(l -> !l.startsWith("#") && !l.isBlank())
          .forEach(
              l -> {
                Matcher m = NAME.matcher(l);
                m.lookingAt();
                names.add(m.group());
              });
      return names;
    } finally {
      endpoint.close();
    }
  }

  @Test
  void everyQueryNamesOnlyServedMetrics() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    Set<String> used = new TreeSet<>();
    for (String q : queries(dashboard)) {
      used.addAll(metricNames(q));
    }
    Set<String> unserved = new TreeSet<>(used);
    unserved.removeAll(served());
    assertEquals(Set.of(), unserved);
  }

  @Test
  void theDashboardChartsEveryLiveFigure() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    Set<String> used = new TreeSet<>();
    for (String q : queries(dashboard)) {
      used.addAll(metricNames(q));
    }
    assertEquals(
        new TreeSet<>(
            List.of(
                "gatling_llm_cached_tokens_total",
                "gatling_llm_client_cpu_share",
                "gatling_llm_client_schedule_lag_seconds",
                "gatling_llm_e2e_seconds_bucket",
                "gatling_llm_input_tokens_total",
                "gatling_llm_itl_seconds_bucket",
                "gatling_llm_load_level",
                "gatling_llm_output_tokens_total",
                "gatling_llm_requests_in_flight",
                "gatling_llm_requests_total",
                "gatling_llm_schedule_lag_seconds_bucket",
                "gatling_llm_tpot_seconds_bucket",
                "gatling_llm_ttft_seconds_bucket")),
        used);
  }

  @Test
  void aQuantileQueryNamesItsBucketSeries() {
    assertEquals(
        Set.of("gatling_llm_ttft_seconds_bucket"),
        metricNames(
            "histogram_quantile(0.99, sum by (le, request)"
                + " (rate(gatling_llm_ttft_seconds_bucket{request=~\"$request\"}[$__rate_interval])))"));
  }

  @Test
  void aRatioQueryNamesBothSides() {
    assertEquals(
        Set.of("gatling_llm_cached_tokens_total", "gatling_llm_input_tokens_total"),
        metricNames(
            "sum(rate(gatling_llm_cached_tokens_total[1m])) /"
                + " sum(rate(gatling_llm_input_tokens_total{phase=\"a{b}\"}[1m]))"));
  }

  @Test
  void aMisspelledMetricIsFoundUnserved() throws Exception {
    Set<String> unserved =
        new TreeSet<>(metricNames("sum by (status) (rate(gatling_llm_request_total[1m]))"));
    unserved.removeAll(served());
    assertEquals(Set.of("gatling_llm_request_total"), unserved);
  }

  /**
   * A target's expression as it reads for a run of one JVM, whose series carry no {@code shard}
   * label: null when the target selects only sharded series ({@code shard!=""}), else the
   * expression without its shard matchers, without {@code shard} in its grouping, and without
   * spaces.
   */
  static String unsharded(String expr) {
    if (expr.contains("shard!=\"\"")) {
      return null;
    }
    return expr.replaceAll(",?\\s*shard\\s*=~?\\s*\"[^\"]*\"", "")
        .replaceAll("\\{\\s*,", "{")
        .replaceAll("\\b(by|without)\\s*\\(\\s*shard\\s*\\)", "")
        .replaceAll(",\\s*shard\\b", "")
        .replaceAll("\\bshard\\s*,", "")
        .replaceAll("\\s+", "");
  }

  @Test
  void noTwoTargetsOfAPanelDrawTheSameSeriesForARunOfOneJvm() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    List<String> twice = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      java.util.Map<String, String> seen = new java.util.HashMap<>();
      for (JsonNode target : panel.path("targets")) {
        String view = unsharded(target.path("expr").asText());
        if (view == null) {
          continue;
        }
        String before = seen.putIfAbsent(view, target.path("refId").asText());
        if (before != null) {
          twice.add(
              panel.path("title").asText()
                  + ": "
                  + before
                  + " and "
                  + target.path("refId").asText());
        }
      }
    }
    assertEquals(List.of(), twice);
  }

  @Test
  void aLegendNamesTheShardOnlyOfTargetsWhoseSeriesHaveOne() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    List<String> empty = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        // A run of one JVM has no shard label: "shard {{shard}}" would read "shard ".
        if (target.path("legendFormat").asText().contains("{{shard}}")
            && !target.path("expr").asText().contains("shard!=\"\"")) {
          empty.add(panel.path("title").asText() + " " + target.path("refId").asText());
        }
      }
    }
    assertEquals(List.of(), empty);
  }

  @Test
  void aTotalBesideItsPerShardSeriesIsOneSeriesForOneJvm() {
    assertEquals(
        unsharded("sum(gatling_llm_requests_in_flight{shard=~\"$shard\"})"),
        unsharded("sum by (shard) (gatling_llm_requests_in_flight{shard=~\"$shard\"})"));
  }
}
