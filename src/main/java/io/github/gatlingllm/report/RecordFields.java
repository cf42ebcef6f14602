package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestRecordBuilder;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The one list of a {@link RequestRecord}'s fields in {@code llm-requests.jsonl}: for each, its
 * JSON key, its kind of value, how to get it from a record and how to set it on a {@link
 * RequestRecordBuilder}. The line writer ({@link RequestLineWriter}), the reader ({@link
 * RequestRecordReader}) and the CSV columns ({@link RequestsFile.Csv}) all iterate {@link #ALL}, in
 * its order, which is the order of the keys in a line (see {@link RequestRecordJson} for their
 * meaning). A new field of the record is one component, its builder setter and one row here; keys
 * are only ever added (users' scripts read them), never renamed.
 */
final class RecordFields {

  /** How a field's value is written and read. */
  enum Kind {
    /** A JSON string or null. */
    TEXT("a string"),
    /** A JSON whole number within {@code int} or null. */
    INT("a whole number (int)"),
    /** A JSON whole number within {@code long} or null. */
    LONG("a whole number"),
    /** Milliseconds (or any number): written as {@link Decimals#shortest}, or null. */
    TIME("a number"),
    /** true or false; null or missing reads as false. */
    FLAG("true or false"),
    /** true, false or null. */
    NULLABLE_FLAG("true or false"),
    /** An array of times, or null. */
    TIMES("an array of numbers");

    /** What a value of this kind must be, for the message that refuses another. */
    final String expected;

    Kind(String expected) {
      this.expected = expected;
    }
  }

  /**
   * One field: a key, its kind, its getter and its setter.
   *
   * <p>The getter returns the value as written ({@code String} for {@link Kind#TEXT}, {@code
   * Integer}, {@code Long}, {@code Double}, {@code Boolean}, {@code List<Double>} for {@link
   * Kind#TIMES}); the setter takes that value (never a missing {@link Kind#FLAG}: that is false)
   * and may throw {@link IllegalArgumentException} with the message a line's reader reports.
   */
  static final class Field {
    /** The JSON key. */
    final String name;

    /** The kind of value. */
    final Kind kind;

    /** The value of a record, as written; never null for a {@link #required} field. */
    final Function<RequestRecord, Object> get;

    /** Sets a value read; null for a field never read back (derived or part of a group). */
    final BiConsumer<RequestRecordBuilder, Object> set;

    /** The message when this required field is missing or null; null when it is optional. */
    final String missing;

    /** Whether a null value leaves the key out of the line (and the field has no CSV column). */
    final boolean omittedWhenNull;

    /** Whether this key is one of the conversation turn's ({@link ConversationTurn}). */
    final boolean turnPart;

    /** Its place in {@link #ALL}. */
    int index;

    /**
     * {@code ,"name":} (or <code>{"name":</code> for the first field), as written: a string, which
     * a {@link StringBuilder} copies without a conversion.
     */
    String prefix;

    /** {@link #prefix} then {@code null}. */
    String prefixNull;

    @SuppressWarnings("unchecked")
    private Field(
        String name,
        Kind kind,
        Function<RequestRecord, ?> get,
        BiConsumer<RequestRecordBuilder, ?> set,
        String missing,
        boolean omittedWhenNull,
        boolean turnPart) {
      this.name = name;
      this.kind = kind;
      this.get = (Function<RequestRecord, Object>) get;
      this.set = (BiConsumer<RequestRecordBuilder, Object>) set;
      this.missing = missing;
      this.omittedWhenNull = omittedWhenNull;
      this.turnPart = turnPart;
    }

    /** This field, required: missing or null, a line is refused with {@code message}. */
    Field required(String message) {
      return new Field(name, kind, get, set, message, omittedWhenNull, turnPart);
    }

    /** This field, left out of a line (and of the CSV) when null. */
    Field omittedWhenNull() {
      return new Field(name, kind, get, set, missing, true, turnPart);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** Every field, in the order of a line's keys. */
  static final List<Field> ALL =
      List.of(
          text("request", RequestRecord::request, RequestRecordBuilder::request)
              .required("request record needs \"request\" (the request name)"),
          text("phase", RequestRecord::phase, RequestRecordBuilder::phase),
          whole("index", RequestRecord::index, RequestRecordBuilder::index),
          text("prompt_id", RequestRecord::promptId, RequestRecordBuilder::promptId),
          text("digest", RequestRecord::digest, RequestRecordBuilder::digest),
          integer("prefix_group", RequestRecord::prefixGroup, RequestRecordBuilder::prefixGroup),
          integer(
              "shared_prefix_tokens",
              RequestRecord::sharedPrefixTokens,
              RequestRecordBuilder::sharedPrefixTokens),
          integer(
              "planned_tokens", RequestRecord::plannedTokens, RequestRecordBuilder::plannedTokens),
          whole("start_ms", RequestRecord::startMs, RequestRecordBuilder::startMs)
              .required("request record needs \"start_ms\" (epoch milliseconds), got "),
          integer("prompt_tokens", RequestRecord::promptTokens, RequestRecordBuilder::promptTokens),
          flag(
              "prompt_tokens_exact",
              RequestRecord::promptTokensExact,
              RequestRecordBuilder::promptTokensExact),
          integer("cached_tokens", RequestRecord::cachedTokens, RequestRecordBuilder::cachedTokens),
          integer(
              "completion_tokens",
              RequestRecord::completionTokens,
              RequestRecordBuilder::completionTokens),
          flag(
              "completion_tokens_exact",
              RequestRecord::completionTokensExact,
              RequestRecordBuilder::completionTokensExact),
          time("ttft_ms", RequestRecord::ttftMs, RequestRecordBuilder::ttftMs),
          time(
              "time_to_first_event_ms",
              RequestRecord::timeToFirstEventMs,
              RequestRecordBuilder::timeToFirstEventMs),
          new Field(
              "itl_ms",
              Kind.TIMES,
              RequestRecord::itlMs,
              (BiConsumer<RequestRecordBuilder, List<Double>>) RequestRecordBuilder::itlMs,
              null,
              false,
              false),
          time("tpot_ms", RequestRecord::tpotMs, RequestRecordBuilder::tpotMs),
          time("e2e_ms", RequestRecord::e2eMs, RequestRecordBuilder::e2eMs),
          time(
              "output_tokens_per_s",
              RequestRecord::outputTokensPerS,
              RequestRecordBuilder::outputTokensPerS),
          text("finish_reason", RequestRecord::finishReason, RequestRecordBuilder::finishReason),
          integer("http_status", RequestRecord::httpStatus, RequestRecordBuilder::httpStatus),
          text(
                  "status",
                  r -> r.status().wireName(),
                  (b, v) -> b.status(RequestStatus.fromWireName(v)))
              .required("request record needs \"status\""),
          text("error", RequestRecord::error, RequestRecordBuilder::error),
          text("workload", RequestRecord::workload, RequestRecordBuilder::workload),
          integer(
              "planned_cached_tokens",
              RequestRecord::plannedCachedTokens,
              RequestRecordBuilder::plannedCachedTokens),
          text(
              "cache_planned",
              r -> wireName(r.cachePlanned()),
              (b, v) -> b.cachePlanned(outcome("cache_planned", v))),
          text("cache", r -> wireName(r.cache()), (b, v) -> b.cache(outcome("cache", v))),
          new Field(
              "cache_warm_start",
              Kind.NULLABLE_FLAG,
              RequestRecord::cacheWarmStart,
              (BiConsumer<RequestRecordBuilder, Boolean>) RequestRecordBuilder::cacheWarmStart,
              null,
              false,
              false),
          turnPart(
              "conversation",
              Kind.LONG,
              r -> r.conversationTurn() == null ? null : r.conversationTurn().conversation()),
          turnPart(
              "turn",
              Kind.INT,
              r -> r.conversationTurn() == null ? null : r.conversationTurn().turn()),
          turnPart(
              "context_tokens",
              Kind.INT,
              r -> r.conversationTurn() == null ? null : r.conversationTurn().contextTokens()),
          turnPart(
              "reply_digest",
              Kind.TEXT,
              r -> r.conversationTurn() == null ? null : r.conversationTurn().replyDigest()),
          time("sent_ms", RequestRecord::sentMs, RequestRecordBuilder::sentMs),
          time("scheduled_ms", RequestRecord::scheduledMs, RequestRecordBuilder::scheduledMs),
          // derived from sent_ms and scheduled_ms: written, never read back
          time("schedule_lag_ms", RequestRecord::scheduleLagMs, null),
          time("ttfo_ms", RequestRecord::ttfoMs, RequestRecordBuilder::ttfoMs),
          integer(
              "reasoning_tokens",
              RequestRecord::reasoningTokens,
              RequestRecordBuilder::reasoningTokens),
          text(
              "reasoning_tokens_source",
              RequestRecord::reasoningTokensSource,
              RequestRecordBuilder::reasoningTokensSource),
          integer("answer_tokens", RequestRecord::answerTokens, RequestRecordBuilder::answerTokens),
          time(
              "reasoning_tpot_ms",
              RequestRecord::reasoningTpotMs,
              RequestRecordBuilder::reasoningTpotMs),
          time("answer_tpot_ms", RequestRecord::answerTpotMs, RequestRecordBuilder::answerTpotMs),
          integer(
              "answer_itl_from", RequestRecord::answerItlFrom, RequestRecordBuilder::answerItlFrom),
          time(
              "cancel_after_ms", RequestRecord::cancelAfterMs, RequestRecordBuilder::cancelAfterMs),
          whole("trace_row", RequestRecord::traceRow, RequestRecordBuilder::traceRow)
              .omittedWhenNull(),
          text("session_id", RequestRecord::sessionId, RequestRecordBuilder::sessionId)
              .omittedWhenNull(),
          integer("tool_calls", RequestRecord::toolCalls, RequestRecordBuilder::toolCalls)
              .omittedWhenNull(),
          integer("images", RequestRecord::images, RequestRecordBuilder::images).omittedWhenNull(),
          whole("image_bytes", RequestRecord::imageBytes, RequestRecordBuilder::imageBytes)
              .omittedWhenNull(),
          whole("request_bytes", RequestRecord::requestBytes, RequestRecordBuilder::requestBytes)
              .omittedWhenNull(),
          time("upload_ms", RequestRecord::uploadMs, RequestRecordBuilder::uploadMs)
              .omittedWhenNull());

  /** The fields by key. */
  private static final Map<String, Field> BY_NAME = new HashMap<>();

  static {
    for (int i = 0; i < ALL.size(); i++) {
      Field f = ALL.get(i);
      f.index = i;
      f.prefix = (i == 0 ? "{\"" : ",\"") + f.name + "\":";
      f.prefixNull = f.prefix + "null";
      if (BY_NAME.put(f.name, f) != null) {
        throw new IllegalStateException("two record fields named " + f.name);
      }
    }
  }

  /** The itl_ms field: written only when asked for. */
  static final Field ITL = named("itl_ms");

  /** The first key of a conversation turn's. */
  static final Field CONVERSATION = named("conversation");

  private RecordFields() {}

  /**
   * The field of a key.
   *
   * @param name a JSON key
   * @return its field, or null for a key no field has
   */
  static Field byName(String name) {
    return BY_NAME.get(name);
  }

  private static Field named(String name) {
    Field f = BY_NAME.get(name);
    if (f == null) {
      throw new IllegalStateException("no record field named " + name);
    }
    return f;
  }

  private static Field text(
      String name,
      Function<RequestRecord, String> get,
      BiConsumer<RequestRecordBuilder, String> set) {
    return new Field(name, Kind.TEXT, get, set, null, false, false);
  }

  private static Field integer(
      String name,
      Function<RequestRecord, Integer> get,
      BiConsumer<RequestRecordBuilder, Integer> set) {
    return new Field(name, Kind.INT, get, set, null, false, false);
  }

  private static Field whole(
      String name, Function<RequestRecord, Long> get, BiConsumer<RequestRecordBuilder, Long> set) {
    return new Field(name, Kind.LONG, get, set, null, false, false);
  }

  private static Field time(
      String name,
      Function<RequestRecord, Double> get,
      BiConsumer<RequestRecordBuilder, Double> set) {
    return new Field(name, Kind.TIME, get, set, null, false, false);
  }

  private static Field flag(
      String name,
      Function<RequestRecord, Boolean> get,
      BiConsumer<RequestRecordBuilder, Boolean> set) {
    return new Field(name, Kind.FLAG, get, set, null, false, false);
  }

  private static Field turnPart(String name, Kind kind, Function<RequestRecord, ?> get) {
    return new Field(name, kind, get, null, null, false, true);
  }

  private static String wireName(CacheOutcome outcome) {
    return outcome == null ? null : outcome.wireName();
  }

  private static CacheOutcome outcome(String key, String value) {
    try {
      return value == null ? null : CacheOutcome.fromWireName(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "request record field \"" + key + "\": " + e.getMessage(), e);
    }
  }
}
