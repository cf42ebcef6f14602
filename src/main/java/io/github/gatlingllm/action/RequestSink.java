package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.OpenRequests;

/**
 * Not API. Where a {@link ResponseListener} hands what it learns: the run's bookkeeping of one
 * request (open, recorded or not sent), Gatling's rows, and the virtual user's way on. Made once
 * per action ({@link ActionSink}); a test gives its own.
 */
interface RequestSink {

  /**
   * Gatling's clock.
   *
   * @return epoch milliseconds
   */
  long nowMillis();

  /**
   * The request is in flight: cut and recorded by the run's end unless it ends first.
   *
   * @param request the request, never null
   */
  void opened(OpenRequests.Open request);

  /**
   * Whether the run has ended ({@code RunContext#ended}): a request that ends now is cut by the
   * run's end, as Gatling counts it in no row.
   *
   * @return the reason, e.g. {@code max_duration}, or null while the run goes on
   */
  String runEnded();

  /**
   * The request is no longer in flight (ended, or never handed to the client).
   *
   * @param request the request, never null
   */
  void closed(OpenRequests.Open request);

  /**
   * A byte came from the target for the request: its response head or a body chunk (the run's
   * silence watch).
   *
   * @param nanos when, {@link System#nanoTime()}
   */
  void arrived(long nanos);

  /** The request was sent again on a new connection after a pooled one closed before any answer. */
  void staleConnectionResend();

  /**
   * The request was cancelled by the client now.
   *
   * @param nanos when its connection was closed, {@link System#nanoTime()}
   */
  void cancelled(long nanos);

  /**
   * The record with its schedule: when the request started (epoch ms of a {@link System#nanoTime()}
   * stamp) and when its user was scheduled to send.
   *
   * @param record the record, never null
   * @param startNanos the request's start, {@link System#nanoTime()}
   * @param first the user's first send, never null ({@link ClientWatch.First#NONE} for none)
   * @return the record with its schedule
   */
  RequestRecord schedule(RequestRecord record, long startNanos, ClientWatch.First first);

  /**
   * Records an ended request: once per request counted as sent.
   *
   * @param workload the fed prompts workload it counts in ({@link RequestPart#workload()}), or null
   * @param record the record, never null
   */
  void record(Workload workload, RequestRecord record);

  /** A request counted as sent ended without a record. */
  void notSent();

  /**
   * Logs a recorded request's rows and saves its reply into the session.
   *
   * @param session the virtual user's session as the request left it
   * @param startMs the request's start, epoch ms of Gatling's clock
   * @param record the record
   * @param reply the reply's text when a {@code saveReplyAs} key asks for it, else null
   * @return the session to go on with
   */
  Session rows(Session session, long startMs, RequestRecord record, String reply);

  /**
   * Logs a cancelled request's row ({@code NAME CANCELLED}, OK).
   *
   * @param session the virtual user's session as the request left it
   * @param startMs the request's start, epoch ms of Gatling's clock
   * @param record the record
   * @return the session to go on with
   */
  Session cancelledRows(Session session, long startMs, RequestRecord record);

  /**
   * Logs the KO row of a request that could not be recorded.
   *
   * @param session the virtual user's session
   * @param startMs start, epoch ms
   * @param endMs end, epoch ms
   * @param message the KO message
   */
  void failedRow(Session session, long startMs, long endMs, String message);

  /**
   * The virtual user goes on.
   *
   * @param session the session to go on with
   */
  void next(Session session);
}
