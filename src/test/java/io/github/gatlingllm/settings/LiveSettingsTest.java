package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.assertRejected;
import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.gatlingllm.LlmDsl;
import io.github.gatlingllm.LlmProtocolBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveSettingsTest {

  @Test
  void defaultsServeNothingAndLingerTenSeconds() {
    assertEquals(new LiveSettings(null, Duration.ofSeconds(10)), settings().live());
    assertFalse(settings().live().isSet());
  }

  @Test
  void propertiesSetThePortAndTheLinger() {
    assertEquals(
        new LiveSettings(9464, Duration.ofSeconds(3)),
        settings("llm.prometheusPort", "9464", "llm.prometheusLinger", "3s").live());
  }

  @Test
  void theDslsValuesAreReadAsDefaults() {
    LlmProtocolBuilder protocol =
        LlmDsl.llm().prometheusPort(9100).prometheusLinger(Duration.ofMillis(2500));
    assertEquals(new LiveSettings(9100, Duration.ofMillis(2500)), protocol.settings().live());
  }

  @Test
  void aZeroLingerIsAllowed() {
    assertEquals(Duration.ZERO, settings("llm.prometheusLinger", "0s").live().linger());
  }

  @Test
  void portZeroIsRefused() {
    assertRejected(
        "llm.prometheusPort: got 0, expected a TCP port in [1, 65535] that is free, e.g. 9464, or"
            + " unset",
        "llm.prometheusPort",
        "0");
  }

  @Test
  void aPortOver65535IsRefused() {
    assertRejected(
        "llm.prometheusPort: got 65536, expected a TCP port in [1, 65535] that is free, e.g. 9464,"
            + " or unset",
        "llm.prometheusPort",
        "65536");
  }

  @Test
  void aPortThatIsNotANumberIsRefused() {
    assertRejected(
        "llm.prometheusPort: got \"metrics\", expected a whole number",
        "llm.prometheusPort",
        "metrics");
  }

  @Test
  void aLingerOverTenMinutesIsRefused() {
    assertRejected(
        "llm.prometheusLinger: got \"600001ms\", expected a duration from 0s to 10m, e.g. 10s (how"
            + " long the final values stay served)",
        "llm.prometheusLinger",
        "600001ms");
  }

  @Test
  void aLingerThatIsNotADurationIsRefused() {
    assertRejected(
        "llm.prometheusLinger: got \"soon\", expected a duration such as 60s, 500ms or 2m (a bare"
            + " number is seconds)",
        "llm.prometheusLinger",
        "soon");
  }

  @Test
  void anEmptyPortIsNoEndpoint() {
    assertEquals(null, settings(Map.of(), "llm.prometheusPort", "").live().port());
  }

  @Test
  void theEndpointBindsLoopbackByDefault() {
    assertEquals("127.0.0.1", settings("llm.prometheusPort", "9464").live().host());
  }

  @Test
  void thePropertySetsTheHost() {
    assertEquals(
        new LiveSettings(9464, Duration.ofSeconds(10), "0.0.0.0"),
        settings("llm.prometheusPort", "9464", "llm.prometheusHost", "0.0.0.0").live());
  }

  @Test
  void theDslSetsTheHost() {
    assertEquals("::", LlmDsl.llm().prometheusHost("::").settings().live().host());
  }

  @Test
  void aHostNameIsRefused() {
    assertRejected(
        "llm.prometheusHost: got \"metrics.example.com\", expected an IP address of this machine to"
            + " bind: 127.0.0.1 (this machine only, the default), 0.0.0.0 (every interface: a"
            + " Prometheus elsewhere, Kubernetes scrapes), an interface's own address, an IPv6"
            + " literal such as ::1, or localhost",
        "llm.prometheusHost",
        "metrics.example.com");
  }

  @Test
  void anIpv4AddressOutOfRangeIsRefused() {
    assertRejected(
        "llm.prometheusHost: got \"10.0.0.256\", expected an IP address of this machine to"
            + " bind: 127.0.0.1 (this machine only, the default), 0.0.0.0 (every interface: a"
            + " Prometheus elsewhere, Kubernetes scrapes), an interface's own address, an IPv6"
            + " literal such as ::1, or localhost",
        "llm.prometheusHost",
        "10.0.0.256");
  }
}
