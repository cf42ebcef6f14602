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
              + ", expected a free TCP port in [1, 65535]: it cannot be bound on 127.0.0.1 (Address"
              + " already in use)",
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

  /** An address of this machine that is not loopback (nor link-local), or null when it has none. */
  private static InetAddress otherAddress() throws IOException {
    for (java.net.NetworkInterface nic :
        java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
      if (!nic.isUp() || nic.isLoopback()) {
        continue;
      }
      for (InetAddress a : java.util.Collections.list(nic.getInetAddresses())) {
        if (a instanceof java.net.Inet4Address
            && !a.isLoopbackAddress()
            && !a.isLinkLocalAddress()) {
          return a;
        }
      }
    }
    return null;
  }

  /**
   * The HTTP status of {@code GET /metrics} at an address, or -1 when the connection is refused.
   */
  private static int statusAt(InetAddress address, int port) throws Exception {
    try {
      return HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(5))
          .build()
          .send(
              HttpRequest.newBuilder(
                      URI.create("http://" + address.getHostAddress() + ":" + port + "/metrics"))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .statusCode();
    } catch (ConnectException refused) {
      return -1;
    }
  }

  @Test
  void byDefaultTheEndpointServesLoopbackOnlyNotThisMachinesOtherAddresses() throws Exception {
    InetAddress other = otherAddress();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        other != null, "this machine has no address but loopback");
    int port = freePort();
    LiveEndpoint endpoint =
        LiveEndpoint.start(new LiveSettings(port, Duration.ZERO), new LiveMetrics(null, QUIET));
    try {
      assertEquals(
          List.of(200, -1),
          List.of(statusAt(InetAddress.getByName("127.0.0.1"), port), statusAt(other, port)));
    } finally {
      endpoint.close();
    }
  }

  @Test
  void everyInterfaceServesWhenTheHostSaysSo() throws Exception {
    InetAddress other = otherAddress();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        other != null, "this machine has no address but loopback");
    int port = freePort();
    LiveEndpoint endpoint =
        LiveEndpoint.start(
            new LiveSettings(port, Duration.ZERO, "0.0.0.0"), new LiveMetrics(null, QUIET));
    try {
      assertEquals(
          List.of(200, 200),
          List.of(statusAt(InetAddress.getByName("127.0.0.1"), port), statusAt(other, port)));
    } finally {
      endpoint.close();
    }
  }

  @Test
  void anAddressNotOfThisMachineIsRefusedNamingTheHost() throws Exception {
    int port = freePort();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LiveEndpoint.start(
                    new LiveSettings(port, Duration.ZERO, "203.0.113.7"),
                    new LiveMetrics(null, QUIET)));
    assertEquals(
        "llm.prometheusHost: got 203.0.113.7, expected an address of this machine (127.0.0.1,"
            + " 0.0.0.0 or an interface's): it cannot be bound (Cannot assign requested address)",
        e.getMessage());
  }
}
