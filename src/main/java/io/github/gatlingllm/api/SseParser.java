package io.github.gatlingllm.api;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An incremental parser of a {@code text/event-stream} body over bytes: feed it the body's chunks
 * as they arrive, and it hands each complete event's {@code data} to a {@link Listener}, as bytes.
 *
 * <p>The rules are those of the WHATWG HTML Living Standard, section 9.2 "Server-sent events",
 * 9.2.5 "Parsing an event stream" and 9.2.6 "Interpreting an event stream"
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html):
 *
 * <ul>
 *   <li>one UTF-8 byte order mark (EF BB BF) at the very start of the stream is skipped;
 *   <li>lines end in CRLF, LF or CR, mixed freely;
 *   <li>a line starting with {@code :} is a comment and is ignored;
 *   <li>a line with a colon is a field: its name is what comes before the first colon, its value
 *       what comes after it, less one leading space if there is one (only one); a line without a
 *       colon is a field named by the whole line, with an empty value;
 *   <li>each {@code data} field (the name is case-sensitive) appends its value to the event's data,
 *       joined to the previous one by one LF; other fields ({@code event}, {@code id}, {@code
 *       retry}, unknown names) are ignored here;
 *   <li>a blank line dispatches the event if it had at least one {@code data} field ({@code data:}
 *       with nothing after it dispatches empty data); an event with no {@code data} field, and a
 *       blank line with nothing before it, dispatch nothing;
 *   <li>at the end of the stream an incomplete event (no blank line after it) is discarded ({@link
 *       #end()}); {@link #hasPartialEvent()} tells whether there was one.
 * </ul>
 *
 * <p>The bytes are never decoded: only the ASCII bytes CR, LF, colon and space have a meaning, and
 * none of them occurs inside a multi-byte UTF-8 sequence, so a chunk may end anywhere (in a field
 * name, between CR and LF, inside a UTF-8 character) and the data reach the listener as the server
 * sent them. Decoding (and the handling of invalid UTF-8) is left to the reader of the data, such
 * as {@link StreamEvent#parse(byte[], int, int)}.
 *
 * <p>Comment and ignored lines are skipped without being held, however long. The data of the
 * current event is held in one internal array that grows as needed (doubling) up to a limit, {@link
 * #DEFAULT_MAX_DATA_BYTES} unless set, and is reused from event to event: in steady state a chunk
 * costs no allocation.
 *
 * <p>One instance per stream; not thread-safe (the calls must be serial, possibly from different
 * threads with a happens-before between them, as Netty's event loop gives).
 */
public final class SseParser {

  /** The default limit of the data of one event, in bytes: 16 MiB. */
  public static final int DEFAULT_MAX_DATA_BYTES = 16 * 1024 * 1024;

  /** Receives the data of each dispatched event. */
  @FunctionalInterface
  public interface Listener {

    /**
     * Called once per dispatched event, on the thread that called {@link SseParser#feed(byte[],
     * int, int)}, with the event's {@code data}: its {@code data} fields' values joined by LF,
     * without a trailing LF, as raw bytes (UTF-8 when the server is conforming, not checked).
     *
     * <p>The range is only valid during the call: the array may be the parser's internal buffer or
     * the caller's chunk, and is overwritten afterwards. Read or copy it, never modify it nor keep
     * it. An exception thrown here propagates out of {@link SseParser#feed(byte[], int, int)}; the
     * rest of that chunk is then not parsed, and the parser must not be fed again.
     *
     * @param buffer the array holding the data, never null
     * @param from the index of the first byte of the data, inclusive
     * @param to the index after the last byte of the data, exclusive; {@code from == to} for empty
     *     data (such as {@code data:} alone)
     */
    void onData(byte[] buffer, int from, int to);
  }

  private static final byte[] NO_BYTES = new byte[0];
  private static final byte[] DATA = {'d', 'a', 't', 'a'};
  private static final byte[] LF = {'\n'};
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
  private static final int FIRST_CAPACITY = 256;
  private static final int SCRATCH_BYTES = 8192;

  /** At the start of a line, nothing of it read yet. */
  private static final int LINE_START = 0;

  /** In a field name that so far is a prefix of "data" ({@link #nameLength} bytes of it). */
  private static final int NAME = 1;

  /** Just after "data:": one space is to be skipped if it comes. */
  private static final int DATA_SPACE = 2;

  /** In the value of a data field: bytes go to the data buffer. */
  private static final int DATA_VALUE = 3;

  /** In a comment or a field other than data: bytes are skipped up to the line end. */
  private static final int IGNORE = 4;

  private final Listener listener;
  private final int maxDataBytes;
  private byte[] data = NO_BYTES;
  private int dataLength;
  private int dataFields;
  private int state = LINE_START;
  private int nameLength;
  private boolean afterCr;
  private int bomBytes;
  private boolean ended;
  private boolean partialAtEnd;
  private long events;
  private byte[] scratch;

  /**
   * A parser with the default limit of {@link #DEFAULT_MAX_DATA_BYTES} bytes of data per event.
   *
   * @param listener receives each event's data; not null
   * @throws NullPointerException if {@code listener} is null
   */
  public SseParser(Listener listener) {
    this(listener, DEFAULT_MAX_DATA_BYTES);
  }

  /**
   * A parser with the given limit of data per event.
   *
   * @param listener receives each event's data; not null
   * @param maxDataBytes the most bytes of data one event may hold (its {@code data} values and the
   *     LFs joining them) before it is dispatched, at least 1
   * @throws NullPointerException if {@code listener} is null
   * @throws IllegalArgumentException if {@code maxDataBytes} is less than 1
   */
  public SseParser(Listener listener, int maxDataBytes) {
    this.listener = Objects.requireNonNull(listener, "listener");
    if (maxDataBytes < 1) {
      throw new IllegalArgumentException("maxDataBytes must be >= 1, got " + maxDataBytes);
    }
    this.maxDataBytes = maxDataBytes;
  }

  /**
   * Parses the next chunk of the body, dispatching every event it completes. Bytes of an event
   * still incomplete at the end of the chunk are kept for the next call; {@code src} is not kept
   * nor modified.
   *
   * @param src the array holding the chunk; not null
   * @param offset the index of the chunk's first byte in {@code src}
   * @param length the chunk's size in bytes, 0 or more
   * @throws NullPointerException if {@code src} is null
   * @throws IndexOutOfBoundsException if the range is not within {@code src}
   * @throws IllegalStateException if {@link #end()} was called, or if the current event's data
   *     would exceed the limit (16 MiB by default): the stream is then broken and the parser must
   *     not be fed again
   */
  public void feed(byte[] src, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, src.length);
    if (ended) {
      throw new IllegalStateException("feed after end(): the stream has ended");
    }
    int i = offset;
    int end = offset + length;
    if (bomBytes >= 0) {
      i = skipBom(src, i, end);
    }
    while (i < end) {
      switch (state) {
        case LINE_START -> {
          byte b = src[i++];
          if (afterCr) {
            afterCr = false;
            if (b == '\n') {
              continue; // the LF of a CRLF
            }
          }
          if (b == '\n' || b == '\r') {
            afterCr = b == '\r';
            dispatch();
          } else if (b == 'd') {
            state = NAME;
            nameLength = 1;
          } else {
            state = IGNORE; // a comment (':') or a field whose name is not "data"
          }
        }
        case NAME -> {
          byte b = src[i++];
          if (b == '\n' || b == '\r') {
            afterCr = b == '\r';
            if (nameLength == DATA.length) {
              startDataField(); // "data" without a colon: an empty value
            }
            state = LINE_START;
          } else if (nameLength == DATA.length) {
            if (b == ':') {
              startDataField();
              state = DATA_SPACE;
            } else {
              state = IGNORE;
            }
          } else if (b == DATA[nameLength]) {
            nameLength++;
          } else {
            state = IGNORE;
          }
        }
        case DATA_SPACE -> {
          if (src[i] == ' ') {
            i++;
          }
          state = DATA_VALUE;
        }
        case DATA_VALUE -> {
          int lineEnd = lineEnd(src, i, end);
          append(src, i, lineEnd - i);
          i = endLine(src, lineEnd, end);
        }
        default -> i = endLine(src, lineEnd(src, i, end), end);
      }
    }
  }

  /**
   * Parses the next chunk of the body from a buffer: its remaining bytes, from its position to its
   * limit. On return the position is at the limit. Heap buffers are read in place; direct and
   * read-only buffers (such as Netty's {@code ByteBuf.nioBuffer()}) are copied through an internal
   * array of at most 8 KiB, reused.
   *
   * @param src the chunk; not null
   * @throws NullPointerException if {@code src} is null
   * @throws IllegalStateException as {@link #feed(byte[], int, int)}
   */
  public void feed(ByteBuffer src) {
    int n = src.remaining();
    if (src.hasArray()) {
      int position = src.position();
      feed(src.array(), src.arrayOffset() + position, n);
      src.position(position + n);
      return;
    }
    if (ended) {
      throw new IllegalStateException("feed after end(): the stream has ended");
    }
    if (n > 0 && (scratch == null || scratch.length < Math.min(n, SCRATCH_BYTES))) {
      scratch = new byte[Math.min(Math.max(n, FIRST_CAPACITY), SCRATCH_BYTES)];
    }
    while (src.hasRemaining()) {
      int k = Math.min(scratch.length, src.remaining());
      src.get(scratch, 0, k);
      feed(scratch, 0, k);
    }
  }

  /**
   * Ends the stream: an incomplete event (no blank line after it) is discarded, not dispatched, as
   * the standard says. Call {@link #hasPartialEvent()} to know whether there was one. Calling it
   * again does nothing.
   */
  public void end() {
    if (ended) {
      return;
    }
    partialAtEnd = hasPartialEvent();
    ended = true;
    dataLength = 0;
    dataFields = 0;
    state = LINE_START;
  }

  /**
   * Whether the bytes fed so far stop in the middle of an event: a {@code data} field has been read
   * for an event that no blank line has dispatched yet, or the last line has no line end. A stream
   * whose last event is complete, or whose tail is only complete non-{@code data} lines (which
   * could never be dispatched), has none. After {@link #end()}, tells whether {@code end()}
   * discarded such an event.
   *
   * @return true if an event or a line is incomplete
   */
  public boolean hasPartialEvent() {
    if (ended) {
      return partialAtEnd;
    }
    return dataFields > 0 || state != LINE_START || bomBytes > 0;
  }

  /**
   * The number of events dispatched to the listener so far.
   *
   * @return a count, 0 or more
   */
  public long events() {
    return events;
  }

  /**
   * Skips the byte order mark at the stream's start, possibly split across chunks. Sets {@link
   * #bomBytes} to -1 once decided.
   */
  private int skipBom(byte[] src, int i, int end) {
    while (i < end && bomBytes < BOM.length && src[i] == BOM[bomBytes]) {
      bomBytes++;
      i++;
    }
    if (bomBytes == BOM.length) {
      bomBytes = -1;
    } else if (i < end) {
      if (bomBytes > 0) {
        // A cut-short BOM decodes to U+FFFD: the line's field name is not "data".
        state = IGNORE;
      }
      bomBytes = -1;
    }
    return i;
  }

  /** The index of the first CR or LF in src[from, end), or end. */
  private static int lineEnd(byte[] src, int from, int end) {
    int i = from;
    while (i < end) {
      byte b = src[i];
      if (b == '\n' || b == '\r') {
        return i;
      }
      i++;
    }
    return end;
  }

  /** Ends the line at lineEnd if it is a line end (not the chunk's end); the index to go on at. */
  private int endLine(byte[] src, int lineEnd, int end) {
    if (lineEnd == end) {
      return end;
    }
    afterCr = src[lineEnd] == '\r';
    state = LINE_START;
    return lineEnd + 1;
  }

  private void startDataField() {
    if (dataFields > 0) {
      append(LF, 0, 1);
    }
    dataFields++;
  }

  private void append(byte[] src, int from, int length) {
    if (length == 0) {
      return;
    }
    int needed = dataLength + length;
    if (needed > data.length || needed < 0) {
      grow((long) dataLength + length);
    }
    System.arraycopy(src, from, data, dataLength, length);
    dataLength += length;
  }

  private void grow(long needed) {
    if (needed > maxDataBytes) {
      throw new IllegalStateException(
          "SSE event data over the limit of "
              + maxDataBytes
              + " bytes: "
              + needed
              + " bytes so far and no blank line to end the event");
    }
    long capacity = Math.max(FIRST_CAPACITY, (long) data.length * 2);
    byte[] bigger = new byte[(int) Math.min(Math.max(capacity, needed), maxDataBytes)];
    System.arraycopy(data, 0, bigger, 0, dataLength);
    data = bigger;
  }

  private void dispatch() {
    if (dataFields == 0) {
      return;
    }
    int length = dataLength;
    dataLength = 0;
    dataFields = 0;
    events++;
    listener.onData(data, 0, length);
  }
}
