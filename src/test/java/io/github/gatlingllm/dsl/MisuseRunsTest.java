package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Mistakes a user makes, through the real Gatling engine: each fails the run before any load, with
 * one message naming the setting, the value and what is allowed; nothing reaches the server (a
 * simulator in this JVM that counts what it is sent) and no run record is left.
 */
@Tag("forked")
@Tag("parallel")
class MisuseRunsTest {

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

  private DslRun run(Class<?> simulation, String... properties) throws Exception {
    String[] all = new String[properties.length + 1];
    all[0] = "-Dllm.baseUrl=" + server.baseUrl();
    System.arraycopy(properties, 0, all, 1, properties.length);
    DslRun run = DslRun.run(simulation, results, all);
    assertEquals(1, run.exitCode, run.log);
    assertEquals(0, server.stats().requestsByStatus().size(), server.stats().toString());
    assertFalse(DslRun.anyRunRecord(results), run.log);
    return run;
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-Dllm.foo=1 | llm.foo: unknown setting; every llm.* setting is listed in docs/settings.md",
        "-Dllm.timeout=abc | llm.timeout: got \"abc\", expected a duration such as 60s, 500ms or 2m"
            + " (a bare number is seconds)",
        "-Dllm.connections=many | llm.connections: got \"many\", expected shared, per-user,"
            + " per-request",
        "-Dmisuse=sharedPrefixRatio | llm.sharedPrefixRatio: got 1.5, expected a number between 0"
            + " and 1, exclusive",
        "-Dmisuse=protocolMaxTokens | llm().maxTokens: got 0, expected a whole number >= 1"
            + " (llm.outputTokens)",
        "-Dmisuse=requestMaxTokens | llm(\"chat\").maxTokens: got 0, expected a whole number >= 1",
        "-Dmisuse=protocolBodyModel | llm().body(\"model\", \"x\"): the request body sets \"model\""
            + " itself, expected another field (the body sets model, messages, prompt, stream,"
            + " max_tokens, max_completion_tokens); use llm().model(...)",
        "-Dmisuse=requestBodyMessages | llm(\"chat\").body(\"messages\", \"x\"): the request body"
            + " sets \"messages\" itself, expected another field",
        "-Dmisuse=protocolTokenizer | llm.tokenizer: got \"/no/such/tokenizer.json\", expected"
            + " estimate, or the path of an existing tokenizer.json or of a folder holding one",
        "-Dmisuse=feederTokenizer | llm.tokenizer: got \"/no/such/tokenizer.json\", expected"
            + " estimate, or the path of an existing tokenizer.json or of a folder holding one",
      })
  void aMistakeFailsTheRunBeforeAnyLoad(String property, String message) throws Exception {
    DslRun run = run(MisuseSimulation.class, property);
    // The line alone, no stack trace (issue 30, point 3: before it, Gatling's log and the JVM
    // printed the exception twice, with its traces).
    assertEquals(1, run.count(message), run.log);
    assertEquals(0, run.count("\tat "), run.log);
    assertEquals(0, run.count("Exception in thread"), run.log);
  }

  @Test
  void requestsWithoutTheLlmProtocolAreRefused() throws Exception {
    DslRun run = run(NoProtocolSimulation.class);
    run.stopsWithOneLine(
        "llm(\"chat\"): no LLM protocol: setUp(...) has no .protocols(llm) (e.g. LlmProtocolBuilder"
            + " llm = llm().maxTokens(32); setUp(...).protocols(llm)), expected one, so that the"
            + " requests go where llm() says rather than to defaults");
  }
}
