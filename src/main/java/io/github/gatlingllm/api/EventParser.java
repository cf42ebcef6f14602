package io.github.gatlingllm.api;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * The incremental parser of one streamed response: frames the {@code text/event-stream} body into
 * events ({@link SseParser}: comments, {@code event:} lines, CR/LF/CRLF, events split anywhere
 * across chunks) and hands each event's {@code data} to its API's decoder, which reduces it to
 * {@link StreamEvent}s for the listener (the same events for every API: see {@link Dialect}).
 *
 * <p>One instance per request; not thread-safe. Made by {@link Dialect#parser}.
 */
public final class EventParser implements SseParser.Listener {

  /** Receives a stream's events, in order, on the thread that feeds the parser. */
  public interface Listener {
    /**
     * Whether the next event's text should be kept ({@link StreamEvent#content()}, {@link
     * StreamEvent#reasoning()}): asked before each event is decoded.
     *
     * @return true to keep the text
     */
    boolean wantsText();

    /**
     * One event.
     *
     * @param event the event, never null
     */
    void onEvent(StreamEvent event);
  }

  /** An API's reader of one event's data. */
  abstract static class Decoder {

    /**
     * Reads one event's data (UTF-8) and hands the listener 0 or more events.
     *
     * @param data the array holding it; read, not kept
     * @param from its first byte
     * @param to the index after its last byte
     * @param keepText whether to keep text
     * @param out the listener
     */
    abstract void decode(byte[] data, int from, int to, boolean keepText, Listener out);

    /** Whether the API's terminal event has come. */
    abstract boolean terminal();

    /** The response's id, when the API streams one that a later request can name. */
    String responseId() {
      return null;
    }

    /** The tool calls the reply completed, in order. */
    List<Turn.ToolCall> toolCalls() {
      return List.of();
    }
  }

  private final SseParser sse;
  private final Decoder decoder;
  private final Listener listener;

  EventParser(Decoder decoder, Listener listener) {
    this.decoder = Objects.requireNonNull(decoder, "decoder");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.sse = new SseParser(this);
  }

  /**
   * Parses the next chunk of the body, handing the listener every event it completes.
   *
   * @param src the array holding the chunk; not null, not kept nor modified
   * @param offset the index of the chunk's first byte
   * @param length the chunk's size in bytes, 0 or more
   * @throws NullPointerException if {@code src} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code src}
   * @throws IllegalStateException as {@link SseParser#feed(byte[], int, int)}
   */
  public void feed(byte[] src, int offset, int length) {
    sse.feed(src, offset, length);
  }

  /**
   * Parses the next chunk of the body from a buffer's remaining bytes; see {@link
   * SseParser#feed(ByteBuffer)}.
   *
   * @param src the chunk; not null
   * @throws IllegalStateException as {@link SseParser#feed(ByteBuffer)}
   */
  public void feed(ByteBuffer src) {
    sse.feed(src);
  }

  /** Ends the stream: an incomplete last event is discarded ({@link SseParser#end()}). */
  public void end() {
    sse.end();
  }

  /**
   * Whether the bytes so far stop inside an event ({@link SseParser#hasPartialEvent()}).
   *
   * @return true if an event or a line is incomplete
   */
  public boolean hasPartialEvent() {
    return sse.hasPartialEvent();
  }

  /**
   * The number of SSE events read so far.
   *
   * @return a count, 0 or more
   */
  public long events() {
    return sse.events();
  }

  /**
   * Whether the API's terminal event ({@link Dialect#terminalEvent()}) has come: {@code [DONE]},
   * {@code response.completed} or {@code response.incomplete}, {@code message_stop}. A stream that
   * ends without it was cut short.
   *
   * @return true once it has come
   */
  public boolean sawTerminal() {
    return decoder.terminal();
  }

  /**
   * The id of the response, for a later request to name ({@code previous_response_id}).
   *
   * @return the Responses API's {@code response.id} (from {@code response.created}), else null
   */
  public String responseId() {
    return decoder.responseId();
  }

  /**
   * The tool calls the reply has completed so far, for the next turn's history: a Responses {@code
   * function_call} item at its {@code response.output_item.done}, a Messages {@code tool_use} block
   * at its {@code content_block_stop} (its {@code input_json_delta}s joined). Chat completions'
   * {@code tool_calls} are counted ({@link StreamEvent#toolCallDeltas()}) but not assembled here.
   *
   * @return the calls in order, unmodifiable, never null
   */
  public List<Turn.ToolCall> toolCalls() {
    return decoder.toolCalls();
  }

  @Override
  public void onData(byte[] buffer, int from, int to) {
    decoder.decode(buffer, from, to, listener.wantsText(), listener);
  }
}
