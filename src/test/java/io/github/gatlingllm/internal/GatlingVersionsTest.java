package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GatlingVersionsTest {

  @Test
  void theRunningGatlingIsReadFromItsManifest() {
    // Fails when the build moves to another Gatling: move the supported range with it.
    assertEquals("3.16.0", GatlingVersions.running());
  }

  @Test
  void theRunningGatlingIsSupported() {
    GatlingVersions.requireSupported();
  }

  @Test
  void aLaterPatchIsSupported() {
    assertEquals(true, GatlingVersions.supported("3.16.3"));
  }

  @Test
  void aSnapshotOfTheLineIsSupported() {
    assertEquals(true, GatlingVersions.supported("3.16.1-SNAPSHOT"));
  }

  @Test
  void anOlderLineIsNot() {
    assertEquals(false, GatlingVersions.supported("3.15.1"));
  }

  @Test
  void aNewerLineIsNot() {
    assertEquals(false, GatlingVersions.supported("3.17.0"));
  }

  @Test
  void aVersionOfAnotherShapeIsNot() {
    assertEquals(false, GatlingVersions.supported("dev"));
  }

  @Test
  void anUnsupportedVersionStopsTheRunNamingBoth() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> GatlingVersions.check("3.15.1"));

    assertEquals(
        "gatling-llm runs on Gatling 3.16.x (from 3.16.0, below 3.17.0), this run uses Gatling"
            + " 3.15.1: set your build's Gatling version"
            + " (io.gatling.highcharts:gatling-charts-highcharts, or the Gradle plugin's) to 3.16.0"
            + " or a later 3.16 release",
        e.getMessage());
  }

  @Test
  void anUnknownVersionIsNotJudged() {
    GatlingVersions.check(null);
  }
}
