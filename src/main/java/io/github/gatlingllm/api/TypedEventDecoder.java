package io.github.gatlingllm.api;

/**
 * The way a decoder of an API whose events are JSON objects named by their {@code type} (the
 * Responses and Messages APIs) reads one event: after the terminal event nothing more is read;
 * without kept text, an event the {@link DeltaScanner} recognises from its bytes is answered
 * without Jackson ({@link #fast()}); else the object is read into the decoder's fields ({@link
 * #read}) and the event decoded by its type ({@link #decodeTyped}). Data that is no JSON object, or
 * an object without a {@code type}, is read as {@link StreamEvent#parse(byte[], int, int, boolean)}
 * reads it (so {@code [DONE]} ends the stream as on chat).
 *
 * <p>One instance per request; not thread-safe.
 */
abstract class TypedEventDecoder extends EventParser.Decoder {

  /** The scanner of the event's bytes, for {@link #fast()}. */
  final DeltaScanner scanner = new DeltaScanner();

  /** Whether the API's terminal event (or {@code [DONE]}) has come. */
  boolean terminal;

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
    String type = type();
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
   * Reads the event's object into the decoder's fields.
   *
   * @return false if it is not one valid JSON object
   */
  abstract boolean read(byte[] data, int from, int to, boolean keepText);

  /**
   * The {@code type} of the event {@link #read} read.
   *
   * @return the type, or null when it has none
   */
  abstract String type();

  /**
   * Hands the listener the events of the event {@link #read} read, whose type is {@code type}.
   *
   * @param type the event's type, never null
   * @param out the listener
   */
  abstract void decodeTyped(String type, EventParser.Listener out);
}
