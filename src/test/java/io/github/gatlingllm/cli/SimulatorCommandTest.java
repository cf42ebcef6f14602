package io.github.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SimulatorCommandTest {

  private record Result(int code, List<String> out, List<String> err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = GatlingLlm.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, lines(out), lines(err));
  }

  private static List<String> lines(StringWriter writer) {
    String text = writer.toString();
    return text.isEmpty() ? List.of() : List.of(text.split("\n"));
  }

  private static void assertUsage(String expectedError, String... args) {
    Result result = run(args);
    assertEquals(2, result.code());
    assertEquals(List.of(), result.out());
    assertEquals(List.of(expectedError), result.err());
  }

  @Test
  void portIsRequired() {
    assertUsage("gatling-llm simulator: Missing required option: '--port=PORT'", "simulator");
  }

  @Test
  void portOutOfRangeIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --port: must be between 0 and 65535, got 70000",
        "simulator",
        "--port",
        "70000");
  }

  @Test
  void portThatIsNotANumberIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: Invalid value for option '--port': 'abc' is not an int",
        "simulator",
        "--port",
        "abc");
  }

  @Test
  void negativeDecodeTimeIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --decode-ms-per-token: must be a finite number >= 0, got -1.0",
        "simulator",
        "--port",
        "0",
        "--decode-ms-per-token",
        "-1");
  }

  @Test
  void infinitePrefillTimeIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --prefill-us-per-token: must be a finite number >= 0, got"
            + " Infinity",
        "simulator",
        "--port",
        "0",
        "--prefill-us-per-token",
        "Infinity");
  }

  @Test
  void zeroMaxConcurrentIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --max-concurrent: must be >= 1, got 0",
        "simulator",
        "--port",
        "0",
        "--max-concurrent",
        "0");
  }

  @Test
  void zeroBlockSizeIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --block-size: must be >= 1, got 0",
        "simulator",
        "--port",
        "0",
        "--block-size",
        "0");
  }

  @Test
  void negativeCacheBlocksIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --cache-blocks: must be >= 0, got -5",
        "simulator",
        "--port",
        "0",
        "--cache-blocks",
        "-5");
  }

  @Test
  void zeroTokensPerChunkIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --tokens-per-chunk: must be >= 1, got 0",
        "simulator",
        "--port",
        "0",
        "--tokens-per-chunk",
        "0");
  }

  @Test
  void contextShorterThanDefaultMaxTokensIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --context-length: must be >= 16 (the default max_tokens), got 8",
        "simulator",
        "--port",
        "0",
        "--context-length",
        "8");
  }

  @Test
  void blankModelIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: --model: must not be blank",
        "simulator",
        "--port",
        "0",
        "--model",
        " ");
  }

  @Test
  void missingTokenizerIsAUsageError() {
    Result result =
        run("simulator", "--port", "0", "--tokenizer", "/nonexistent/gatling-llm/tokenizer.json");
    assertEquals(2, result.code());
    assertEquals(1, result.err().size());
    assertTrue(
        result.err().get(0).startsWith("gatling-llm simulator: --tokenizer: tokenizer "),
        result.err().get(0));
  }

  @Test
  void unknownOptionIsAUsageError() {
    assertUsage(
        "gatling-llm simulator: Unknown option: '--colour'",
        "simulator",
        "--port",
        "0",
        "--colour");
  }

  @Test
  void portInUseFailsWithExitCodeOne() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Result result = run("simulator", "--port", String.valueOf(taken.getLocalPort()));
      assertEquals(1, result.code());
      assertEquals(List.of(), result.out());
      assertEquals(1, result.err().size());
      assertTrue(
          result
              .err()
              .get(0)
              .startsWith(
                  "gatling-llm simulator: failed: java.io.UncheckedIOException:"
                      + " java.io.IOException: cannot listen on 127.0.0.1:"
                      + taken.getLocalPort()
                      + ": "),
          result.err().get(0));
    }
  }

  @Test
  void startsPrintsItsUrlServesAndStops() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine root = GatlingLlm.commandLine(new PrintWriter(out), new PrintWriter(err));
    SimulatorCommand command = root.getSubcommands().get("simulator").getCommand();
    AtomicInteger code = new AtomicInteger(-1);
    Thread thread =
        new Thread(
            () ->
                code.set(
                    root.execute(
                        "simulator", "--port", "0", "--zero-delay", "--model", "tiny-test")));
    thread.start();
    try {
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (command.simulator() == null || !out.toString().contains("\n")) {
        assertTrue(System.nanoTime() < deadline, "no start within 10 s: " + err);
        assertTrue(thread.isAlive(), "stopped early: " + err);
        Thread.sleep(10);
      }
      int port = command.simulator().port();
      assertEquals(List.of("simulator listening on http://127.0.0.1:" + port + "/v1"), lines(out));
      HttpResponse<String> models =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/models"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, models.statusCode());
      assertEquals(
          "tiny-test", new ObjectMapper().readTree(models.body()).at("/data/0/id").asText());
    } finally {
      command.stop();
      thread.join(10_000);
    }
    assertEquals(0, code.get());
    assertEquals(List.of(), lines(err));
  }

  /** The paths {@code simulator --help} names, in the order it names them. */
  private static List<String> helpPaths() {
    Result help = run("simulator", "--help");
    assertEquals(0, help.code());
    String text = String.join(" ", help.out()).replaceAll("\\s+", " ");
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?<=[ ,])/[a-z0-9/]+[a-z]").matcher(text);
    List<String> paths = new java.util.ArrayList<>();
    while (m.find()) {
      paths.add(m.group());
    }
    return paths;
  }

  @Test
  void helpNamesEveryPathTheSimulatorServes() {
    java.util.Set<String> served = new java.util.TreeSet<>();
    for (io.github.gatlingllm.simulator.ServedEndpoint e :
        io.github.gatlingllm.simulator.ServedEndpoint.values()) {
      served.add(e.path());
    }
    served.addAll(List.of("/v1/models", "/health", "/metrics"));

    assertEquals(served, new java.util.TreeSet<>(helpPaths()));
  }

  @Test
  void everyPathTheHelpNamesAnswers200() throws Exception {
    java.util.Map<String, String> bodies =
        java.util.Map.of(
            "/v1/chat/completions",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}",
            "/v1/completions",
            "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":2}",
            "/v1/responses",
            "{\"model\":\"m\",\"input\":\"hi\",\"max_output_tokens\":2}",
            "/v1/messages",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}");
    try (io.github.gatlingllm.simulator.Simulator simulator =
        io.github.gatlingllm.simulator.Simulator.start(
            io.github.gatlingllm.simulator.SimulatorConfig.zeroDelay(), 0)) {
      HttpClient client = HttpClient.newHttpClient();
      for (String path : helpPaths()) {
        HttpRequest.Builder request =
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + simulator.port() + path));
        String body = bodies.get(path);
        if (body != null) {
          request
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response =
            client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
      }
    }
  }

  @Test
  void helpDefaultsAreTheSimulatorsDefaults() {
    Result help = run("simulator", "--help");
    String text = String.join(" ", help.out()).replaceAll("\\s+", " ");
    io.github.gatlingllm.simulator.SimulatorConfig d =
        io.github.gatlingllm.simulator.SimulatorConfig.defaults();
    java.util.Map<String, Object> expected = new java.util.LinkedHashMap<>();
    expected.put("--model=NAME", d.model());
    expected.put("--base-ttft-ms=MS", Math.round(d.baseTtftMs()));
    expected.put("--prefill-us-per-token=US", Math.round(d.prefillUsPerToken()));
    expected.put("--decode-ms-per-token=MS", Math.round(d.decodeMsPerToken()));
    expected.put("--max-concurrent=N", d.maxConcurrent());
    expected.put("--block-size=TOKENS", d.blockSize());
    expected.put("--cache-blocks=N", d.cacheBlocks());
    expected.put("--tokens-per-chunk=N", d.tokensPerChunk());
    expected.put("--context-length=TOKENS", d.contextLength());
    expected.put("--reasoning-tokens=N", d.reasoningTokens());
    for (java.util.Map.Entry<String, Object> e : expected.entrySet()) {
      int at = text.lastIndexOf(e.getKey());
      assertTrue(at >= 0, e.getKey() + " in " + text);
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("\\(default ([^):]+)").matcher(text.substring(at));
      assertTrue(m.find(), e.getKey());
      assertEquals(String.valueOf(e.getValue()), m.group(1), e.getKey());
    }
  }
}
