package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.examples.PromptFileSimulation;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example {@link PromptFileSimulation} replaying a prompts file of each format against the
 * embedded simulator (in this JVM, on a free port): every row sent once, each request's digest the
 * SHA-256 (16 hex digits) of its text, the phase digest over those in index order, the file's
 * SHA-256 in {@code llm-run.json}. The expected digests are computed here with the JDK's SHA-256,
 * not with the code under test.
 */
@Tag("forked")
@Tag("parallel")
class PromptFileRunsTest {

  private static Simulator server;

  @TempDir Path results;

  @BeforeAll
  static void startServer() {
    server = Simulator.start(SimulatorConfig.defaults().withDecodeMsPerToken(1), 0);
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  static String sha16(String text) throws Exception {
    return sha256(text.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
  }

  private DslRun replay(Path file, String... more) throws Exception {
    List<String> properties = new ArrayList<>();
    properties.add("-Dllm.baseUrl=" + server.baseUrl());
    properties.add("-Dllm.promptsFile=" + file);
    properties.add("-Dllm.concurrency=2");
    properties.addAll(List.of(more));
    return DslRun.run(PromptFileSimulation.class, results, properties.toArray(String[]::new))
        .exits(0);
  }

  /** Checks each request's digest against the texts by phase and index; returns them by index. */
  private static Map<Long, JsonNode> byIndex(DslRun run, String phase, List<String> texts)
      throws Exception {
    Map<Long, JsonNode> requests = new TreeMap<>();
    for (JsonNode r : run.requests()) {
      if (r.get("phase").asText().equals(phase)) {
        assertEquals("ok", r.get("status").asText(), r.toString());
        long index = r.get("index").asLong();
        assertEquals(sha16(texts.get((int) index)), r.get("digest").asText(), r.toString());
        requests.put(index, r);
      }
    }
    return requests;
  }

  private static String phaseDigest(List<String> texts) throws Exception {
    List<String> digests = new ArrayList<>();
    for (String t : texts) {
      digests.add(sha16(t));
    }
    return sha16(String.join("\n", digests));
  }

  @Test
  void aJsonlFileIsReplayedRowByRowWithItsDigests() throws Exception {
    String messages =
        "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"What"
            + " is TTFT?\"}]";
    Path file =
        Files.writeString(
            results.resolve("prompts.jsonl"),
            "{\"prompt\": \"Explain a KV cache in one sentence.\"}\n"
                + "{\"messages\": "
                + messages
                + ", \"output_tokens\": 3}\n"
                + "{\"prompt\": \"caf\u00e9 \u00fcber na\u00efve\", \"max_tokens\": 5}\n"
                + "{\"prompt\": \"Name a Gatling injection profile.\"}\n",
            StandardCharsets.UTF_8);
    List<String> texts =
        List.of(
            "Explain a KV cache in one sentence.",
            messages,
            "caf\u00e9 \u00fcber na\u00efve",
            "Name a Gatling injection profile.");

    DslRun run = replay(file);
    Map<Long, JsonNode> requests = byIndex(run, "measured", texts);

    assertEquals(List.of(0L, 1L, 2L, 3L), List.copyOf(requests.keySet()));
    assertEquals(4, run.requests().size());
    // Planned tokens: the text's words (estimate tokenizer); a messages row: its contents' words.
    assertEquals(7, requests.get(0L).get("planned_tokens").asInt());
    assertEquals(5, requests.get(1L).get("planned_tokens").asInt());
    assertEquals("row-1", requests.get(1L).get("prompt_id").asText());
    // The rows' own max_tokens: the simulator generates exactly that many.
    assertEquals(3, requests.get(1L).get("completion_tokens").asInt());
    assertEquals(5, requests.get(2L).get("completion_tokens").asInt());
    assertEquals(64, requests.get(3L).get("completion_tokens").asInt());
    // No prefix sharing is planned for a file: no cache plan, so no outcome judged against one.
    assertEquals(true, requests.get(0L).get("cache").isNull(), requests.get(0L).toString());
    assertEquals(true, requests.get(0L).get("cache_planned").isNull(), requests.get(0L).toString());
    JsonNode prompts = run.record().get("prompts");
    assertEquals(phaseDigest(texts), prompts.at("/phases/measured/digest").asText());
    assertEquals(4, prompts.at("/phases/measured/requests").asLong());
    assertEquals("file", prompts.at("/spec/mode").asText());
    assertEquals(sha256(Files.readAllBytes(file)), prompts.at("/spec/sha256").asText());
    assertEquals(file.toAbsolutePath().toString(), prompts.at("/spec/file").asText());
    assertEquals("jsonl", prompts.at("/spec/format").asText());
    assertEquals(4, prompts.at("/spec/rows").asInt());
    assertEquals("index", prompts.at("/spec/order").asText());
    assertEquals("prompts.jsonl", prompts.get("workload").asText());
  }

  @Test
  void aCsvColumnIsReplayedWithAWarmupFromTheFilesEnd() throws Exception {
    Path file =
        Files.writeString(
            results.resolve("prompts.csv"),
            "id,question\n1,First question\n2,\"Second, with a comma\"\n3,Third one\n4,Warm me\n",
            StandardCharsets.UTF_8);

    DslRun run = replay(file, "-Dllm.promptsColumn=question", "-Dllm.warmupRequests=1");
    List<String> measuredTexts = List.of("First question", "Second, with a comma", "Third one");
    Map<Long, JsonNode> measured = byIndex(run, "measured", measuredTexts);
    Map<Long, JsonNode> warmup = byIndex(run, "warmup", List.of("Warm me"));

    assertEquals(List.of(0L, 1L, 2L), List.copyOf(measured.keySet()));
    assertEquals(List.of(0L), List.copyOf(warmup.keySet()));
    JsonNode prompts = run.record().get("prompts");
    assertEquals(phaseDigest(measuredTexts), prompts.at("/phases/measured/digest").asText());
    assertEquals(phaseDigest(List.of("Warm me")), prompts.at("/phases/warmup/digest").asText());
    assertEquals("question", prompts.at("/spec/column").asText());
    assertEquals(sha256(Files.readAllBytes(file)), prompts.at("/spec/sha256").asText());
  }

  @Test
  void aShareGptFileSendsEachFirstHumanTurnAndWrapsWhenAsked() throws Exception {
    Path file =
        Files.writeString(
            results.resolve("sharegpt.json"),
            "[{\"id\": \"a\", \"conversations\": [{\"from\": \"human\", \"value\": \"Hello?\"},"
                + " {\"from\": \"gpt\", \"value\": \"Hi.\"}, {\"from\": \"human\", \"value\":"
                + " \"Later\"}]},\n"
                + " {\"id\": \"b\", \"conversations\": [{\"from\": \"system\", \"value\": \"S\"},"
                + " {\"from\": \"human\", \"value\": \"What is goodput?\"}]}]\n",
            StandardCharsets.UTF_8);
    List<String> texts =
        List.of("Hello?", "What is goodput?", "Hello?", "What is goodput?", "Hello?");

    DslRun run = replay(file, "-Dllm.requests=5", "-Dllm.promptsWrap=true");
    Map<Long, JsonNode> measured = byIndex(run, "measured", texts);

    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), List.copyOf(measured.keySet()));
    JsonNode prompts = run.record().get("prompts");
    assertEquals(phaseDigest(texts), prompts.at("/phases/measured/digest").asText());
    assertEquals("json", prompts.at("/spec/format").asText());
    assertEquals(true, prompts.at("/spec/wrap").asBoolean());
  }

  @Test
  void aBadFileStopsTheRunBeforeAnyLoadWithOneLine() throws Exception {
    Path file =
        Files.writeString(
            results.resolve("bad.jsonl"),
            "{\"prompt\": \"fine\"}\n{\"text\": \"no prompt here\"}\n",
            StandardCharsets.UTF_8);
    long before = server.stats().requests(200);

    DslRun run =
        DslRun.run(
            PromptFileSimulation.class,
            results,
            "-Dllm.baseUrl=" + server.baseUrl(),
            "-Dllm.promptsFile=" + file);

    assertEquals(1, run.exitCode, run.log);
    assertEquals(before, server.stats().requests(200));
    assertEquals(false, DslRun.anyRunRecord(results), run.log);
    // Refused while the simulation is constructed: the message alone, no stack trace.
    run.stopsWithOneLine(
        "prompts file "
            + file
            + " line 2: no \"prompt\" (text) or \"messages\" (chat), expected {\"prompt\":"
            + " \"text\"} or {\"messages\": [{\"role\": \"user\", \"content\": \"text\"}]}");
  }
}
