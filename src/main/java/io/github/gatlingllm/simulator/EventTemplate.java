package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of an SSE event {@code data: {json}\n\n} whose JSON changes from event to event in one
 * string value only (a chunk's text). Jackson writes the JSON once, with a marker in that value;
 * each event is then the bytes before the marker, the value as Jackson's string encoder escapes it,
 * and the bytes after. Same bytes as serializing the whole tree each time, at a fraction of the
 * cost: at zero delay, building and writing a tree per chunk dominated the server's CPU time.
 * Immutable and thread-safe.
 */
final class EventTemplate {

  /** Stands for the value while the template is written; never a real chunk text. */
  static final String SLOT = "\u0000gatling-llm-simulator-slot\u0000";

  private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);
  private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();

  private final byte[] head;
  private final byte[] tail;

  private EventTemplate(byte[] head, byte[] tail) {
    this.head = head;
    this.tail = tail;
  }

  /**
   * A template from an event holding {@link #SLOT} as exactly one string value.
   *
   * @throws IllegalArgumentException if the slot is not in the JSON exactly once
   */
  static EventTemplate of(ObjectNode event) {
    return of(null, event);
  }

  /**
   * A template of a named event ({@code event: name} before its data), or unnamed when {@code name}
   * is null.
   *
   * @throws IllegalArgumentException if the slot is not in the JSON exactly once
   */
  static EventTemplate of(String name, ObjectNode event) {
    byte[] data =
        name == null ? DATA : ("event: " + name + "\ndata: ").getBytes(StandardCharsets.US_ASCII);
    byte[] json = Responses.bytes(event);
    byte[] slot = ENCODER.quoteAsUTF8(SLOT);
    int at = indexOf(json, slot, 0);
    if (at < 0 || indexOf(json, slot, at + 1) >= 0) {
      throw new IllegalArgumentException("the event must hold the slot exactly once: " + event);
    }
    byte[] head = new byte[data.length + at];
    System.arraycopy(data, 0, head, 0, data.length);
    System.arraycopy(json, 0, head, data.length, at);
    int rest = json.length - at - slot.length;
    byte[] tail = new byte[rest + EVENT_END.length];
    System.arraycopy(json, at + slot.length, tail, 0, rest);
    System.arraycopy(EVENT_END, 0, tail, rest, EVENT_END.length);
    return new EventTemplate(head, tail);
  }

  /** The event with {@code value} in the slot. */
  ByteBuf render(ByteBufAllocator alloc, String value) {
    byte[] escaped = ENCODER.quoteAsUTF8(value);
    ByteBuf buf = alloc.buffer(head.length + escaped.length + tail.length);
    return buf.writeBytes(head).writeBytes(escaped).writeBytes(tail);
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
