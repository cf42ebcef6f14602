package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.ItlList;
import io.github.gatlingllm.metrics.RequestRecord;
import java.util.List;

/**
 * Writes a {@link RequestRecord} as its line of {@code llm-requests.jsonl} straight into a {@link
 * StringBuilder}: the very text Jackson's generator writes through {@link RequestRecordJson#write}
 * (same keys in the same order, strings escaped as Jackson escapes them, whole numbers in decimal,
 * times as {@link Decimals#shortest}), without a generator, a writer or a string a number. Every
 * finished request of a run goes through here on its event loop, so this is on the client's fast
 * path; {@code RequestLineWriterTest} holds it to Jackson's output character for character.
 */
final class RequestLineWriter {

  /** Jackson's escapes of the ASCII characters: 0 none, -1 {@code \\u00XX}, else {@code \\c}. */
  private static final int[] ESCAPES = new int[128];

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /** Below this a time is written from its thousandths as a whole number (as Decimals does). */
  private static final double THOUSANDTHS_LIMIT = 1e9;

  static {
    for (int c = 0; c < 0x20; c++) {
      ESCAPES[c] = -1;
    }
    ESCAPES['"'] = '"';
    ESCAPES['\\'] = '\\';
    ESCAPES['\b'] = 'b';
    ESCAPES['\t'] = 't';
    ESCAPES['\f'] = 'f';
    ESCAPES['\n'] = 'n';
    ESCAPES['\r'] = 'r';
  }

  private RequestLineWriter() {}

  /**
   * Appends a record's JSON object (no line break) to {@code out}.
   *
   * @param out the text so far, never null
   * @param r the record, never null
   * @param includeItl whether to write {@code itl_ms}
   */
  static void append(StringBuilder out, RequestRecord r, boolean includeItl) {
    out.append("{\"request\":");
    string(out, r.request());
    out.append(",\"phase\":");
    string(out, r.phase());
    out.append(",\"index\":");
    whole(out, r.index());
    out.append(",\"prompt_id\":");
    string(out, r.promptId());
    out.append(",\"digest\":");
    string(out, r.digest());
    out.append(",\"prefix_group\":");
    whole(out, r.prefixGroup());
    out.append(",\"shared_prefix_tokens\":");
    whole(out, r.sharedPrefixTokens());
    out.append(",\"planned_tokens\":");
    whole(out, r.plannedTokens());
    out.append(",\"start_ms\":").append(r.startMs());
    out.append(",\"prompt_tokens\":");
    whole(out, r.promptTokens());
    out.append(",\"prompt_tokens_exact\":").append(r.promptTokensExact());
    out.append(",\"cached_tokens\":");
    whole(out, r.cachedTokens());
    out.append(",\"completion_tokens\":");
    whole(out, r.completionTokens());
    out.append(",\"completion_tokens_exact\":").append(r.completionTokensExact());
    out.append(",\"ttft_ms\":");
    time(out, r.ttftMs());
    out.append(",\"time_to_first_event_ms\":");
    time(out, r.timeToFirstEventMs());
    if (includeItl) {
      out.append(",\"itl_ms\":");
      List<Double> itl = r.itlMs();
      if (itl == null) {
        out.append("null");
      } else {
        out.append('[');
        if (itl instanceof ItlList values) {
          for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
              out.append(',');
            }
            time(out, values.at(i));
          }
        } else {
          boolean first = true;
          for (Double v : itl) {
            if (!first) {
              out.append(',');
            }
            first = false;
            time(out, v.doubleValue());
          }
        }
        out.append(']');
      }
    }
    out.append(",\"tpot_ms\":");
    time(out, r.tpotMs());
    out.append(",\"e2e_ms\":");
    time(out, r.e2eMs());
    out.append(",\"output_tokens_per_s\":");
    time(out, r.outputTokensPerS());
    out.append(",\"finish_reason\":");
    string(out, r.finishReason());
    out.append(",\"http_status\":");
    whole(out, r.httpStatus());
    out.append(",\"status\":");
    string(out, r.status().wireName());
    out.append(",\"error\":");
    string(out, r.error());
    out.append(",\"workload\":");
    string(out, r.workload());
    out.append(",\"planned_cached_tokens\":");
    whole(out, r.plannedCachedTokens());
    out.append(",\"cache_planned\":");
    string(out, r.cachePlanned() == null ? null : r.cachePlanned().wireName());
    out.append(",\"cache\":");
    string(out, r.cache() == null ? null : r.cache().wireName());
    out.append(",\"cache_warm_start\":");
    if (r.cacheWarmStart() == null) {
      out.append("null");
    } else {
      out.append(r.cacheWarmStart().booleanValue());
    }
    ConversationTurn turn = r.conversationTurn();
    out.append(",\"conversation\":");
    if (turn == null) {
      out.append("null,\"turn\":null,\"context_tokens\":null,\"reply_digest\":null");
    } else {
      out.append(turn.conversation());
      out.append(",\"turn\":").append(turn.turn());
      out.append(",\"context_tokens\":");
      whole(out, turn.contextTokens());
      out.append(",\"reply_digest\":");
      string(out, turn.replyDigest());
    }
    out.append(",\"sent_ms\":");
    time(out, r.sentMs());
    out.append(",\"scheduled_ms\":");
    time(out, r.scheduledMs());
    out.append(",\"schedule_lag_ms\":");
    time(out, r.scheduleLagMs());
    out.append(",\"ttfo_ms\":");
    time(out, r.ttfoMs());
    out.append(",\"reasoning_tokens\":");
    whole(out, r.reasoningTokens());
    out.append(",\"reasoning_tokens_source\":");
    string(out, r.reasoningTokensSource());
    out.append(",\"answer_tokens\":");
    whole(out, r.answerTokens());
    out.append(",\"reasoning_tpot_ms\":");
    time(out, r.reasoningTpotMs());
    out.append(",\"answer_tpot_ms\":");
    time(out, r.answerTpotMs());
    out.append(",\"answer_itl_from\":");
    whole(out, r.answerItlFrom());
    out.append(",\"cancel_after_ms\":");
    time(out, r.cancelAfterMs());
    if (r.traceRow() != null) {
      out.append(",\"trace_row\":").append(r.traceRow().longValue());
    }
    out.append('}');
  }

  private static void whole(StringBuilder out, Integer value) {
    if (value == null) {
      out.append("null");
    } else {
      out.append(value.intValue());
    }
  }

  private static void whole(StringBuilder out, Long value) {
    if (value == null) {
      out.append("null");
    } else {
      out.append(value.longValue());
    }
  }

  private static void time(StringBuilder out, Double value) {
    if (value == null) {
      out.append("null");
    } else {
      time(out, value.doubleValue());
    }
  }

  /**
   * A number as {@link Decimals#shortest} writes it: a whole number of thousandths from its digits
   * ({@code 2.517}, {@code 0.25}, {@code 34}), anything else through {@link Decimals}.
   */
  static void time(StringBuilder out, double value) {
    if (Math.abs(value) < THOUSANDTHS_LIMIT) {
      long thousandths = Math.round(value * 1000);
      if (thousandths / 1000.0 == value) {
        if (thousandths < 0) {
          out.append('-');
          thousandths = -thousandths;
        }
        out.append(thousandths / 1000);
        int fraction = (int) (thousandths % 1000);
        if (fraction != 0) {
          out.append('.').append((char) ('0' + fraction / 100));
          if (fraction % 100 != 0) {
            out.append((char) ('0' + fraction / 10 % 10));
            if (fraction % 10 != 0) {
              out.append((char) ('0' + fraction % 10));
            }
          }
        }
        return;
      }
    }
    out.append(Decimals.shortest(value));
  }

  /** A JSON string as Jackson writes it, or {@code null}. */
  private static void string(StringBuilder out, String value) {
    if (value == null) {
      out.append("null");
      return;
    }
    out.append('"');
    int n = value.length();
    int from = 0;
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 128 && ESCAPES[c] != 0) {
        out.append(value, from, i);
        int escape = ESCAPES[c];
        out.append('\\');
        if (escape < 0) {
          out.append("u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
        } else {
          out.append((char) escape);
        }
        from = i + 1;
      }
    }
    out.append(value, from, n);
    out.append('"');
  }
}
