package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.metrics.Exchange;
import io.github.gatlingllm.metrics.RequestClassifier;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.Verdict;
import java.util.Objects;

/**
 * Not API. How an LLM request ended, as its {@link ResponseListener} saw it: one of three, each
 * recorded by the listener's one {@code finish} through the pure {@link #recordOf}. Only what
 * follows the record differs: a completed request logs its rows and the user goes on, a cancelled
 * one logs its {@code NAME CANCELLED} row and the user goes on, a cut one does neither (Gatling's
 * stats are closed).
 */
sealed interface RequestEnd {

  /**
   * The status and error of a request that ended this way.
   *
   * @param response what came back, never null
   * @param measured what was measured, never null
   * @return never null
   */
  Verdict verdict(Response response, RequestTimer.Finished measured);

  /**
   * What follows a recorded request's record: a completed request's rows (its reply saved), a
   * cancelled one's {@code NAME CANCELLED} row; none after a cut.
   *
   * @param sink where the rows go, never null
   * @param session the virtual user's session as the request left it
   * @param startMs the request's start, epoch ms of Gatling's clock
   * @param record the record
   * @param reply the reply's text when a {@code saveReplyAs} key asks for it, else null
   * @return the session the user goes on with, or null after a cut (the user does not go on)
   */
  Session rows(RequestSink sink, Session session, long startMs, RequestRecord record, String reply);

  /**
   * The record of a request that ended this way, before its kind's parts, its cancellation and its
   * schedule: its identity, what was measured, its response status, and its status and error
   * ({@link #verdict}). Pure.
   *
   * @param identity the request, never null
   * @param measured its timings and answer, never null
   * @param response what came back, never null
   * @return the record
   */
  default RequestRecord recordOf(
      RequestIdentity identity, RequestTimer.Finished measured, Response response) {
    Verdict verdict = verdict(response, measured);
    return RequestRecord.of(
            identity, measured.timings(), response.httpStatus(), verdict.status(), verdict.error())
        .toBuilder()
        .answer(measured.answer())
        .build();
  }

  /**
   * What came back of a request, as {@link RequestClassifier} reads it.
   *
   * @param streamed whether the request asked for a stream
   * @param httpStatus the response status, or null when no head came
   * @param contentType the response's content type, or null
   * @param body the kept body of an answer that is no event stream, or null
   * @param bodyCut whether the kept body was cut at its bound
   * @param timeoutMs the client's request timeout, in milliseconds
   */
  record Response(
      boolean streamed,
      Integer httpStatus,
      String contentType,
      String body,
      boolean bodyCut,
      long timeoutMs) {}

  /**
   * The exchange ended: the last chunk, an error, or the client's request timeout; classified by
   * {@link RequestClassifier}.
   *
   * @param ending how the exchange ended, never null
   * @param failure the client's words for a broken or failed exchange, or null
   */
  record Completed(Exchange.Ending ending, String failure) implements RequestEnd {

    /** The whole answer came. */
    static final Completed WHOLE = new Completed(Exchange.Ending.COMPLETE, null);

    /** Checks the ending. */
    public Completed {
      Objects.requireNonNull(ending, "ending");
    }

    /**
     * The end of an exchange the client failed: its request timeout, a connection broken after the
     * response's head (or closed by the server where the client would have sent the request again:
     * never), or one refused, reset or closed before any answer.
     *
     * @param t the client's throwable, never null
     * @param answered whether the response's head came
     * @param resent whether the client was about to send the request again after its head
     * @return the end, never null
     */
    static Completed failed(Throwable t, boolean answered, boolean resent) {
      if (GatlingHttp.isTimeout(t)) {
        return new Completed(Exchange.Ending.TIMED_OUT, null);
      }
      if (answered) {
        return new Completed(
            Exchange.Ending.BROKEN,
            resent ? "closed by the server (not sent again)" : GatlingHttp.brokenBy(t));
      }
      // No head: refused, reset, or closed before any answer (a pooled connection that closed so
      // is sent once more on a new one by Gatling's client: this is that one's end).
      String words = GatlingHttp.brokenBeforeAnswer(t);
      if (words == null) {
        String message = t.getMessage();
        words = t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        words = words.replace('\n', ' ').replace('\r', ' ');
      }
      return new Completed(Exchange.Ending.CONNECT_FAILED, words);
    }

    @Override
    public Session rows(
        RequestSink sink, Session session, long startMs, RequestRecord record, String reply) {
      return sink.rows(session, startMs, record, reply);
    }

    @Override
    public Verdict verdict(Response response, RequestTimer.Finished measured) {
      return RequestClassifier.classify(
          new Exchange(
              response.streamed(),
              response.httpStatus(),
              response.contentType(),
              response.body(),
              response.bodyCut(),
              measured.timings(),
              ending,
              failure,
              response.timeoutMs()));
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

    @Override
    public Verdict verdict(Response response, RequestTimer.Finished measured) {
      return new Verdict(RequestStatus.CANCELLED, description);
    }

    @Override
    public Session rows(
        RequestSink sink, Session session, long startMs, RequestRecord record, String reply) {
      return sink.cancelledRows(session, startMs, record);
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

    @Override
    public Verdict verdict(Response response, RequestTimer.Finished measured) {
      return new Verdict(
          RequestStatus.CUT_BY_RUN_END, "still in flight when the run ended (" + reason + ")");
    }

    @Override
    public Session rows(
        RequestSink sink, Session session, long startMs, RequestRecord record, String reply) {
      return null;
    }
  }
}
