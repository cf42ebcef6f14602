package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A run's recorded requests, read as often as needed, one at a time: the report page and the CSV
 * stream them (from {@code llm-requests.jsonl}) instead of holding them, so the end of a run takes
 * memory that does not grow with its length.
 */
@FunctionalInterface
public interface RecordedRequests {

  /**
   * Hands every request to a consumer, in the source's order.
   *
   * @param each the consumer
   * @throws UncheckedIOException if the source cannot be read
   * @throws IllegalArgumentException naming the file and line of a line that is not a record
   */
  void forEach(Consumer<? super RequestRecord> each);

  /**
   * What is known of the requests before reading them (their series, first start, last end), or
   * null when a first pass must find it out.
   *
   * @return the shape, or null
   */
  default RequestsShape shape() {
    return null;
  }

  /**
   * Requests in memory.
   *
   * @param requests the requests, never null
   * @return them
   */
  static RecordedRequests of(List<RequestRecord> requests) {
    Objects.requireNonNull(requests, "requests");
    return requests::forEach;
  }

  /**
   * The requests of {@code llm-requests.jsonl} files, in file order, each read again at every pass.
   *
   * @param files the files
   * @return them
   */
  static RecordedRequests read(List<Path> files) {
    List<Path> copy = List.copyOf(files);
    return each -> {
      for (Path f : copy) {
        try {
          RequestsFile.forEach(f, each);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + f, e);
        }
      }
    };
  }

  /**
   * These requests with a known shape, so a reader needs one pass.
   *
   * @param shape the shape of exactly these requests
   * @return them
   */
  default RecordedRequests withShape(RequestsShape shape) {
    RecordedRequests self = this;
    return new RecordedRequests() {
      @Override
      public void forEach(Consumer<? super RequestRecord> each) {
        self.forEach(each);
      }

      @Override
      public RequestsShape shape() {
        return shape;
      }
    };
  }
}
