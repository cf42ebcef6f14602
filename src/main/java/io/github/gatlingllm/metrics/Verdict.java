package io.github.gatlingllm.metrics;

import java.util.Objects;

/**
 * How a request ended, for the run record and Gatling's report: {@link
 * RequestClassifier#classify(Exchange)}'s answer.
 *
 * @param status the status, never null
 * @param error a one-line description of what went wrong, at most {@link ErrorText#MAX_CHARS} chars
 *     and not yet scrubbed of credentials ({@link RequestRecord} does that); null exactly when
 *     {@code status} is {@link RequestStatus#OK}
 */
public record Verdict(RequestStatus status, String error) {

  /** The verdict of a request that went well. */
  public static final Verdict OK = new Verdict(RequestStatus.OK, null);

  /**
   * Checks that {@code error} goes with {@code status}.
   *
   * @throws NullPointerException if {@code status} is null
   * @throws IllegalArgumentException if {@code error} is set for {@link RequestStatus#OK}, or null
   *     or blank for another status
   */
  public Verdict {
    Objects.requireNonNull(status, "status");
    if (status == RequestStatus.OK && error != null) {
      throw new IllegalArgumentException(
          "error must be null when status is ok, got \"" + error + "\"");
    }
    if (status != RequestStatus.OK && (error == null || error.isBlank())) {
      throw new IllegalArgumentException(
          "error must be a non-blank text when status is "
              + status
              + ", got "
              + (error == null ? "null" : "\"" + error + "\""));
    }
  }
}
