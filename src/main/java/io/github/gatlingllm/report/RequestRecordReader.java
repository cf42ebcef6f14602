package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.ItlList;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestRecordBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The one reader of {@code llm-requests.jsonl}: one pass of Jackson's streaming parser over a line,
 * each key's value kept in the slot of its field of {@link RecordFields#ALL}, then set on a {@link
 * RequestRecordBuilder} in that order. No tree of nodes is built (the end of a run reads every line
 * back; a tree a line cost most of its time).
 *
 * <p>A line reads as a tree of Jackson's nodes would: unknown keys of any shape are skipped, the
 * last of duplicate keys wins, a missing or null flag is false, a whole number is a valid time, and
 * nothing after the object is read. A line it refuses (not JSON, not an object, a required key
 * missing, a value of another kind, a value the record refuses) gets an {@link
 * IllegalArgumentException} whose message names the key and shows the value (at most 60
 * characters), as {@code RequestRecordReaderTest} checks against a tree-reading oracle. Where a
 * line has several faults, the first in the order of the keys (the required {@code request}, {@code
 * start_ms} and {@code status} first) is the one reported. Not thread-safe: a reader per thread.
 */
final class RequestRecordReader {

  /** A value of another kind than its field's: kept until the line is built. */
  private static final class Wrong {
    /** The value as JSON (a node's text), or null when it is read again from the line's text. */
    final String shown;

    Wrong(String shown) {
      this.shown = shown;
    }
  }

  // Jackson's fast double parser rounds as Double.parseDouble does (correctly), in less time.
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build();

  /** Shows a refused value as a node's text; used only on a refused line. */
  private static final ObjectMapper SHOW = new ObjectMapper();

  private static final List<RecordFields.Field> REQUIRED =
      RecordFields.ALL.stream().filter(f -> f.missing != null).toList();

  private final JsonFactory factory;

  /** The line's values by field; each key's last value wins. */
  private final Object[] values = new Object[RecordFields.ALL.size()];

  /** The line's text while reading from text (to show a refused array), else null. */
  private String source;

  private double[] itl = new double[64];

  RequestRecordReader(JsonFactory factory) {
    this.factory = factory;
  }

  /**
   * A reader with Jackson's fast double parser.
   *
   * @return a new reader, for one thread
   */
  static RequestRecordReader create() {
    return new RequestRecordReader(FACTORY);
  }

  /**
   * One line, with a new reader.
   *
   * @param json the line
   * @return the record
   * @throws IllegalArgumentException as {@link #read(String)}
   */
  static RequestRecord parse(String json) {
    return create().read(json);
  }

  /**
   * Reads one line.
   *
   * @param json the line: one JSON object
   * @return the record
   * @throws IllegalArgumentException if the text is not a JSON object, {@code request}, {@code
   *     start_ms} or {@code status} is missing, a value has the wrong type, or the record refuses a
   *     value; the message names the key
   */
  RequestRecord read(String json) {
    source = json;
    try (JsonParser p = factory.createParser(json)) {
      return read(p);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "request record is not valid JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("reading a request record in memory failed", e);
    } finally {
      source = null;
    }
  }

  /**
   * Reads one line of UTF-8 bytes; a line it refuses is read again from its text, so that the
   * message is the one {@link #read(String)} gives.
   *
   * @param bytes holds the line
   * @param offset where it starts
   * @param length its length in bytes, without the line break
   * @return the record
   * @throws IllegalArgumentException as {@link #read(String)}
   */
  RequestRecord read(byte[] bytes, int offset, int length) {
    try (JsonParser p = factory.createParser(bytes, offset, length)) {
      return read(p);
    } catch (IOException | RuntimeException e) {
      return read(new String(bytes, offset, length, StandardCharsets.UTF_8));
    }
  }

  private RequestRecord read(JsonParser p) throws IOException {
    Arrays.fill(values, null);
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_OBJECT) {
      if (t != null) {
        // the rest of the value, as a tree reads it: broken JSON is reported as such
        p.skipChildren();
        p.finishToken();
      }
      throw new IllegalArgumentException("request record must be a JSON object");
    }
    String key;
    while ((key = p.nextFieldName()) != null) {
      JsonToken v = p.nextToken();
      RecordFields.Field f = RecordFields.byName(key);
      if (f == null || (f.set == null && !f.turnPart)) {
        p.skipChildren();
        p.finishToken();
      } else {
        values[f.index] = value(p, v, f.kind);
      }
    }
    return build();
  }

  private Object value(JsonParser p, JsonToken t, RecordFields.Kind kind) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    switch (kind) {
      case TEXT:
        if (t == JsonToken.VALUE_STRING) {
          return p.getText();
        }
        break;
      case INT:
        if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
          return p.getIntValue();
        }
        break;
      case LONG:
        if (t == JsonToken.VALUE_NUMBER_INT
            && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
          return p.getLongValue();
        }
        break;
      case TIME:
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
          return number(p, t);
        }
        break;
      case FLAG:
      case NULLABLE_FLAG:
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
          return t == JsonToken.VALUE_TRUE;
        }
        break;
      case TIMES:
        if (t == JsonToken.START_ARRAY) {
          return times(p);
        }
        break;
    }
    return new Wrong(SHOW.readTree(p).toString());
  }

  /**
   * A number as a tree's node gives it: {@link
   * com.fasterxml.jackson.databind.JsonNode#doubleValue}.
   */
  private static double number(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
      return (double) p.getLongValue();
    }
    return p.getDoubleValue();
  }

  /** The array at the parser: its numbers, or {@link Wrong} showing the whole array. */
  private Object times(JsonParser p) throws IOException {
    // where the array starts in the text, to show it if refused (text only: bytes are read again)
    long start = source == null ? -1 : p.currentTokenLocation().getCharOffset();
    int n = 0;
    JsonToken e;
    while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
      if (e != JsonToken.VALUE_NUMBER_INT && e != JsonToken.VALUE_NUMBER_FLOAT) {
        do {
          p.skipChildren();
          p.finishToken();
        } while (p.nextToken() != JsonToken.END_ARRAY);
        long end = source == null ? -1 : p.currentTokenLocation().getCharOffset() + 1;
        String shown = null;
        if (source != null && start >= 0 && end > start && end <= source.length()) {
          shown = SHOW.readTree(source.substring((int) start, (int) end)).toString();
        }
        return new Wrong(shown);
      }
      if (n == itl.length) {
        itl = Arrays.copyOf(itl, n * 2);
      }
      itl[n++] = number(p, e);
    }
    return ItlList.of(itl, n);
  }

  private RequestRecord build() {
    // the required keys first, as they are what makes a line a record
    for (RecordFields.Field f : REQUIRED) {
      Object v = values[f.index];
      // a message that ends in "got " shows the value found, whatever is wrong with it
      boolean showsValue = f.missing.endsWith("got ");
      if (v == null) {
        throw new IllegalArgumentException(showsValue ? f.missing + "null" : f.missing);
      }
      if (v instanceof Wrong w && showsValue) {
        throw new IllegalArgumentException(f.missing + w.shown);
      }
      valueOf(f);
    }
    RequestRecordBuilder b = RequestRecord.builder();
    for (RecordFields.Field f : RecordFields.ALL) {
      if (f.turnPart) {
        if (f == RecordFields.CONVERSATION) {
          b.conversationTurn(conversationTurn());
        }
        continue;
      }
      if (f.set == null) {
        continue;
      }
      Object v = valueOf(f);
      if (v != null) {
        f.set.accept(b, v);
      }
    }
    return b.build();
  }

  /** The value read for a field: null when missing; throws for a value of another kind. */
  private Object valueOf(RecordFields.Field f) {
    Object v = values[f.index];
    if (v instanceof Wrong w) {
      throw new IllegalArgumentException(
          "request record field \""
              + f.name
              + "\" must be "
              + f.kind.expected
              + ", got "
              + shown(w));
    }
    return v;
  }

  private Object valueOf(String name) {
    return valueOf(RecordFields.byName(name));
  }

  /** The conversation turn of its four keys, checked in the order a tree's reader checks them. */
  private ConversationTurn conversationTurn() {
    Long conversation = (Long) valueOf("conversation");
    Integer turn = (Integer) valueOf("turn");
    if (conversation == null && turn == null) {
      return null;
    }
    if (conversation == null || turn == null) {
      throw new IllegalArgumentException(
          "request record: \"conversation\" and \"turn\" go together, got conversation "
              + conversation
              + " and turn "
              + turn);
    }
    try {
      return new ConversationTurn(
          conversation,
          turn,
          (Integer) valueOf("context_tokens"),
          (String) valueOf("reply_digest"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("request record: " + e.getMessage(), e);
    }
  }

  /** A refused value as shown in a message: at most 60 characters. */
  private String shown(Wrong w) {
    String shown = w.shown;
    if (shown == null) {
      throw new IllegalStateException("a refused array is shown only when read from text");
    }
    return shown.length() > 60 ? shown.substring(0, 57) + "..." : shown;
  }
}
