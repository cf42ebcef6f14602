package io.github.gatlingllm.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.settings.LiveSettings;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link LiveEndpoint}: served over HTTP, refused ports, the end of the run. */
class LiveEndpointTest {

  private static final LiveMetrics.Gauges QUIET =
      new LiveMetrics.Gauges(() -> 0, List::of, () -> null);

  private static final String OK_SERIES =
      "gatling_llm_requests_total{phase=\"measured\",request=\"chat\",status=\"ok\"}";

  private static RequestRecord ok() {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .startMs(1_000)
        .completionTokens(4)
        .completionTokensExact(true)
        .e2eMs(50.0)
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static String scrape(int port) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + "\n" + series(response.body(), "gatling_llm_requests_total");
  }

  private static String series(String text, String prefix) {
    return text.lines().filter(l -> l.startsWith(prefix)).collect(Collectors.joining("\n"));
  }

  @Test
  void aRecordIsServedOverHttpOnceDrained() throws Exception {
    int port = freePort();
    LiveMetrics metrics = new LiveMetrics(null, QUIET);
    LiveEndpoint endpoint = LiveEndpoint.start(new LiveSettings(port, Duration.ZERO), metrics);
    try {
      endpoint.record(ok());
      endpoint.drain();
      assertEquals("200\n" + OK_SERIES + " 1.0", scrape(port));
    } finally {
      endpoint.close();
    }
  }

  @Test
  void aPortInUseIsRefusedNamingTheSetting() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"))) {
      int port = taken.getLocalPort();
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  LiveEndpoint.start(
                      new LiveSettings(port, Duration.ZERO), new LiveMetrics(null, QUIET)));
      assertEquals(
          "llm.prometheusPort: got "
              + port
              + ", expected a free TCP port in [1, 65535]: it cannot be bound (Address already in"
              + " use)",
          e.getMessage());
    }
  }

  @Test
  void withoutAPortNothingIsServedNorCounted() {
    LiveEndpoint endpoint = LiveEndpoint.start(LiveSettings.NONE, Shard.SINGLE, QUIET);
    endpoint.record(ok());
    endpoint.runRecorded();
    assertEquals(List.of(LiveEndpoint.OFF, -1), List.of(endpoint, endpoint.port()));
  }

  @Test
  void theRunRecordedAddsWhatIsQueuedAndRefusesLaterRecords() throws Exception {
    LiveMetrics metrics = new LiveMetrics(null, QUIET);
    LiveEndpoint endpoint =
        LiveEndpoint.start(new LiveSettings(freePort(), Duration.ZERO), metrics);
    endpoint.record(ok());
    endpoint.record(ok());
    endpoint.runRecorded();
    endpoint.record(ok());
    assertEquals(OK_SERIES + " 2.0", series(metrics.scrapeText(), "gatling_llm_requests_total"));
  }

  @Test
  void theFinalValuesAreServedUntilTheLingerEndsThenTheEndpointCloses() throws Exception {
    int port = freePort();
    LiveEndpoint endpoint =
        LiveEndpoint.start(
            new LiveSettings(port, Duration.ofMillis(1_500)), new LiveMetrics(null, QUIET));
    endpoint.record(ok());
    endpoint.runRecorded();
    assertEquals("200\n" + OK_SERIES + " 1.0", scrape(port));
    endpoint.awaitClosed();
    assertThrows(ConnectException.class, () -> scrape(port));
  }
}
