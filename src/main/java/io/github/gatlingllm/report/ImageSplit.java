package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.ImagesSummary;
import io.github.gatlingllm.stats.Distribution;
import java.util.concurrent.atomic.LongAdder;

/**
 * The measured requests split by whether they carried images ({@link ImagesSummary}): TTFT, E2E,
 * request bytes and upload time of each side, streamed (nothing kept a request). Warmup requests
 * are left out, as in the run's overall figures. Thread-safe.
 */
public final class ImageSplit {

  private final Side withImages = new Side();
  private final Side textOnly = new Side();
  private final LongAdder images = new LongAdder();
  private final LongAdder imageBytes = new LongAdder();

  /**
   * Adds one request.
   *
   * @param r the request's record, never null
   */
  public void add(RequestRecord r) {
    if (Phase.isWarmup(r.phase())) {
      return;
    }
    boolean with = r.images() != null && r.images() > 0;
    (with ? withImages : textOnly).add(r);
    if (with) {
      images.add(r.images());
      imageBytes.add(r.imageBytes() == null ? 0 : r.imageBytes());
    }
  }

  /**
   * Whether any measured request carried images.
   *
   * @return true when the run's record gets an {@code images} block
   */
  public boolean any() {
    return withImages.requests.sum() > 0;
  }

  /**
   * The block.
   *
   * @return the split so far, never null
   */
  public ImagesSummary summary() {
    return new ImagesSummary(
        withImages.requests.sum(),
        textOnly.requests.sum(),
        images.sum(),
        imageBytes.sum(),
        withImages.summary(),
        textOnly.summary());
  }

  private static final class Side {
    final LongAdder requests = new LongAdder();
    final LongAdder ok = new LongAdder();
    final MetricsAggregator.Metric ttft = new MetricsAggregator.Metric();
    final MetricsAggregator.Metric e2e = new MetricsAggregator.Metric();
    final MetricsAggregator.Metric bytes = new MetricsAggregator.Metric();
    final MetricsAggregator.Metric upload = new MetricsAggregator.Metric();

    void add(RequestRecord r) {
      requests.increment();
      if (r.requestBytes() != null) {
        bytes.record((double) r.requestBytes());
      }
      upload.record(r.uploadMs());
      if (r.status() == RequestStatus.OK) {
        ok.increment();
        ttft.record(r.ttftMs());
        e2e.record(r.e2eMs());
      }
    }

    ImagesSummary.Side summary() {
      Distribution e2eMs = e2e.distribution();
      Distribution uploadMs = upload.distribution();
      Double share =
          e2eMs.count() > 0 && uploadMs.count() > 0 && e2eMs.mean() > 0
              ? Math.round(uploadMs.mean() / e2eMs.mean() * 10_000) / 10_000.0
              : null;
      return new ImagesSummary.Side(
          requests.sum(),
          ok.sum(),
          ttft.distribution(),
          e2eMs,
          bytes.distribution(),
          uploadMs,
          share);
    }
  }
}
