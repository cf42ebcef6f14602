package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.commons.stats.OK$;
import io.gatling.core.session.Block;
import io.gatling.core.session.Session;
import io.gatling.http.client.impl.PrematureCloseException;
import io.gatling.http.client.impl.RequestTimeoutException;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.OpenRequests;
import io.github.gatlingllm.protocol.RunContext;
import io.github.gatlingllm.settings.CancelSettings;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import scala.runtime.BoxedUnit;

/**
 * The request endings of {@link ResponseListener}, in milliseconds and without Gatling's engine:
 * the callbacks Gatling's client makes, called in order, and what the listener hands its {@link
 * RequestSink}. {@code FaultCorpusTest} checks the same endings end to end over real sockets.
 */
class ResponseListenerTest {

  private static final String CHUNK_HI =
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";
  private static final String CHUNK_THERE =
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"},"
          + "\"finish_reason\":\"length\"}]}\n\n";
  private static final String USAGE =
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,"
          + "\"total_tokens\":7}}\n\n";
  private static final String DONE = "data: [DONE]\n\n";

  /** A sink that writes down what it is handed, in order. */
  private static class Sink implements RequestSink {
    final List<String> said = new ArrayList<>();
    final List<RequestRecord> records = new ArrayList<>();
    final List<String> replies = new ArrayList<>();
    final List<Long> arrivals = new ArrayList<>();
    String runEnded;

    @Override
    public String runEnded() {
      return runEnded;
    }

    @Override
    public long nowMillis() {
      return 1_000;
    }

    @Override
    public void opened(OpenRequests.Open request) {
      said.add("opened");
    }

    @Override
    public void closed(OpenRequests.Open request) {
      said.add("closed");
    }

    @Override
    public void arrived(long nanos) {
      arrivals.add(nanos);
    }

    @Override
    public void staleConnectionResend() {
      said.add("resend");
    }

    @Override
    public void cancelled(long nanos) {
      said.add("cancelled");
    }

    @Override
    public RequestRecord schedule(RequestRecord record, long startNanos, ClientWatch.First first) {
      return record;
    }

    @Override
    public void record(Workload workload, RequestRecord record) {
      said.add("record " + record.status().wireName());
      records.add(record);
    }

    @Override
    public void notSent() {
      said.add("notSent");
    }

    @Override
    public Session rows(Session session, long startMs, RequestRecord record, String reply) {
      said.add("rows");
      replies.add(reply);
      return session;
    }

    @Override
    public Session cancelledRows(Session session, long startMs, RequestRecord record) {
      said.add("cancelledRows");
      return session;
    }

    @Override
    public void failedRow(Session session, long startMs, long endMs, String message) {
      said.add("failedRow " + message);
    }

    @Override
    public void next(Session session) {
      said.add("next");
    }
  }

  @SuppressWarnings("unchecked")
  private static Session session() {
    return new Session(
        "scn",
        1L,
        scala.collection.immutable.Map$.MODULE$.empty(),
        OK$.MODULE$,
        (scala.collection.immutable.List<Block>) (Object) scala.collection.immutable.Nil$.MODULE$,
        s -> BoxedUnit.UNIT,
        null);
  }

  private static final RequestIdentity IDENTITY =
      new RequestIdentity("chat", "measured", 3L, "r-1", "abcd", null, null, 12);

  private final Sink sink = new Sink();

  private static Dispatcher.Shared settings(boolean streamed, boolean keepsReply) {
    return new Dispatcher.Shared(streamed, 60_000, null, null, keepsReply, WireApi.CHAT.dialect());
  }

  private ResponseListener listener(boolean streamed, boolean keepsReply, Cancellation cancel) {
    return listener(streamed, keepsReply, cancel, PromptSender.UNFED);
  }

  private ResponseListener listener(
      boolean streamed, boolean keepsReply, Cancellation cancel, RequestPart part) {
    return new ResponseListener(
        sink,
        settings(streamed, keepsReply),
        session(),
        new Outgoing(IDENTITY, new byte[0], part, ClientWatch.First.NONE),
        cancel);
  }

  private static Cancellation noCancel() {
    return Cancellation.choose(CancelSettings.NONE, 0, IDENTITY, false);
  }

  /**
   * A turn's part that writes down in the sink's list what the listener tells it, and marks the
   * record it completes with the session id {@code s-1}.
   */
  private RequestPart recordingPart() {
    return new RequestPart() {
      @Override
      public boolean turn() {
        return true;
      }

      @Override
      public void sending(RunContext run, String scenario, String request) {
        sink.said.add("part sending");
      }

      @Override
      public boolean wantsText() {
        return true;
      }

      @Override
      public void onEvent(StreamEvent event) {
        if (event.content() != null) {
          sink.said.add("part event " + event.content());
        }
      }

      @Override
      public void onStreamEnd(EventParser parser) {
        sink.said.add("part stream end");
      }

      @Override
      public void onResponse(StreamEvent response, String body, Dialect dialect) {
        sink.said.add("part response " + response.content() + " of " + body.length() + " chars");
      }

      @Override
      public RequestRecord complete(RequestRecord record, CachePlan.Server server, long endNanos) {
        sink.said.add("part complete");
        return record.toBuilder().sessionId("s-1").build();
      }

      @Override
      public void ended(RequestRecord record) {
        sink.said.add("part ended " + record.status().wireName());
      }

      @Override
      public void failed(long nowMs) {
        sink.said.add("part failed at " + nowMs);
      }

      @Override
      public void firstToken() {
        sink.said.add("part first token");
      }

      @Override
      public void closed(long endNanos, boolean computed) {
        sink.said.add("part closed, " + (computed ? "computed" : "not computed"));
      }
    };
  }

  private ResponseListener streaming() {
    return listener(true, false, Cancellation.choose(CancelSettings.NONE, 0, IDENTITY, false));
  }

  private static ByteBuf bytes(String text) {
    return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
  }

  private static HttpHeaders headers(String contentType) {
    return new DefaultHttpHeaders().add("Content-Type", contentType);
  }

  private static void eventStreamHead(ResponseListener l) {
    l.onSend();
    l.onHttpResponse(HttpResponseStatus.OK, headers("text/event-stream; charset=utf-8"));
  }

  private static RequestTimeoutException timeout() throws Exception {
    Constructor<RequestTimeoutException> c =
        RequestTimeoutException.class.getDeclaredConstructor(long.class, InetSocketAddress.class);
    c.setAccessible(true);
    return c.newInstance(60_000L, new InetSocketAddress("127.0.0.1", 8000));
  }

  @Test
  void aWholeStreamIsRecordedOkAndTheUserGoesOnOnce() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI + CHUNK_THERE), false);
    l.onHttpResponseBodyChunk(bytes(USAGE + DONE), true);

    assertEquals(List.of("opened", "record ok", "rows", "closed", "next"), sink.said);
    RequestRecord r = sink.records.get(0);
    assertEquals(200, r.httpStatus());
    assertNull(r.error());
    assertEquals(2, r.completionTokens());
    assertEquals(5, r.promptTokens());
    assertEquals("length", r.finishReason());
  }

  @Test
  void theHeadAndEveryChunkAreStampedAsBytesFromTheTarget() {
    // the run's silence watch hears of each, in order, a request streamed or not
    ResponseListener l = streaming();
    long before = System.nanoTime();
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI), false);
    l.onHttpResponseBodyChunk(bytes(CHUNK_THERE), false);
    l.onHttpResponseBodyChunk(bytes(USAGE + DONE), true);
    assertEquals(4, sink.arrivals.size());
    assertTrue(sink.arrivals.get(0) >= before, sink.arrivals.toString());
    for (int i = 1; i < 4; i++) {
      assertTrue(sink.arrivals.get(i) >= sink.arrivals.get(i - 1), sink.arrivals.toString());
    }
    ResponseListener plain =
        listener(false, false, Cancellation.choose(CancelSettings.NONE, 0, IDENTITY, false));
    plain.onSend();
    plain.onHttpResponse(HttpResponseStatus.OK, headers("application/json"));
    assertEquals(5, sink.arrivals.size());
  }

  @Test
  void onlyAStreamedRequestIsOwedBytesAsItGenerates() {
    assertTrue(streaming().streamed());
    assertFalse(
        listener(false, false, Cancellation.choose(CancelSettings.NONE, 0, IDENTITY, false))
            .streamed());
  }

  @Test
  void aStreamSplitInsideAnEventIsParsedWhole() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    String all = CHUNK_HI + CHUNK_THERE + USAGE + DONE;
    l.onHttpResponseBodyChunk(bytes(all.substring(0, 17)), false);
    l.onHttpResponseBodyChunk(bytes(all.substring(17)), true);

    assertEquals(List.of("opened", "record ok", "rows", "closed", "next"), sink.said);
    assertEquals(2, sink.records.get(0).completionTokens());
  }

  @Test
  void theReplyIsKeptWhenASaveAsksForIt() {
    ResponseListener l =
        listener(true, true, Cancellation.choose(CancelSettings.NONE, 0, IDENTITY, false));
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI + CHUNK_THERE + USAGE + DONE), true);

    assertEquals(List.of("Hi there"), sink.replies);
  }

  @Test
  void aConnectionResetBeforeAnyAnswerIsAConnectError() {
    ResponseListener l = streaming();
    l.onSend();
    l.onThrowable(new IOException("Connection reset by peer"));

    assertEquals(List.of("opened", "record connect_error", "rows", "closed", "next"), sink.said);
    assertEquals(
        "connection reset by the server (TCP RST) before any answer", sink.records.get(0).error());
    assertNull(sink.records.get(0).httpStatus());
  }

  @Test
  void aConnectionClosedMidStreamIsAStreamError() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI), false);
    l.onThrowable(PrematureCloseException.INSTANCE);

    assertEquals(List.of("opened", "record stream_error", "rows", "closed", "next"), sink.said);
    RequestRecord r = sink.records.get(0);
    assertEquals(200, r.httpStatus());
    assertEquals(1, r.completionTokens());
  }

  @Test
  void theClientsRequestTimeoutIsATimeout() throws Exception {
    ResponseListener l = streaming();
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI), false);
    l.onThrowable(timeout());

    assertEquals(List.of("opened", "record timeout", "rows", "closed", "next"), sink.said);
  }

  @Test
  void anErrorEventIsAStreamError() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(
        bytes("data: {\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\"}}\n\n"),
        true);

    assertEquals(List.of("opened", "record stream_error", "rows", "closed", "next"), sink.said);
    assertTrue(sink.records.get(0).error().contains("out of memory"), sink.records.get(0).error());
  }

  @Test
  void anHttpErrorKeepsItsStatus() {
    ResponseListener l = streaming();
    l.onSend();
    l.onHttpResponse(HttpResponseStatus.INTERNAL_SERVER_ERROR, headers("application/json"));
    l.onHttpResponseBodyChunk(bytes("{\"error\":{\"message\":\"boom\"}}"), true);

    assertEquals(List.of("opened", "record http_error", "rows", "closed", "next"), sink.said);
    assertEquals(500, sink.records.get(0).httpStatus());
  }

  @Test
  void aCancelledRequestIsRecordedWithItsOwnRowAndTheUserGoesOn() {
    ResponseListener l =
        listener(true, false, Cancellation.choose(new CancelSettings(1, 50), 0, IDENTITY, false));
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI), false);
    l.cancelNow();

    assertEquals(
        List.of("opened", "record cancelled", "cancelledRows", "closed", "cancelled", "next"),
        sink.said);
    RequestRecord r = sink.records.get(0);
    assertEquals(
        "cancelled by the client 50 ms after the request was written (llm.cancelRate)", r.error());
    assertEquals(50.0, r.cancelAfterMs());
    assertEquals(1, r.completionTokens());
  }

  @Test
  void aChunkAfterTheCancelIsIgnored() {
    ResponseListener l =
        listener(true, false, Cancellation.choose(new CancelSettings(1, 50), 0, IDENTITY, false));
    eventStreamHead(l);
    l.cancelNow();
    l.onHttpResponseBodyChunk(bytes(DONE), true);
    l.onThrowable(PrematureCloseException.INSTANCE);

    assertEquals(
        List.of("opened", "record cancelled", "cancelledRows", "closed", "cancelled", "next"),
        sink.said);
  }

  @Test
  void aRequestCutByTheRunsEndIsRecordedWithoutRowsAndTheUserStays() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI), false);

    assertTrue(l.cutByRunEnd(System.nanoTime(), "interrupted"));
    assertEquals(List.of("opened", "record cut_by_run_end", "closed"), sink.said);
    RequestRecord r = sink.records.get(0);
    assertEquals("still in flight when the run ended (interrupted)", r.error());
    assertEquals(1, r.completionTokens());
  }

  @Test
  void aRequestIsCutOnceAndItsLaterEndIsIgnored() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    l.cutByRunEnd(System.nanoTime(), "interrupted");

    assertFalse(l.cutByRunEnd(System.nanoTime(), "interrupted"));
    l.onHttpResponseBodyChunk(bytes(DONE), true);
    assertEquals(List.of("opened", "record cut_by_run_end", "closed"), sink.said);
  }

  @Test
  void aRequestCutBeforeItsHeadIsRecordedWithoutAStatus() {
    ResponseListener l = streaming();
    l.onSend();

    assertTrue(l.cutByRunEnd(System.nanoTime(), "max duration"));
    assertNull(sink.records.get(0).httpStatus());
  }

  @Test
  void anEndAfterAnEndIsIgnored() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI + DONE), true);
    l.onThrowable(PrematureCloseException.INSTANCE);

    assertEquals(List.of("opened", "record ok", "rows", "closed", "next"), sink.said);
  }

  @Test
  void aNonStreamedCompletionIsReadWhole() {
    ResponseListener l =
        listener(false, true, Cancellation.choose(CancelSettings.NONE, 0, IDENTITY, false));
    l.onSend();
    l.onHttpResponse(HttpResponseStatus.OK, headers("application/json"));
    l.onHttpResponseBodyChunk(
        bytes(
            "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,"
                + "\"completion_tokens\":1,\"total_tokens\":6}}"),
        true);

    assertEquals(List.of("opened", "record ok", "rows", "closed", "next"), sink.said);
    assertEquals(1, sink.records.get(0).completionTokens());
    assertEquals(List.of("Hi"), sink.replies);
  }

  @Test
  void aSinkThatFailsMakesAKoRowAndTheRequestIsCountedOut() {
    Sink failing =
        new Sink() {
          @Override
          public void record(Workload workload, RequestRecord record) {
            throw new IllegalStateException("disk full");
          }
        };
    ResponseListener l =
        new ResponseListener(
            failing,
            settings(true, false),
            session(),
            new Outgoing(IDENTITY, new byte[0], PromptSender.UNFED, ClientWatch.First.NONE),
            noCancel());
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(DONE), true);

    assertEquals(
        List.of(
            "opened",
            "failedRow java.lang.IllegalStateException: disk full",
            "notSent",
            "closed",
            "next"),
        failing.said);
  }

  @Test
  void aStreamedTurnsPartHearsEachTextItsEndItsRecordAndThatItIsOver() {
    ResponseListener l = listener(true, false, noCancel(), recordingPart());
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI + CHUNK_THERE + USAGE + DONE), true);

    assertEquals(
        List.of(
            "opened",
            "part event Hi",
            "part first token",
            "part event  there",
            "part stream end",
            "part complete",
            "record ok",
            "part ended ok",
            "rows",
            "part closed, computed",
            "closed",
            "next"),
        sink.said);
    assertEquals("s-1", sink.records.get(0).sessionId());
  }

  @Test
  void aWholeAnswersPartHearsItsBody() {
    ResponseListener l = listener(false, false, noCancel(), recordingPart());
    l.onSend();
    l.onHttpResponse(HttpResponseStatus.OK, headers("application/json"));
    l.onHttpResponseBodyChunk(
        bytes(
            "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
                + "\"finish_reason\":\"stop\"}]}"),
        true);

    assertEquals(
        List.of(
            "opened",
            "part response Hi of 94 chars",
            "part complete",
            "record ok",
            "part ended ok",
            "rows",
            "part closed, computed",
            "closed",
            "next"),
        sink.said);
  }

  @Test
  void aPartWhoseRecordCouldNotBeKeptHearsItFailedThenThatItIsOver() {
    Sink failing =
        new Sink() {
          @Override
          public void record(Workload workload, RequestRecord record) {
            throw new IllegalStateException("disk full");
          }
        };
    RequestPart part = recordingPart();
    ResponseListener l =
        new ResponseListener(
            failing,
            settings(true, false),
            session(),
            new Outgoing(IDENTITY, new byte[0], part, ClientWatch.First.NONE),
            noCancel());
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(DONE), true);

    assertEquals(
        List.of(
            "opened",
            "failedRow java.lang.IllegalStateException: disk full",
            "notSent",
            "closed",
            "next"),
        failing.said);
    assertEquals(
        List.of(
            "part stream end", "part complete", "part failed at 1000", "part closed, not computed"),
        sink.said);
  }

  @Test
  void aCutTurnsPartHearsItsRecordAndThatItIsOverButItsUserStays() {
    ResponseListener l = listener(true, false, noCancel(), recordingPart());
    eventStreamHead(l);
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI), false);
    l.cutByRunEnd(System.nanoTime(), "interrupted");

    assertEquals(
        List.of(
            "opened",
            "part event Hi",
            "part first token",
            "part complete",
            "record cut_by_run_end",
            "part ended cut_by_run_end",
            "part closed, computed",
            "closed"),
        sink.said);
  }

  private static final String ROLE_ONLY =
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null},"
          + "\"finish_reason\":null}]}\n\n";

  /** A part that holds a prefix ticket, as a fed prompt's and a first turn's do. */
  private static RequestPart sharing(PrefixLedger.Ticket ticket) {
    return new RequestPart() {
      @Override
      public void sending(RunContext run, String scenario, String request) {}

      @Override
      public RequestRecord complete(RequestRecord record, CachePlan.Server server, long endNanos) {
        return record;
      }

      @Override
      public void firstToken() {
        ticket.prefillEnded();
      }

      @Override
      public void closed(long endNanos, boolean computed) {
        ticket.ended(computed);
      }
    };
  }

  private ResponseListener sending(boolean streamed, PrefixLedger.Ticket prefill) {
    return listener(streamed, false, noCancel(), sharing(prefill));
  }

  @Test
  void aRequestsPrefixIsReadyAtItsFirstTokenNotAtItsHeadOrRoleOnlyEvent() {
    PrefixLedger ledger = new PrefixLedger();
    ResponseListener first = sending(true, ledger.send("measured:0"));
    eventStreamHead(first);
    first.onHttpResponseBodyChunk(bytes(ROLE_ONLY), false);
    PrefixLedger.Ticket duringPrefill = ledger.send("measured:0");
    first.onHttpResponseBodyChunk(bytes(CHUNK_HI), false);
    PrefixLedger.Ticket afterFirstToken = ledger.send("measured:0");
    first.onHttpResponseBodyChunk(bytes(CHUNK_THERE + USAGE + DONE), true);

    assertEquals(0, duringPrefill.readyLead());
    assertEquals(1, duringPrefill.sentLead());
    assertEquals(1, afterFirstToken.readyLead());
  }

  @Test
  void aNonStreamedRequestsPrefixIsReadyWhenItsAnswerEnds() {
    PrefixLedger ledger = new PrefixLedger();
    ResponseListener first = sending(false, ledger.send("g"));
    first.onSend();
    first.onHttpResponse(HttpResponseStatus.OK, headers("application/json"));
    PrefixLedger.Ticket before = ledger.send("g");
    first.onHttpResponseBodyChunk(
        bytes(
            "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,"
                + "\"completion_tokens\":1,\"total_tokens\":6}}"),
        true);

    assertEquals(0, before.readyLead());
    assertEquals(1, ledger.send("g").readyLead());
  }

  @Test
  void aRequestThatFailsBeforeItsFirstTokenLeavesItsPrefixNotReady() {
    PrefixLedger ledger = new PrefixLedger();
    ResponseListener first = sending(true, ledger.send("g"));
    first.onSend();
    first.onHttpResponse(HttpResponseStatus.INTERNAL_SERVER_ERROR, headers("application/json"));
    first.onHttpResponseBodyChunk(bytes("{\"error\":{\"message\":\"boom\"}}"), true);

    PrefixLedger.Ticket after = ledger.send("g");
    assertEquals(1, after.sentLead());
    assertEquals(0, after.readyLead());
  }

  @Test
  void aRequestLeavesTheOpenRequestsOnlyOnceItIsRecorded() throws Exception {
    // Issue 40.1: the run's end cuts what is open; a request that ended just before must be in the
    // record by then, so it stays open (and its lock held) until its record is handed over.
    OpenRequests open = new OpenRequests();
    java.util.concurrent.CountDownLatch recording = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Sink slow =
        new Sink() {
          @Override
          public void opened(OpenRequests.Open request) {
            open.add(request);
          }

          @Override
          public void closed(OpenRequests.Open request) {
            open.remove(request);
          }

          @Override
          public void record(Workload workload, RequestRecord record) {
            recording.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            super.record(workload, record);
          }
        };
    ResponseListener l =
        new ResponseListener(
            slow,
            settings(true, false),
            session(),
            new Outgoing(IDENTITY, new byte[0], PromptSender.UNFED, ClientWatch.First.NONE),
            noCancel());
    eventStreamHead(l);
    Thread eventLoop = new Thread(() -> l.onHttpResponseBodyChunk(bytes(CHUNK_HI + DONE), true));
    eventLoop.start();
    recording.await();

    assertEquals(1, open.size());
    java.util.concurrent.atomic.AtomicInteger cut = new java.util.concurrent.atomic.AtomicInteger();
    Thread runEnd = new Thread(() -> cut.set(open.cutAll(System.nanoTime(), "saturation_stop")));
    runEnd.start();
    release.countDown();
    runEnd.join(10_000);
    eventLoop.join(10_000);

    assertEquals(0, cut.get());
    assertEquals(List.of("ok"), slow.records.stream().map(r -> r.status().wireName()).toList());
  }

  @Test
  void aRequestThatEndsAfterTheRunEndedIsCutWithoutRows() {
    ResponseListener l = streaming();
    eventStreamHead(l);
    sink.runEnded = "max_duration";
    l.onHttpResponseBodyChunk(bytes(CHUNK_HI + DONE), true);

    assertEquals(List.of("opened", "record cut_by_run_end", "closed"), sink.said);
    assertEquals("still in flight when the run ended (max_duration)", sink.records.get(0).error());
    assertEquals(1, sink.records.get(0).completionTokens());
  }
}
