package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.examples.HttpPromptsSimulation;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The design card's shape, through the real Gatling engine: {@code feed(prompts())} then Gatling's
 * own {@code http()} posting {@code llm.text}, with {@code .protocols(httpProtocol, llm)} (the
 * example {@link HttpPromptsSimulation}, against the embedded simulator in this JVM). The run
 * writes {@code llm-run.json} with the prompts handed out and their digest, {@code
 * llm-report.html}, and links it from Gatling's {@code index.html}; every prompt reached the server
 * once.
 */
@Tag("forked")
@Tag("parallel")
class GatlingHttpRunsTest {

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

  @Test
  void promptsPostedWithGatlingsHttpAreRecordedAndReported() throws Exception {
    DslRun run =
        DslRun.run(
                HttpPromptsSimulation.class,
                results,
                "-Dllm.baseUrl=" + server.baseUrl(),
                "-Dllm.requests=20",
                "-Dllm.concurrency=3")
            .exits(0);

    assertEquals(20, server.stats().requests(200), server.stats().toString());
    assertEquals(List.of(20L, 20L, 0L), run.row("complete"));
    JsonNode record = run.record();
    JsonNode prompts = record.get("prompts");
    // The same prompts as gatling-llm prompts --mode unique --input-tokens 128 --requests 20.
    PromptSource expected =
        new PromptSource(
            PromptSpec.unique(),
            EstimatedTokenCounter.INSTANCE,
            0,
            "c3_in128_out128",
            "measured",
            128);
    expected.prepare(LongStream.range(0, 20).boxed().toList());
    assertEquals(expected.digest(), prompts.at("/phases/measured/digest").asText());
    assertEquals(20, prompts.at("/phases/measured/requests").asLong());
    assertEquals(0, prompts.at("/phases/warmup/requests").asLong());
    assertEquals("unique", prompts.at("/spec/mode").asText());
    assertEquals("c3_in128_out128", prompts.get("case_id").asText());
    assertEquals("gatling-http", record.get("requests_sent_by").asText());
    assertEquals(20, record.at("/prompts_handed_out/measured").asLong());
    assertEquals(0, record.get("requests_recorded").asLong());
    assertEquals(HttpPromptsSimulation.class.getName(), record.get("simulation").asText());
    assertFalse(record.get("interrupted").asBoolean());
    String page = Files.readString(run.folder().resolve("llm-report.html"), StandardCharsets.UTF_8);
    assertTrue(page.contains(expected.digest()), "the page shows the phase digest");
    assertTrue(page.contains("posted with Gatling&#39;s own http()"), "the page says why no TTFT");
    String index = Files.readString(run.folder().resolve("index.html"), StandardCharsets.UTF_8);
    assertTrue(index.contains("id=\"llm_report_link\""), "index.html links the LLM report");
    assertEquals(
        1,
        run.count(
            "LLM record of the prompts handed to Gatling's http(): 20 measured and 0 warmup"
                + " prompts of 1 workload(s), digests in "),
        run.log);
    assertEquals(0, run.count("[ERROR]"), run.log);
  }

  @Test
  void withoutTheLlmProtocolTheRunSaysOnceThatNothingIsRecorded() throws Exception {
    DslRun run =
        DslRun.run(
                HttpWithoutLlmProtocolSimulation.class,
                results,
                "-Dllm.baseUrl=" + server.baseUrl())
            .exits(0);

    assertEquals(List.of(6L, 6L, 0L), run.row("complete"));
    assertEquals(
        1,
        run.count(
            "prompts() feeder unique: the simulation registers no LLM protocol, so if its prompts"
                + " are posted with Gatling's own http() no llm-run.json is written and their"
                + " digests are not recorded: register it beside the HTTP protocol,"
                + " setUp(...).protocols(httpProtocol, llm())"),
        run.log);
    assertFalse(DslRun.anyRunRecord(results), run.log);
  }
}
