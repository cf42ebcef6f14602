package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.gatling.ReplayServer.Reply;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every case of {@link FaultCorpus} through the real Gatling engine, in one run: {@link
 * OracleSimulation} against a {@link ReplayServer}, 4 virtual users, {@code llm.timeout=2s}, one
 * measured request per case (the server picks the case from the prompt's nonce). One test per case
 * checks that case's line of {@code llm-requests.jsonl}.
 */
class FaultCorpusTest {

  static final String API_KEY = "sk-gllm-corpus-5e1f0c9a7b3d";
  static final String URL_PASSWORD = "corpus-pw-8c4d2a";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> NAMES = new ArrayList<>(FaultCorpus.cases().keySet());

  @TempDir static Path results;
  static Path run;
  static Path log;
  static Map<String, JsonNode> byCase = new HashMap<>();
  static List<JsonNode> lines = new ArrayList<>();
  static ReplayServer server;

  @BeforeAll
  static void runTheCorpusOnce() throws Exception {
    Map<String, Reply> cases = FaultCorpus.cases();
    PromptSource prompts =
        new PromptSource(
            PromptSpec.unique(),
            EstimatedTokenCounter.INSTANCE,
            0,
            "c4_in128_out8",
            "measured",
            128);
    Map<String, Reply> byNonce = new HashMap<>();
    for (int i = 0; i < NAMES.size(); i++) {
      String text = prompts.take(i).text();
      byNonce.put(text.substring(0, text.indexOf(']') + 1), cases.get(NAMES.get(i)));
    }
    server = new ReplayServer(p -> byNonce.get(p.substring(0, p.indexOf(']') + 1)));
    log = results.resolve("gatling.log");
    Process gatling =
        GatlingJvm.start(
            OracleSimulation.class,
            results,
            List.of(
                "-Dllm.baseUrl=http://corpus:"
                    + URL_PASSWORD
                    + "@127.0.0.1:"
                    + server.port()
                    + "/v1",
                "-Dllm.apiKey=" + API_KEY,
                "-Dllm.model=m",
                "-Dllm.requests=" + NAMES.size(),
                "-Dllm.warmupRequests=0",
                "-Dllm.concurrency=4",
                "-Dllm.timeout=2s"),
            log);
    assertTrue(gatling.waitFor(240, TimeUnit.SECONDS), "Gatling did not finish within 240 s");
    assertEquals(0, gatling.exitValue(), () -> "Gatling failed:\n" + GatlingJvm.read(log));
    List<Path> runs = GatlingJvm.runFolders(OracleSimulation.class, results);
    assertEquals(1, runs.size(), () -> "run folders: " + runs + "\n" + GatlingJvm.read(log));
    run = runs.get(0);
    for (String line : Files.readAllLines(run.resolve("llm-requests.jsonl"))) {
      JsonNode r = JSON.readTree(line);
      lines.add(r);
      byCase.put(NAMES.get(r.get("index").asInt()), r);
    }
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void dump() {
    for (String name : NAMES) {
      System.out.println(name + " -> " + byCase.get(name));
    }
  }
}
