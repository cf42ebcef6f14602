package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.SseParser;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.RequestTimings;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. Runs a request's client-side path on synthetic bytes before the load starts, so that the
 * first virtual users do not pay for class loading and the interpreter: building the body
 * (Jackson), resolving Gatling's HTTP request for a session (when Gatling accepts the synthetic
 * session), parsing a streamed answer ({@link SseParser}, {@link StreamEvent}), timing it ({@link
 * RequestTimer}), making its record and adding it to a throwaway aggregate ({@link
 * MetricsAggregator}: the exact tables). Without it the first open-loop user of a run is sent tens
 * of milliseconds late (94 ms measured on this project's machines), which is the JVM's warm-up, not
 * the client's pace, yet weighs on the schedule lag.
 *
 * <p>Nothing is sent and nothing is recorded: the synthetic session, request and record are thrown
 * away, and no counter of the run is touched. A failure here is logged at debug level and ignored:
 * the run only loses the warm-up. As the seed's {@code warm()} does for prompts, the one-off work
 * is done before the clock starts.
 */
final class ClientWarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(ClientWarmUp.class);

  /**
   * Rounds of the path: enough for the JIT's first tier (a method is compiled after about 200 calls
   * at tier 3) on every method the path calls per event, a few milliseconds in all.
   */
  static final int ROUNDS = 300;

  /** Events of the synthetic answer: a role delta, content deltas, a finish and a usage event. */
  static final int CONTENT_EVENTS = 32;

  private static final byte[] STREAM = stream();

  private ClientWarmUp() {}

  /**
   * Runs the path {@link #ROUNDS} times.
   *
   * @param name the request's name
   * @param settings its body settings, never null
   * @param http Gatling's request of a session ({@code GatlingHttp#clientRequest}), or null to
   *     leave it out; a failure leaves it out of the later rounds
   * @return how many rounds ran to their end (fewer when one failed)
   */
  static int run(
      String name, RequestSettings settings, java.util.function.Function<Session, ?> http) {
    long t0 = System.nanoTime();
    int done = 0;
    int requests = 0;
    Session session = null;
    try {
      session = Session$.MODULE$.apply("gatling-llm warm-up", -1L, null);
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("llm(\"{}\"): no warm-up session: {}", name, e.toString());
    }
    // A throwaway aggregate: the exact tables and histograms of every metric, as the run's.
    MetricsAggregator aggregate = new MetricsAggregator();
    try {
      for (int i = 0; i < ROUNDS; i++) {
        String text = "warm-up prompt " + i + " of the client's request path";
        // Every other round as a prompt built ahead sends it: copied around its JSON string.
        byte[] body =
            i % 2 == 1
                ? settings.endpoint().dialect().bodyBytes(settings, text, Prompt.jsonBytes(text))
                : settings
                    .endpoint()
                    .dialect()
                    .body(settings, text)
                    .getBytes(StandardCharsets.UTF_8);
        // Gatling's request for a synthetic session, apart: it may refuse one (the session lacks
        // what HTTP's per-user start puts in, such as the DNS resolver), and that must not stop
        // the rest of the warm-up, which it did until issue 35 (0 rounds ran in every run).
        if (http != null && session != null && requests >= 0 && i < ROUNDS / 10) {
          try {
            http.apply(session.set(LlmScalaActionBuilder.BODY, body));
            requests++;
          } catch (RuntimeException | LinkageError e) {
            LOG.debug(
                "llm(\"{}\"): Gatling's request left out of the warm-up: {}", name, e.toString());
            requests = -1;
          }
        }
        aggregate.add(record(name, i, answer()));
        done++;
      }
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("llm(\"{}\"): the client warm-up stopped: {}", name, e.toString());
    }
    LOG.debug(
        "llm(\"{}\"): client warm-up, {} rounds ({} with Gatling's request) in {} ms",
        name,
        done,
        Math.max(requests, 0),
        (System.nanoTime() - t0) / 1_000_000);
    return done;
  }

  /** The synthetic answer, parsed and timed as a response listener does. */
  static RequestTimings answer() {
    long startNanos = System.nanoTime();
    RequestTimer timer = new RequestTimer(System.currentTimeMillis(), startNanos);
    SseParser parser =
        new SseParser(
            (buffer, from, to) ->
                timer.onEvent(System.nanoTime(), StreamEvent.parse(buffer, from, to, false)));
    // In pieces, as chunks come off the wire.
    for (int at = 0; at < STREAM.length; at += 256) {
      parser.feed(STREAM, at, Math.min(256, STREAM.length - at));
    }
    parser.end();
    return timer.finish(System.nanoTime(), null);
  }

  private static RequestRecord record(String name, long index, RequestTimings timings) {
    return RequestRecord.of(
        new RequestIdentity(name, Phase.WARMUP.wireName(), index, null, null, null, null, null),
        timings,
        200,
        RequestStatus.OK,
        null);
  }

  private static byte[] stream() {
    String head =
        "{\"id\":\"w\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"w\",";
    StringBuilder s = new StringBuilder();
    s.append("data: ")
        .append(head)
        .append("\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null},")
        .append("\"finish_reason\":null}]}\n\n");
    for (int i = 0; i < CONTENT_EVENTS; i++) {
      s.append("data: ")
          .append(head)
          .append("\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token")
          .append(i)
          .append("\"},\"finish_reason\":null}]}\n\n");
    }
    s.append("data: ")
        .append(head)
        .append("\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n");
    s.append("data: ")
        .append(head)
        .append("\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":")
        .append(CONTENT_EVENTS)
        .append(",\"total_tokens\":")
        .append(12 + CONTENT_EVENTS)
        .append("}}\n\n");
    s.append("data: [DONE]\n\n");
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }
}
