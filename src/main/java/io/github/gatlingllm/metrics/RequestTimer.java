package io.github.gatlingllm.metrics;

import io.github.gatlingllm.api.ApiError;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.Usage;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Times one streamed request from its events' own arrival timestamps.
 *
 * <p>One instance per request; not thread-safe: feed it from one thread at a time. Instants are
 * {@link System#nanoTime()} readings (nanoseconds on one monotonic clock with an arbitrary origin,
 * compared by difference, so a wrap-around of the value does no harm), taken the moment the request
 * was sent and each body chunk arrived; never read the clock when the events are handled, since
 * they may be handled long after they arrived. Every duration is worked out from those nanoseconds
 * and given in milliseconds rounded to the whole microsecond: {@code Math.round((t - t0) / 1000.0)
 * / 1000.0} for instants {@code t0 <= t} (so 2,517,400 ns is 2.517 ms, 250,000 ns is 0.25 ms);
 * negative intervals count as 0.
 *
 * <p>Definitions, following vLLM's {@code benchmarks/benchmark_serving.py} ({@code
 * backend_request_func.py}, {@code calculate_metrics}) and GuideLLM's per-request statistics:
 *
 * <ul>
 *   <li><b>time to first event</b>: start to the first SSE message of any kind, role-only deltas
 *       included; close to Gatling's own first-message time and not a model latency.
 *   <li><b>TTFT</b>: start to the first event carrying a token: non-empty {@code content}, {@code
 *       reasoning_content}/{@code reasoning}, {@code text} or a tool-call delta ({@link
 *       StreamEvent#isTokenBearing()}). vLLM's chat client stops the clock at the first chunk with
 *       {@code choices}, role-only or not; vLLM's server sends its role-only delta once the first
 *       token is ready, so there the two agree, but other servers (llama.cpp: {@code content:
 *       null}) may send it earlier, and here it is never a token.
 *   <li><b>ITL</b>: for each token-bearing event after the first, the gap to the previous
 *       token-bearing event (vLLM's {@code itl}). When the server reports cumulative {@code
 *       usage.completion_tokens} on this event and the previous token-bearing one (vLLM's {@code
 *       stream_options.continuous_usage_stats}), an event that brought {@code k > 1} tokens spreads
 *       its gap into {@code k} values of {@code gap / k} (each rounded to the microsecond from the
 *       gap's nanoseconds); otherwise one value per event. Tokens that came with the first
 *       token-bearing event add no interval.
 *   <li><b>E2E</b>: start to the end given to {@link #finish(long, Integer)} (vLLM's {@code
 *       latency}); pass the {@code [DONE]} chunk's arrival, see {@link #lastEventNanos()}.
 *   <li><b>output tokens</b>: {@code usage.completion_tokens} as last reported (exact), else the
 *       number of token-bearing events (not exact: a chunk can carry several tokens or none).
 *   <li><b>TPOT</b>: {@code (E2E - TTFT) / (output tokens - 1)}, only with at least 2 output tokens
 *       (vLLM's {@code tpot}; GuideLLM's per-request {@code inter_token_latency} is the same
 *       quotient taken to the last token rather than to the end of the response); worked out from
 *       the microsecond-rounded E2E and TTFT given here and rounded to the microsecond, so it can
 *       be checked from a record's own {@code e2e_ms} and {@code ttft_ms}.
 *   <li><b>output tokens/s</b> of one request: {@code output tokens / (E2E / 1000)} with E2E the
 *       microsecond-rounded milliseconds given here (not itself rounded), as GuideLLM's per-request
 *       {@code output_tokens_per_second} (output tokens over request latency); vLLM's {@code
 *       output_throughput} is the run-wide counterpart, see {@link MetricsAggregator}.
 *   <li><b>prompt tokens</b>: {@code usage.prompt_tokens} (exact), else the caller's fallback count
 *       (not exact: a local count cannot see the server's chat template); <b>cached tokens</b>:
 *       {@code usage.prompt_tokens_details.cached_tokens}.
 * </ul>
 */
public final class RequestTimer {

  private static final double NANOS_PER_MICRO = 1000.0;
  private static final double MICROS_PER_MS = 1000.0;

  private final long startMs;
  private final long startNanos;
  private final String terminalEvent;
  private boolean anyEvent;
  private long firstEventNanos;
  private long lastEventNanos;
  private boolean anyToken;
  private long firstTokenNanos;
  private long lastTokenNanos;
  private Integer lastTokenCumulative;
  private double[] itl = new double[16];
  private int itlCount;
  private int tokenEvents;
  private Integer promptTokens;
  private Integer cachedTokens;
  private Integer completionTokens;
  private String finishReason;
  private boolean done;
  private ApiError serverError;
  private ApiError malformed;
  private boolean finished;
  private final AnswerPhases phases = new AnswerPhases();
  private Integer usageReasoningTokens;
  private long e2eMicrosDone;
  private Long ttftMicrosDone;

  /**
   * A timer for a request that started at {@code startMs} (wall clock) and {@code startNanos}
   * (monotonic clock): two readings of the same moment, taken when the request is sent.
   *
   * @param startMs the request start, epoch milliseconds ({@link System#currentTimeMillis()}); only
   *     recorded as {@link RequestTimings#startMs()}, never used for a duration
   * @param startNanos the request start, {@link System#nanoTime()} nanoseconds; every duration is
   *     measured from it
   */
  public RequestTimer(long startMs, long startNanos) {
    this(startMs, startNanos, "[DONE]");
  }

  /**
   * A timer for a request whose API ends a complete stream with {@code terminalEvent} (the event
   * its parser turns into {@link StreamEvent.Kind#DONE}; see {@code api.Dialect#terminalEvent()}):
   * a stream cut short before it is recorded as {@code "stream ended without <terminalEvent>"}.
   *
   * @param startMs the request start, epoch milliseconds, as {@link #RequestTimer(long, long)}
   * @param startNanos the request start, {@link System#nanoTime()} nanoseconds
   * @param terminalEvent the API's terminal event, for example {@code "message_stop"}; not null
   * @throws NullPointerException if {@code terminalEvent} is null
   */
  public RequestTimer(long startMs, long startNanos, String terminalEvent) {
    this.startMs = startMs;
    this.startNanos = startNanos;
    this.terminalEvent = Objects.requireNonNull(terminalEvent, "terminalEvent");
  }

  /**
   * Takes one event in. Events after {@code [DONE]} only move {@link #lastEventNanos()}; {@link
   * StreamEvent.Kind#EMPTY} payloads count as the first event but carry nothing else.
   *
   * @param arrivalNanos the arrival of the body chunk that held the event, {@link
   *     System#nanoTime()} nanoseconds read the moment the chunk arrived (every event of one chunk
   *     gets the chunk's stamp)
   * @param event the parsed payload, never null
   * @throws NullPointerException if {@code event} is null
   * @throws IllegalStateException if {@link #finish} was called
   */
  public void onEvent(long arrivalNanos, StreamEvent event) {
    Objects.requireNonNull(event, "event");
    if (finished) {
      throw new IllegalStateException("onEvent after finish: a RequestTimer times one request");
    }
    if (!anyEvent) {
      anyEvent = true;
      firstEventNanos = arrivalNanos;
    }
    lastEventNanos = arrivalNanos;
    if (done) {
      return;
    }
    switch (event.kind()) {
      case DONE -> done = true;
      case ERROR -> {
        if (serverError == null) {
          serverError = event.error();
        }
      }
      case MALFORMED -> {
        if (malformed == null) {
          malformed = event.error();
        }
      }
      case CHUNK -> onChunk(arrivalNanos, event);
      case EMPTY -> {
        // nothing in it
      }
    }
  }

  private void onChunk(long arrivalNanos, StreamEvent event) {
    Usage usage = event.usage();
    Integer cumulative = null;
    if (usage != null) {
      if (usage.promptTokens() != null) {
        promptTokens = usage.promptTokens();
      }
      if (usage.cachedTokens() != null) {
        cachedTokens = usage.cachedTokens();
      }
      if (usage.completionTokens() != null) {
        completionTokens = usage.completionTokens();
        cumulative = usage.completionTokens();
      }
      if (usage.reasoningTokens() != null) {
        usageReasoningTokens = usage.reasoningTokens();
      }
    }
    if (event.finishReason() != null) {
      finishReason = event.finishReason();
    }
    if (!event.isTokenBearing()) {
      return;
    }
    tokenEvents++;
    if (!anyToken) {
      anyToken = true;
      firstTokenNanos = arrivalNanos;
    } else {
      long gapNanos = Math.max(0, arrivalNanos - lastTokenNanos);
      int k =
          cumulative != null && lastTokenCumulative != null ? cumulative - lastTokenCumulative : 1;
      if (k > 1) {
        double share = Math.round(gapNanos / (NANOS_PER_MICRO * k)) / MICROS_PER_MS;
        for (int i = 0; i < k; i++) {
          addItl(share);
        }
      } else {
        addItl(Math.round(gapNanos / NANOS_PER_MICRO) / MICROS_PER_MS);
      }
    }
    lastTokenNanos = arrivalNanos;
    lastTokenCumulative = cumulative;
    phases.onTokenEvent(arrivalNanos, event, itlCount);
  }

  /**
   * Whether the next event's text should be kept ({@link StreamEvent#parse(byte[], int, int,
   * boolean)}'s {@code keepText}): until the answer starts, and inside {@code <think>}, so that the
   * reasoning text can be counted with a tokenizer; never after, so an answer's text is not copied.
   *
   * @return true while the reasoning phase may still be going on
   */
  public boolean wantsText() {
    return phases.wantsText();
  }

  private void addItl(double value) {
    if (itlCount == itl.length) {
      itl = Arrays.copyOf(itl, itlCount * 2);
    }
    itl[itlCount++] = value;
  }

  /**
   * The arrival of the latest event taken in, for {@link #finish(long, Integer)}.
   *
   * @return {@link System#nanoTime()} nanoseconds, or the start's if no event arrived
   */
  public long lastEventNanos() {
    return anyEvent ? lastEventNanos : startNanos;
  }

  /**
   * Whether {@code [DONE]} arrived.
   *
   * @return true after a {@link StreamEvent.Kind#DONE} event
   */
  public boolean sawDone() {
    return done;
  }

  /**
   * The number of token-bearing events so far.
   *
   * @return the count, never negative
   */
  public int tokenEvents() {
    return tokenEvents;
  }

  /**
   * Ends the request and works out its timings. Call once.
   *
   * @param endNanos the end of the response, {@link System#nanoTime()} nanoseconds: the arrival of
   *     the chunk that held {@code [DONE]} (or of the last chunk, {@link #lastEventNanos()}) for a
   *     complete stream, the moment of failure otherwise
   * @param fallbackPromptTokens the prompt tokens to record when the server reports no {@code
   *     usage.prompt_tokens} (marked not exact), or null
   * @return the timings, never null
   * @throws IllegalStateException if called twice
   */
  public RequestTimings finish(long endNanos, Integer fallbackPromptTokens) {
    if (finished) {
      throw new IllegalStateException("finish called twice: a RequestTimer times one request");
    }
    finished = true;
    long e2eMicros = micros(startNanos, endNanos);
    double e2e = e2eMicros / MICROS_PER_MS;
    Long ttftMicros = anyToken ? micros(startNanos, firstTokenNanos) : null;
    e2eMicrosDone = e2eMicros;
    ttftMicrosDone = ttftMicros;
    Double ttft = ttftMicros == null ? null : ttftMicros / MICROS_PER_MS;
    Double firstEvent = anyEvent ? micros(startNanos, firstEventNanos) / MICROS_PER_MS : null;
    boolean exactOutput = completionTokens != null;
    int output = exactOutput ? completionTokens : tokenEvents;
    Double tpot =
        ttftMicros != null && output >= 2
            ? Math.round(Math.max(0, e2eMicros - ttftMicros) / (double) (output - 1))
                / MICROS_PER_MS
            : null;
    StreamOutcome outcome;
    String error;
    if (serverError != null) {
      outcome = StreamOutcome.ERROR_EVENT;
      error = "error event: " + serverError.describe();
    } else if (malformed != null) {
      outcome = StreamOutcome.MALFORMED;
      error = malformed.message();
    } else if (done) {
      outcome = StreamOutcome.COMPLETE;
      error = null;
    } else {
      outcome = StreamOutcome.NO_DONE;
      error = anyEvent ? "stream ended without " + terminalEvent : "stream ended without any event";
    }
    boolean exactPrompt = promptTokens != null;
    return new RequestTimings(
        startMs,
        firstEvent,
        ttft,
        ItlList.of(itl, itlCount),
        tpot,
        e2e,
        throughput(output, e2e),
        exactPrompt ? promptTokens : fallbackPromptTokens,
        exactPrompt,
        cachedTokens,
        output,
        exactOutput,
        finishReason,
        outcome,
        error);
  }

  /**
   * The reasoning and answer phases of the finished request (see {@link AnswerTimings} for the
   * definitions and {@link AnswerPhases} for how an event is told to be one or the other).
   *
   * @param counter counts the tokens of a reasoning text, used when the server reports no {@code
   *     usage.completion_tokens_details.reasoning_tokens}; null to count one token per
   *     reasoning-phase event
   * @return the phases, never null
   * @throws IllegalStateException if {@link #finish} was not called
   */
  public AnswerTimings answer(ToIntFunction<String> counter) {
    if (!finished) {
      throw new IllegalStateException("answer() before finish()");
    }
    return phases.timings(
        counter, usageReasoningTokens, completionTokens, startNanos, ttftMicrosDone, e2eMicrosDone);
  }

  /**
   * What an ended request measured: its timings and its answer's, made together.
   *
   * @param timings the request's timings, never null
   * @param answer its reasoning and answer phases, never null ({@link AnswerTimings#NONE} when
   *     nothing of the answer is known)
   */
  public record Finished(RequestTimings timings, AnswerTimings answer) {
    /** Checks both parts. */
    public Finished {
      Objects.requireNonNull(timings, "timings");
      Objects.requireNonNull(answer, "answer");
    }
  }

  /**
   * Ends the timing of the stream at {@code endNanos}: {@link #finish(long, Integer)} and {@link
   * #answer(ToIntFunction)} in one call.
   *
   * @param endNanos the end of the stream, {@link System#nanoTime()} nanoseconds
   * @param fallbackPromptTokens prompt tokens when the stream reported no usage (not exact), or
   *     null
   * @param counter counts reasoning text when the server reports no reasoning tokens, or null
   * @return the timings and the answer's, never null
   * @throws IllegalStateException if the request was already finished
   */
  public Finished finish(
      long endNanos, Integer fallbackPromptTokens, ToIntFunction<String> counter) {
    RequestTimings timings = finish(endNanos, fallbackPromptTokens);
    return new Finished(timings, answer(counter));
  }

  /**
   * A non-streamed request's timings ({@link #nonStreaming}) and its answer's ({@link
   * #nonStreamingAnswer}), together.
   *
   * @param startMs the request start, epoch milliseconds, only recorded
   * @param startNanos the request start, {@link System#nanoTime()} nanoseconds
   * @param endNanos the end of the response body, {@link System#nanoTime()} nanoseconds
   * @param response the parsed body, never null ({@link StreamEvent#EMPTY} when none was read)
   * @param fallbackPromptTokens prompt tokens when the body has no usage (not exact), or null
   * @param counter counts reasoning text, or null
   * @return the timings and the answer's, never null
   */
  public static Finished finishNonStreaming(
      long startMs,
      long startNanos,
      long endNanos,
      StreamEvent response,
      Integer fallbackPromptTokens,
      ToIntFunction<String> counter) {
    RequestTimings timings =
        nonStreaming(startMs, startNanos, endNanos, response, fallbackPromptTokens, null);
    return new Finished(timings, nonStreamingAnswer(response, timings.completionTokens(), counter));
  }

  /**
   * A request cut before any of its answer was read (cancelled, or cut by the run's end): its E2E
   * until {@code endNanos} and nothing of an answer.
   *
   * @param startMs the request start, epoch milliseconds, only recorded
   * @param startNanos the request start, {@link System#nanoTime()} nanoseconds
   * @param endNanos when it was cut, {@link System#nanoTime()} nanoseconds
   * @param fallbackPromptTokens the planned prompt tokens (not exact), or null
   * @return the timings and {@link AnswerTimings#NONE}, never null
   */
  public static Finished unanswered(
      long startMs, long startNanos, long endNanos, Integer fallbackPromptTokens) {
    return new Finished(
        nonStreaming(startMs, startNanos, endNanos, StreamEvent.EMPTY, fallbackPromptTokens, null),
        AnswerTimings.NONE);
  }

  /**
   * The reasoning and answer tokens of a non-streamed reply: from {@code
   * usage.completion_tokens_details.reasoning_tokens}, else its {@code reasoning_content} (or
   * {@code <think>} block) counted with {@code counter}; no TTFO (nothing about arrival is known).
   *
   * @param response the parsed body ({@link StreamEvent#parseResponse(String)}), never null
   * @param completionTokens the request's output tokens ({@link
   *     RequestTimings#completionTokens()}), or null
   * @param counter counts reasoning text, or null
   * @return the phases, never null; {@link AnswerTimings#NONE} for a body that is no completion
   */
  public static AnswerTimings nonStreamingAnswer(
      StreamEvent response, Integer completionTokens, ToIntFunction<String> counter) {
    if (response.kind() != StreamEvent.Kind.CHUNK) {
      return AnswerTimings.NONE;
    }
    Integer reasoning = null;
    String source = null;
    if (response.usage() != null && response.usage().reasoningTokens() != null) {
      reasoning = response.usage().reasoningTokens();
      source = AnswerTimings.SOURCE_USAGE;
    } else if (counter != null) {
      String text = response.reasoning();
      String content = response.content();
      if (text == null && content != null) {
        int open = content.indexOf("<think>");
        int close = content.indexOf("</think>");
        if (close >= 0) {
          text = content.substring(open >= 0 && open < close ? open : 0, close + 8);
        }
      }
      reasoning = text == null ? 0 : counter.applyAsInt(text);
      source = AnswerTimings.SOURCE_TOKENIZER;
    }
    Integer answer =
        reasoning != null && completionTokens != null
            ? Math.max(0, completionTokens - reasoning)
            : null;
    return new AnswerTimings(null, reasoning, source, answer, null, null, null);
  }

  /**
   * The timings of a non-streamed request: its whole response body read with {@link
   * StreamEvent#parseResponse(String)}. Nothing about tokens' arrival is known, so time to first
   * event, TTFT, ITL and TPOT are null ("not measured"); E2E and output tokens/s are as for
   * streams.
   *
   * @param startMs the request start, epoch milliseconds ({@link System#currentTimeMillis()}), only
   *     recorded as {@link RequestTimings#startMs()}
   * @param startNanos the request start, {@link System#nanoTime()} nanoseconds
   * @param endNanos the end of the response body, {@link System#nanoTime()} nanoseconds; E2E is
   *     {@code endNanos - startNanos} in milliseconds rounded to the microsecond, 0 if negative
   * @param response the parsed body, never null
   * @param fallbackPromptTokens prompt tokens when the body has no {@code usage.prompt_tokens} (not
   *     exact), or null
   * @param fallbackCompletionTokens output tokens when the body has no {@code
   *     usage.completion_tokens} (not exact; for example the response text counted with a {@code
   *     TokenCounter}), or null
   * @return the timings, never null; outcome {@link StreamOutcome#COMPLETE} for a completion body,
   *     {@link StreamOutcome#ERROR_EVENT} for an error body, {@link StreamOutcome#MALFORMED}
   *     otherwise
   * @throws NullPointerException if {@code response} is null
   */
  public static RequestTimings nonStreaming(
      long startMs,
      long startNanos,
      long endNanos,
      StreamEvent response,
      Integer fallbackPromptTokens,
      Integer fallbackCompletionTokens) {
    Objects.requireNonNull(response, "response");
    double e2e = micros(startNanos, endNanos) / MICROS_PER_MS;
    Usage usage = response.usage();
    Integer prompt = usage == null ? null : usage.promptTokens();
    Integer completion = usage == null ? null : usage.completionTokens();
    boolean exactOutput = completion != null;
    Integer output = exactOutput ? completion : fallbackCompletionTokens;
    StreamOutcome outcome;
    String error;
    switch (response.kind()) {
      case CHUNK -> {
        outcome = StreamOutcome.COMPLETE;
        error = null;
      }
      case ERROR -> {
        outcome = StreamOutcome.ERROR_EVENT;
        error = "error body: " + response.error().describe();
      }
      case MALFORMED -> {
        outcome = StreamOutcome.MALFORMED;
        error = response.error().message();
      }
      default -> {
        outcome = StreamOutcome.MALFORMED;
        error =
            "not a completion body: " + response.kind().name().toLowerCase(java.util.Locale.ROOT);
      }
    }
    return new RequestTimings(
        startMs,
        null,
        null,
        null,
        null,
        e2e,
        output == null ? null : throughput(output, e2e),
        prompt != null ? prompt : fallbackPromptTokens,
        prompt != null,
        usage == null ? null : usage.cachedTokens(),
        output,
        exactOutput,
        response.finishReason(),
        outcome,
        error);
  }

  /**
   * From one {@link System#nanoTime()} reading to a later one, in whole microseconds (half a
   * microsecond rounds up); 0 when {@code toNanos} is before {@code fromNanos}.
   */
  private static long micros(long fromNanos, long toNanos) {
    return Math.round(Math.max(0, toNanos - fromNanos) / NANOS_PER_MICRO);
  }

  private static Double throughput(int outputTokens, double e2eMs) {
    return e2eMs > 0 ? outputTokens / (e2eMs / 1000.0) : null;
  }
}
