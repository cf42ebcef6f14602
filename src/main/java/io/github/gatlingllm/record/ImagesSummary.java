package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.gatlingllm.stats.Distribution;

/**
 * The run record's {@code images} (issue 45): the measured requests split by what they carried,
 * text only or with images, written only by a run that sent images. Counts and bytes cover every
 * measured request; the times, as in {@code metrics}, the {@code ok} ones.
 *
 * @param requestsWithImages measured requests whose prompt carried at least one image
 * @param requestsTextOnly measured requests that carried none
 * @param images the images those requests carried, summed
 * @param imageBytes the images' encoded bytes (before base64), summed
 * @param withImages the requests with images, never null
 * @param textOnly the requests without, never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
  "requests_with_images",
  "requests_text_only",
  "images",
  "image_bytes",
  "with_images",
  "text_only"
})
public record ImagesSummary(
    long requestsWithImages,
    long requestsTextOnly,
    long images,
    long imageBytes,
    Side withImages,
    Side textOnly) {

  /** The key of the block in {@code llm-run.json}. */
  public static final String KEY = "images";

  /**
   * One side of the split.
   *
   * @param requests its measured requests
   * @param ok those that ended {@code ok}
   * @param ttftMs their TTFT, milliseconds
   * @param e2eMs their E2E, milliseconds
   * @param requestBytes their request bodies' bytes as sent (UTF-8 JSON, images in base64)
   * @param uploadMs the time to write each body: from the write's start on the connection to its
   *     last byte handed to the socket, milliseconds
   * @param uploadShareOfE2e the mean upload time over the mean E2E, or null when either is unknown
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({
    "requests",
    "ok",
    "ttft_ms",
    "e2e_ms",
    "request_bytes",
    "upload_ms",
    "upload_share_of_e2e"
  })
  public record Side(
      long requests,
      long ok,
      Distribution ttftMs,
      Distribution e2eMs,
      Distribution requestBytes,
      Distribution uploadMs,
      Double uploadShareOfE2e) {}
}
