package io.github.gatlingllm.action;

import io.github.gatlingllm.metrics.Exchange;
import java.util.Objects;

/**
 * Not API. How an LLM request ended, as its {@link ResponseListener} saw it: one of three, each
 * recorded by the listener's one {@code finish}. Only what follows the record differs: a completed
 * request logs its rows and the user goes on, a cancelled one logs its {@code NAME CANCELLED} row
 * and the user goes on, a cut one does neither (Gatling's stats are closed).
 */
sealed interface RequestEnd {

  /**
   * The exchange ended: the last chunk, an error, or the client's request timeout; classified by
   * {@code RequestClassifier}.
   *
   * @param ending how the exchange ended, never null
   * @param failure the client's words for a broken or failed exchange, or null
   */
  record Completed(Exchange.Ending ending, String failure) implements RequestEnd {
    /** Checks the ending. */
    public Completed {
      Objects.requireNonNull(ending, "ending");
    }
  }

  /**
   * The client cancelled the request ({@code llm.cancelRate}): status {@code cancelled}.
   *
   * @param description the record's error text, never null
   */
  record Cancelled(String description) implements RequestEnd {
    /** Checks the description. */
    public Cancelled {
      Objects.requireNonNull(description, "description");
    }
  }

  /**
   * Still in flight when the run record was written: status {@code cut_by_run_end}.
   *
   * @param reason why the run ended, for the record's error text, never null
   */
  record CutByRunEnd(String reason) implements RequestEnd {
    /** Checks the reason. */
    public CutByRunEnd {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
