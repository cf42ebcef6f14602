package io.github.gatlingllm.api;

import io.github.gatlingllm.metrics.AnswerTimings;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.RequestTimings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Replays the stream fixtures of {@code src/test/resources/streams/} through a dialect's parser.
 */
final class StreamFixtures {

  static final long MS = 1_000_000L;

  private StreamFixtures() {}

  /** A replayed stream: what the timer made of it, the events and the parser. */
  record Replay(
      RequestTimings timings, AnswerTimings answer, List<StreamEvent> events, EventParser parser) {}

  /** The fixture's bytes. */
  static byte[] bytes(String fixture) {
    try {
      return Files.readAllBytes(Path.of("src/test/resources/streams", fixture));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The fixture cut into its SSE blocks (each ends with its blank line): the k-th block arrives at
   * {@code (k + 1)} ms after the request's start at 0.
   */
  static List<byte[]> blocks(byte[] all) {
    List<byte[]> blocks = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < all.length; i++) {
      int end = -1;
      if (i + 1 < all.length && all[i] == '\n' && all[i + 1] == '\n') {
        end = i + 2;
      } else if (i + 3 < all.length
          && all[i] == '\r'
          && all[i + 1] == '\n'
          && all[i + 2] == '\r'
          && all[i + 3] == '\n') {
        end = i + 4;
      }
      if (end > 0) {
        blocks.add(Arrays.copyOfRange(all, from, end));
        from = end;
        i = end - 1;
      }
    }
    if (from < all.length) {
      blocks.add(Arrays.copyOfRange(all, from, all.length));
    }
    return blocks;
  }

  /** Replays the whole fixture, one SSE block a millisecond. */
  static Replay replay(WireApi api, String fixture) {
    return replay(api, blocks(bytes(fixture)));
  }

  /** Replays blocks, the k-th at (k + 1) ms, through the API's parser into a timer. */
  static Replay replay(WireApi api, List<byte[]> blocks) {
    Dialect dialect = api.dialect();
    RequestTimer timer = new RequestTimer(0, 0, dialect.terminalEvent());
    List<StreamEvent> events = new ArrayList<>();
    long[] now = {0};
    EventParser parser =
        dialect.parser(
            new EventParser.Listener() {
              @Override
              public boolean wantsText() {
                return timer.wantsText();
              }

              @Override
              public void onEvent(StreamEvent event) {
                events.add(event);
                timer.onEvent(now[0], event);
              }
            });
    for (int k = 0; k < blocks.size(); k++) {
      now[0] = (k + 1) * MS;
      byte[] block = blocks.get(k);
      parser.feed(block, 0, block.length);
    }
    parser.end();
    RequestTimings timings = timer.finish(timer.lastEventNanos(), null);
    return new Replay(timings, timer.answer(null), events, parser);
  }

  /** The events of chunks fed in order, every text kept. */
  static List<StreamEvent> events(WireApi api, List<byte[]> chunks) {
    return events(api, chunks, true);
  }

  /** The events of chunks fed in order, every text kept or none. */
  static List<StreamEvent> events(WireApi api, List<byte[]> chunks, boolean wantsText) {
    List<StreamEvent> events = new ArrayList<>();
    EventParser parser =
        api.dialect()
            .parser(
                new EventParser.Listener() {
                  @Override
                  public boolean wantsText() {
                    return wantsText;
                  }

                  @Override
                  public void onEvent(StreamEvent event) {
                    events.add(event);
                  }
                });
    for (byte[] chunk : chunks) {
      parser.feed(chunk, 0, chunk.length);
    }
    parser.end();
    return events;
  }
}
