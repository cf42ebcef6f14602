package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.ItlList;
import io.github.gatlingllm.metrics.RequestRecord;
import java.util.List;

/**
 * The one writer of {@code llm-requests.jsonl}: a {@link RequestRecord} as its line, straight into
 * a {@link StringBuilder}, field by field from {@link RecordFields#ALL} (keys in that order,
 * strings escaped as Jackson escapes them, whole numbers in decimal, times as {@link
 * Decimals#shortest}), without a generator, a writer or a string a number. It is the project's one
 * exception to "JSON with Jackson only": every finished request of a run goes through here on its
 * event loop, on the client's fast path, and {@code RequestLineWriterTest} holds it to the text
 * Jackson's generator writes (a test oracle) character for character.
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
   * Appends a record's JSON object (no line break) to {@code out}: each field of {@link
   * RecordFields#ALL} in its order.
   *
   * @param out the text so far, never null
   * @param r the record, never null
   * @param includeItl whether to write {@code itl_ms}
   */
  static void append(StringBuilder out, RequestRecord r, boolean includeItl) {
    for (RecordFields.Field f : RecordFields.ALL) {
      if (f == RecordFields.ITL && !includeItl) {
        continue;
      }
      Object v = f.get.apply(r);
      if (v == null) {
        if (!f.omittedWhenNull) {
          out.append(f.prefixNull);
        }
        continue;
      }
      out.append(f.prefix);
      switch (f.kind) {
        case TEXT -> string(out, (String) v);
        case INT -> out.append(((Integer) v).intValue());
        case LONG -> out.append(((Long) v).longValue());
        case TIME -> time(out, ((Double) v).doubleValue());
        case FLAG, NULLABLE_FLAG -> out.append(((Boolean) v).booleanValue());
        case TIMES -> times(out, (List<?>) v);
      }
    }
    out.append('}');
  }

  private static void times(StringBuilder out, List<?> itl) {
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
      for (Object v : itl) {
        if (!first) {
          out.append(',');
        }
        first = false;
        time(out, ((Double) v).doubleValue());
      }
    }
    out.append(']');
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
