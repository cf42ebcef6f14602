package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The way a decoder of an API whose events are JSON objects named by their {@code type} (the
 * Responses and Messages APIs) reads one event: after the terminal event nothing more is read;
 * without kept text, an event the {@link DeltaScanner} recognises from its bytes is answered
 * without Jackson ({@link #fast()}); else the object is read with Jackson, its {@code type} and
 * {@code error} here, every other key into the decoder's fields ({@link #field}), and the event
 * decoded by its type ({@link #decodeTyped}). Data that is no JSON object, or an object without a
 * {@code type}, is read as {@link StreamEvent#parse(byte[], int, int, boolean)} reads it (so {@code
 * [DONE]} ends the stream as on chat).
 *
 * <p>One instance per request; not thread-safe.
 */
abstract class TypedEventDecoder extends EventParser.Decoder {

  /** The scanner of the event's bytes, for {@link #fast()}. */
  final DeltaScanner scanner = new DeltaScanner();

  /** Whether the API's terminal event (or {@code [DONE]}) has come. */
  boolean terminal;

  /** The {@code type} of the event read, or null when it has none. */
  private String type;

  /** The {@code error} of the event read (cleared for each event). */
  final ErrorFields error = new ErrorFields();

  /** The tool calls completed so far, or null before the first. */
  private List<Turn.ToolCall> calls;

  @Override
  final List<Turn.ToolCall> toolCalls() {
    return calls == null ? List.of() : List.copyOf(calls);
  }

  /** Keeps a tool call the reply completed, after those before it. */
  final void addToolCall(Turn.ToolCall call) {
    if (calls == null) {
      calls = new ArrayList<>(2);
    }
    calls.add(call);
  }

  @Override
  final boolean terminal() {
    return terminal;
  }

  @Override
  final void decode(byte[] data, int from, int to, boolean keepText, EventParser.Listener out) {
    if (terminal) {
      out.onEvent(Events.NOTHING);
      return;
    }
    if (!keepText && scanner.scan(data, from, to)) {
      StreamEvent fast = fast();
      if (fast != null) {
        out.onEvent(fast);
        return;
      }
    }
    int start = Events.objectStart(data, from, to);
    if (start < 0 || !read(data, start, to, keepText)) {
      StreamEvent event = StreamEvent.parse(data, from, to, keepText);
      terminal = event.kind() == StreamEvent.Kind.DONE;
      out.onEvent(event);
      return;
    }
    if (type == null) {
      out.onEvent(StreamEvent.parse(data, from, to, keepText));
      return;
    }
    decodeTyped(type, out);
  }

  /**
   * The event {@link #scanner} just scanned, when its bytes are enough.
   *
   * @return the event, or null when its type needs the Jackson path
   */
  abstract StreamEvent fast();

  /**
   * Reads the event's object: its {@code type} and {@code error} here, every other key with {@link
   * #field}, after {@link #clear()}.
   *
   * @return false if it is not one valid JSON object
   */
  private boolean read(byte[] data, int from, int to, boolean keepText) {
    type = null;
    error.clear();
    clear();
    try (JsonParser p = Json.FACTORY.createParser(data, from, to - from)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        switch (name) {
          case "type" -> type = t == JsonToken.VALUE_STRING ? p.getText() : Events.skip(p);
          case "error" -> error.read(p, t);
          default -> field(p, name, t, keepText);
        }
      }
      return p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Forgets the fields the last event read set (before each event read with Jackson). */
  abstract void clear();

  /**
   * Reads one top-level key of the event's object (not {@code type} nor {@code error}) into the
   * decoder's fields; a key it does not want is skipped.
   *
   * @param p the parser, on the key's value
   * @param name the key
   * @param t the value's token
   * @param keepText whether texts are wanted
   */
  abstract void field(JsonParser p, String name, JsonToken t, boolean keepText) throws IOException;

  /**
   * Hands the listener the events of the event just read, whose type is {@code type}.
   *
   * @param type the event's type, never null
   * @param out the listener
   */
  abstract void decodeTyped(String type, EventParser.Listener out);
}
