package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import java.util.Objects;

/**
 * The JSON form of a {@link RequestRecord}: one line of {@code llm-requests.jsonl}.
 *
 * <p>JSON keys, in this order (snake_case; null written as {@code null}): {@code request, phase,
 * index, prompt_id, digest, prefix_group, shared_prefix_tokens, planned_tokens, start_ms,
 * prompt_tokens, prompt_tokens_exact, cached_tokens, completion_tokens, completion_tokens_exact,
 * ttft_ms, time_to_first_event_ms, itl_ms, tpot_ms, e2e_ms, output_tokens_per_s, finish_reason,
 * http_status, status, error, workload, planned_cached_tokens, cache_planned, cache,
 * cache_warm_start, conversation, turn, context_tokens, reply_digest, sent_ms, scheduled_ms,
 * schedule_lag_ms, ttfo_ms, reasoning_tokens, reasoning_tokens_source, answer_tokens,
 * reasoning_tpot_ms, answer_tpot_ms, answer_itl_from, cancel_after_ms, trace_row}; {@code itl_ms}
 * only when asked for. {@code ttfo_ms} to {@code answer_itl_from} are a reasoning model's phases
 * ({@link io.github.gatlingllm.metrics.AnswerTimings}): time to the first answer token (null when
 * the reply never answered), reasoning tokens and how they were counted ({@code usage}, {@code
 * tokenizer}, {@code chunks}), answer tokens, the time per token of each phase, and where in {@code
 * itl_ms} the answer's gaps begin. {@code cancel_after_ms} is the delay after which the client
 * cancelled (or was to cancel) the request, on requests the run's cancellation chose (status {@code
 * cancelled} when it was cut). {@code trace_row} is the 0-based line of the trace file a replayed
 * row came from ({@code trace(path)}), only on a trace row's line. {@code workload} is the prompt
 * workload's name, {@code planned_cached_tokens} the request's {@link
 * io.github.gatlingllm.cache.CachePlan}, {@code cache_planned} what it expects ({@code hit} or
 * {@code miss}), {@code cache} the outcome ({@code hit}, {@code partial}, {@code miss}, {@code
 * unplanned_hit}, {@code unknown}) and {@code cache_warm_start} whether the cache held more of the
 * prompt than the test could have put there; the last four null without a cache plan. {@code
 * conversation} (its index in its phase), {@code turn} (from 1), {@code context_tokens} (the tokens
 * before the turn's new user message) and {@code reply_digest} (16 hex of the reply text as
 * received) are a conversation turn's, null on any other request ({@link
 * io.github.gatlingllm.metrics.ConversationTurn}). {@code sent_ms} is when the request was handed
 * to Gatling's HTTP client and {@code scheduled_ms} when the injection profile said its virtual
 * user arrives (epoch milliseconds, microsecond precision, on the client's nanosecond clock
 * anchored once to the epoch), {@code schedule_lag_ms} their difference; the last two only on the
 * first LLM request of an open-loop user (see {@link
 * io.github.gatlingllm.levels.InjectionSchedule}); {@code schedule_lag_ms} is not read back (it is
 * derived). Times are milliseconds with microsecond precision, each written as the shortest decimal
 * that reads back as its value ({@code 2.517}, {@code 0.25}, {@code 34}); older files wrote whole
 * milliseconds and are read the same way. Null means not measured (see {@link
 * io.github.gatlingllm.metrics.RequestTimer} for the definitions). These names and meanings are
 * read by users' scripts: fields may be added, never renamed or given another meaning.
 *
 * <p>The fields are listed once, in {@link RecordFields}; {@link RequestLineWriter} writes a line
 * and {@link RequestRecordReader} reads one, both from that list.
 */
public final class RequestRecordJson {

  private RequestRecordJson() {}

  /**
   * A record as one line of JSON (no line break), written by {@link RequestLineWriter}.
   *
   * @param record the record, never null
   * @param includeItl whether to write {@code itl_ms}
   * @return the JSON object text
   * @throws NullPointerException if {@code record} is null
   */
  public static String toJson(RequestRecord record, boolean includeItl) {
    Objects.requireNonNull(record, "record");
    StringBuilder out = new StringBuilder(1024);
    RequestLineWriter.append(out, record, includeItl);
    return out.toString();
  }

  /**
   * Reads one line written by {@link #toJson(RequestRecord, boolean)}, or by an older version, with
   * {@link RequestRecordReader}. Unknown keys are ignored; missing optional keys read as null (or
   * false for the exact flags).
   *
   * @param json one JSON object
   * @return the record
   * @throws IllegalArgumentException if the text is not a JSON object, {@code request}, {@code
   *     start_ms} or {@code status} is missing, or a value has the wrong type; the message names
   *     the key
   */
  public static RequestRecord fromJson(String json) {
    return RequestRecordReader.parse(json);
  }
}
