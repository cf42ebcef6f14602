package io.github.gatlingllm.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.testing.GatlingJvm;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cache truth through the real Gatling engine, against the embedded simulator, whose prefix cache
 * is the oracle: each request's cached tokens equal its planned ones, the verdict per mode, a cache
 * that does not do what the workload was designed for fails the build, and a warm start is caught
 * on a second same-seed run against one simulator (and not on the first, nor with {@code
 * llm.seed=auto}).
 */
@Tag("forked")
class CacheTruthTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  private record Run(int exit, String log, JsonNode record, List<JsonNode> requests) {}

  private Run run(String name, List<String> properties) throws Exception {
    Path folder = Files.createDirectories(results.resolve(name));
    Path log = folder.resolve("gatling.log");
    Process process = GatlingJvm.start(CacheModesSimulation.class, folder, properties, log);
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "Gatling did not finish within 300 s");
    String output = GatlingJvm.read(log);
    List<Path> runs = GatlingJvm.runFolders(CacheModesSimulation.class, folder);
    assertEquals(1, runs.size(), output);
    Path run = runs.get(0);
    JsonNode record = JSON.readTree(run.resolve("llm-run.json").toFile());
    List<JsonNode> requests = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("llm-requests.jsonl"))) {
      requests.add(JSON.readTree(line));
    }
    return new Run(process.exitValue(), output, record, requests);
  }

  private static Map<String, List<JsonNode>> byRequest(List<JsonNode> requests) {
    Map<String, List<JsonNode>> by = new LinkedHashMap<>();
    for (JsonNode r : requests) {
      by.computeIfAbsent(r.get("request").asText(), k -> new ArrayList<>()).add(r);
    }
    return by;
  }

  private static Map<String, JsonNode> series(JsonNode record) {
    Map<String, JsonNode> by = new LinkedHashMap<>();
    for (JsonNode w : record.get("cache").get("workloads")) {
      by.put(w.get("workload").asText(), w);
    }
    return by;
  }

  private static long count(List<JsonNode> rs, String phase, String field, String value) {
    return rs.stream()
        .filter(r -> phase.equals(r.get("phase").asText()))
        .filter(r -> value.equals(r.get(field).asText()))
        .count();
  }

  @Test
  void eachRequestGetsItsPlannedCachedTokensAndEveryModeIsAsPlanned() throws Exception {
    Run run = run("modes", List.of("-Dllm.assert.cacheAsPlanned=1.0"));
    assertEquals(0, run.exit(), run.log());
    Map<String, List<JsonNode>> by = byRequest(run.requests());
    assertEquals(
        List.of("chat repeat", "chat shared-prefix", "chat warm-groups", "chat unique"),
        List.copyOf(by.keySet()));
    for (JsonNode r : run.requests()) {
      String what = r.toString();
      assertEquals("ok", r.get("status").asText(), what);
      assertEquals(r.get("planned_cached_tokens").asInt(), r.get("cached_tokens").asInt(), what);
      assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), what);
      assertFalse(r.get("cache_warm_start").asBoolean(), what);
      assertEquals(r.get("request").asText(), "chat " + r.get("workload").asText(), what);
    }

    // repeat: the first request sent (a warmup one) misses, every later one hits.
    List<JsonNode> repeat = by.get("chat repeat");
    assertEquals(1, count(repeat, "warmup", "cache", "miss"));
    assertEquals(16, count(repeat, "measured", "cache", "hit"));
    // shared-prefix, cold groups: the first of each group misses, in each phase (the warmup's
    // groups are other prefixes).
    List<JsonNode> shared = by.get("chat shared-prefix");
    assertEquals(groups(shared, "warmup"), count(shared, "warmup", "cache", "miss"));
    assertEquals(groups(shared, "measured"), count(shared, "measured", "cache", "miss"));
    // warm groups: the warmup sends each measured group's prefix first, so every measured hits.
    List<JsonNode> warm = by.get("chat warm-groups");
    assertEquals(4, count(warm, "warmup", "cache", "miss"));
    assertEquals(16, count(warm, "measured", "cache", "hit"));
    // unique: nothing beyond the template, in whole blocks: none.
    List<JsonNode> unique = by.get("chat unique");
    assertEquals(
        20, count(unique, "warmup", "cache", "miss") + count(unique, "measured", "cache", "miss"));
    for (JsonNode r : unique) {
      assertEquals(0, r.get("cached_tokens").asInt(), r.toString());
    }

    JsonNode cache = run.record().get("cache");
    assertEquals(16, cache.get("block_tokens").asInt());
    assertEquals(1, cache.get("template_tokens").asInt());
    assertFalse(cache.get("warm_start").asBoolean());
    assertEquals("as planned", cache.get("verdict").asText());
    assertEquals(64, cache.get("requests").asInt());
    assertEquals(64, cache.get("as_planned").asInt());
    for (JsonNode w : series(run.record()).values()) {
      assertEquals("as planned", w.get("verdict").asText(), w.toString());
      assertEquals(
          w.get("planned_hit_ratio").asDouble(), w.get("observed_hit_ratio").asDouble(), 1e-12);
    }
    assertEquals(
        List.of(0, 1, 2, 3).size(),
        series(run.record()).get("warm-groups").get("prefix_groups").size());
    JsonNode spec = null;
    for (JsonNode w : run.record().get("workloads")) {
      if (w.get("workload").asText().equals("warm-groups")) {
        spec = w.get("spec");
      }
    }
    assertTrue(spec != null && spec.get("warm_groups").asBoolean(), String.valueOf(spec));
    assertTrue(
        run.log()
            .contains(
                "chat warm-groups CACHE: percentage of successful events is greater than or equal"
                    + " to 100.0 : true"),
        run.log());
    assertFalse(run.log().contains("WARM START"), run.log());
  }

  private static long groups(List<JsonNode> rs, String phase) {
    Set<Integer> groups = new HashSet<>();
    for (JsonNode r : rs) {
      if (phase.equals(r.get("phase").asText())) {
        groups.add(r.get("prefix_group").asInt());
      }
    }
    return groups.size();
  }

  @Test
  void aCacheThatHoldsNothingIsBelowPlanAndFailsTheBuild() throws Exception {
    Run run =
        run(
            "off",
            List.of(
                "-Dcachetest.modes=repeat",
                "-Dcachetest.cacheBlocks=0",
                "-Dllm.assert.cacheAsPlanned=0.9"));
    assertEquals(2, run.exit(), run.log());
    JsonNode cache = run.record().get("cache");
    assertEquals("below plan", cache.get("verdict").asText());
    assertEquals(16, cache.get("outcomes").get("miss").asInt());
    assertEquals(0, cache.get("as_planned").asInt());
    assertEquals(0.0, cache.get("observed_hit_ratio").asDouble());
    assertTrue(
        run.log()
            .contains(
                "chat repeat CACHE: percentage of successful events is greater than or equal to"
                    + " 90.0 : false (actual : 0.0)"),
        run.log());
  }

  @Test
  void aWarmStartIsCaughtOnASecondSameSeedRunAgainstOneSimulator() throws Exception {
    try (Simulator simulator =
        Simulator.start(SimulatorConfig.defaults().withBaseTtftMs(2).withDecodeMsPerToken(1), 0)) {
      List<String> sameSeed =
          List.of(
              "-Dllm.baseUrl=" + simulator.baseUrl(),
              "-Dllm.seed=42",
              "-Dcachetest.modes=unique,warm-groups");

      // The simulator answers the server probe at once (2 s at most), even on a busy machine.
      HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/models")).build(),
              HttpResponse.BodyHandlers.ofString());
      Run first = run("first", sameSeed);
      assertEquals(0, first.exit(), first.log());
      JsonNode target = first.record().get("target");
      assertEquals(
          "gatling-llm simulator", target.get("server").get("engine").asText(), target.toString());
      JsonNode cold = first.record().get("cache");
      assertFalse(cold.get("warm_start").asBoolean(), cold.toString());
      assertEquals(0, cold.get("warm_start_requests").asInt());
      assertEquals("as planned", cold.get("verdict").asText());
      assertFalse(first.log().contains("WARM START"), first.log());

      Run second = run("second", sameSeed);
      JsonNode warm = second.record().get("cache");
      assertTrue(warm.get("warm_start").asBoolean(), warm.toString());
      // Every prompt: the unique ones (4 warmup, 16 measured) and the warm groups' (4 warmup
      // prompts found whole where only their group prefix could be, 16 measured likewise).
      assertEquals(40, warm.get("warm_start_requests").asInt(), warm.toString());
      assertEquals(
          "the server's cache already held 40 of this run's prompts (a run with the same seed"
              + " before?): change llm.seed (llm.seed=auto picks a fresh one) or reset the"
              + " server's cache",
          warm.get("warm_start_message").asText());
      assertEquals("above plan", series(second.record()).get("unique").get("verdict").asText());
      assertEquals(
          16, series(second.record()).get("unique").get("outcomes").get("unplanned_hit").asInt());
      assertEquals(
          1,
          occurrences(second.log(), "WARM START: the server's cache already held"),
          second.log());
      String report = Files.readString(reportPage("second"));
      assertTrue(report.contains("id=\"warm-start\""), "the report says so at the top");

      List<String> autoSeed = new ArrayList<>(sameSeed);
      autoSeed.set(1, "-Dllm.seed=auto");
      Run third = run("third", autoSeed);
      assertEquals(0, third.exit(), third.log());
      JsonNode prompts = third.record().get("workloads").get(0);
      assertTrue(prompts.get("seed_auto").asBoolean(), prompts.toString());
      assertNotEquals(42, prompts.get("seed").asLong());
      assertFalse(third.record().get("cache").get("warm_start").asBoolean());
    }
  }

  private Path reportPage(String name) throws IOException {
    Path folder = results.resolve(name);
    return GatlingJvm.runFolders(CacheModesSimulation.class, folder)
        .get(0)
        .resolve("llm-report.html");
  }

  private static int occurrences(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
