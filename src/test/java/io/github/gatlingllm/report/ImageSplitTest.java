package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.ImagesSummary;
import io.github.gatlingllm.record.RunRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ImageSplit}: the measured requests split by whether they carried images. */
class ImageSplitTest {

  private static RequestRecord request(
      String phase, Integer images, RequestStatus status, double ttft, double upload) {
    return RequestRecord.builder()
        .request("r")
        .phase(phase)
        .startMs(0)
        .status(status)
        .ttftMs(ttft)
        .e2eMs(ttft + 100)
        .images(images)
        .imageBytes(images == null ? null : 1000L * images)
        .requestBytes(images == null ? 2000L : 2000L + 1400L * images)
        .uploadMs(upload)
        .build();
  }

  private static ImageSplit split() {
    ImageSplit split = new ImageSplit();
    split.add(request("warmup", 2, RequestStatus.OK, 999, 9));
    split.add(request("measured", 2, RequestStatus.OK, 40, 0.5));
    split.add(request("measured", 2, RequestStatus.OK, 60, 1.5));
    split.add(request("measured", 2, RequestStatus.HTTP_ERROR, 0, 1));
    split.add(request("measured", null, RequestStatus.OK, 20, 0.25));
    return split;
  }

  @Test
  void theMeasuredRequestsAreSplitAndTheWarmupLeftOut() {
    ImagesSummary s = split().summary();
    assertEquals(3, s.requestsWithImages());
    assertEquals(1, s.requestsTextOnly());
    assertEquals(6, s.images());
    assertEquals(6000, s.imageBytes());
    assertEquals(3, s.withImages().requests());
    assertEquals(2, s.withImages().ok());
    assertEquals(50.0, s.withImages().ttftMs().mean());
    assertEquals(150.0, s.withImages().e2eMs().mean());
    assertEquals(3, s.withImages().uploadMs().count());
    assertEquals(4800.0, s.withImages().requestBytes().mean());
    // mean upload 1.0 over mean E2E 150
    assertEquals(0.0067, s.withImages().uploadShareOfE2e());
    assertEquals(20.0, s.textOnly().ttftMs().p50());
  }

  @Test
  void aRunWithoutImagesHasNoBlock() {
    ImageSplit split = new ImageSplit();
    split.add(request("measured", null, RequestStatus.OK, 20, 0.25));
    assertFalse(split.any());
    assertTrue(split().any());
  }

  @Test
  void theBlockReadsBackTypedAndGivesTheFigures() {
    RunRecord run = RunRecord.of(java.util.Map.of()).withImages(split().summary());
    ImagesSummary read = run.typed().images();
    assertEquals(split().summary(), read);
    assertEquals(
        List.of(
            "images: requests 3 with 6 images (6 kB encoded), 1 text only",
            "images: TTFT p50 with / text only, ms 40 / 20",
            "images: E2E p50 with / text only, ms 140 / 120",
            "images: upload p50 with / text only, ms 1 / 0.25 (bodies p50 4.8 / 2 kB)"),
        RunSummary.imageFigures(read).stream().map(f -> f.name() + " " + f.value()).toList());
  }

  @Test
  void aRecordWithoutTheBlockHasNone() {
    assertNull(RunRecord.of(java.util.Map.of()).typed().images());
  }
}
