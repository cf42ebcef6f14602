package io.github.gatlingllm.bench;

import io.github.gatlingllm.api.SseParser;
import io.github.gatlingllm.api.StreamEvent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH benchmarks of reading a streamed chat completion: {@value #TOKENS} content deltas between a
 * role delta, a finish chunk, a usage chunk and {@code [DONE]} ({@value #EVENTS} events, as vLLM
 * sends them), one event per body chunk, on a fresh {@link SseParser} per stream.
 *
 * <p>Each operation is one whole stream; scores are nanoseconds per event. {@link #frameHeap} and
 * {@link #frameDirect} only frame the events (from byte arrays, and from direct buffers as the
 * action passes Netty's {@code nioBuffer()}); {@link #frameAndParseBytes} also reads each event
 * with {@link StreamEvent#parse(byte[], int, int)}, the action's whole path; {@link
 * #frameAndParseString} decodes each event to a String first and reads it with {@link
 * StreamEvent#parse(String)}, for comparison. Run through {@link SseBenchmarks}.
 */
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(SseStreamBenchmark.EVENTS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class SseStreamBenchmark {

  /** Content deltas in the stream. */
  public static final int TOKENS = 64;

  /** Events in the stream: the role delta, the content deltas, finish, usage and {@code [DONE]}. */
  public static final int EVENTS = TOKENS + 4;

  /** The stream's chunks, one event each, as arrays and as direct buffers. */
  @State(Scope.Thread)
  public static class Stream {
    final byte[][] heap = chunks();
    final ByteBuffer[] direct = direct(heap);
  }

  /**
   * The stream's chunks, one event each.
   *
   * @return {@value #EVENTS} chunks of UTF-8 bytes
   */
  public static byte[][] chunks() {
    String head =
        "data: {\"id\":\"chatcmpl-b1\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1700000000,\"model\":\"Qwen/Qwen3-0.6B\",\"choices\":[{\"index\":0,";
    List<String> events = new ArrayList<>();
    events.add(
        head
            + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
            + "\"finish_reason\":null}]}\n\n");
    for (int i = 0; i < TOKENS; i++) {
      events.add(
          head
              + "\"delta\":{\"content\":\" word"
              + i
              + "\"},\"logprobs\":null,"
              + "\"finish_reason\":null}]}\n\n");
    }
    events.add(
        head
            + "\"delta\":{\"content\":\"\"},\"logprobs\":null,\"finish_reason\":\"length\","
            + "\"stop_reason\":null}]}\n\n");
    events.add(
        "data: {\"id\":\"chatcmpl-b1\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1700000000,\"model\":\"Qwen/Qwen3-0.6B\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":512,\"total_tokens\":576,\"completion_tokens\":64}}"
            + "\n\n");
    events.add("data: [DONE]\n\n");
    byte[][] chunks = new byte[events.size()][];
    for (int i = 0; i < chunks.length; i++) {
      chunks[i] = events.get(i).getBytes(StandardCharsets.UTF_8);
    }
    return chunks;
  }

  private static ByteBuffer[] direct(byte[][] heap) {
    ByteBuffer[] direct = new ByteBuffer[heap.length];
    for (int i = 0; i < heap.length; i++) {
      direct[i] = ByteBuffer.allocateDirect(heap[i].length).put(heap[i]).flip();
    }
    return direct;
  }

  /**
   * Frames the stream from byte arrays.
   *
   * @param stream the chunks
   * @param blackhole takes each event's size
   */
  @Benchmark
  public void frameHeap(Stream stream, Blackhole blackhole) {
    SseParser parser = new SseParser((b, from, to) -> blackhole.consume(to - from));
    for (byte[] chunk : stream.heap) {
      parser.feed(chunk, 0, chunk.length);
    }
    parser.end();
  }

  /**
   * Frames the stream from direct buffers.
   *
   * @param stream the chunks
   * @param blackhole takes each event's size
   */
  @Benchmark
  public void frameDirect(Stream stream, Blackhole blackhole) {
    SseParser parser = new SseParser((b, from, to) -> blackhole.consume(to - from));
    for (ByteBuffer chunk : stream.direct) {
      parser.feed(chunk);
      chunk.position(0);
    }
    parser.end();
  }

  /**
   * Frames the stream from direct buffers and reads each event from its bytes.
   *
   * @param stream the chunks
   * @param blackhole takes each event
   */
  @Benchmark
  public void frameAndParseBytes(Stream stream, Blackhole blackhole) {
    SseParser parser =
        new SseParser((b, from, to) -> blackhole.consume(StreamEvent.parse(b, from, to)));
    for (ByteBuffer chunk : stream.direct) {
      parser.feed(chunk);
      chunk.position(0);
    }
    parser.end();
  }

  /**
   * Frames the stream from direct buffers, decodes each event to a String and reads that.
   *
   * @param stream the chunks
   * @param blackhole takes each event
   */
  @Benchmark
  public void frameAndParseString(Stream stream, Blackhole blackhole) {
    SseParser parser =
        new SseParser(
            (b, from, to) ->
                blackhole.consume(
                    StreamEvent.parse(new String(b, from, to - from, StandardCharsets.UTF_8))));
    for (ByteBuffer chunk : stream.direct) {
      parser.feed(chunk);
      chunk.position(0);
    }
    parser.end();
  }
}
