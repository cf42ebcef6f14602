package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The loops {@code bench.RecordCodecCost} times, one copy of this class a class loader: it calls
 * only members that the writer, the reader and the CSV had before {@link RecordFields} and still
 * have, so the same loop runs on the classes of two commits side by side. Not a test.
 */
public final class RecordCodecLoop {

  private final RequestRecord[] records;
  private final String[] lines;
  private final byte[][] bytes;
  private final RequestRecordReader reader = RequestRecordReader.create();
  private final StringBuilder out = new StringBuilder(4096);
  private final RequestsFile.Csv csv;
  private static volatile long blackhole;

  /**
   * Records of 64-token streams (TTFT, 63 gaps in microseconds, TPOT, E2E; one in 4 with a cache
   * plan, one in 8 a conversation turn), their lines and their bytes.
   *
   * @param n how many, a power of 2
   * @param seed the random seed
   * @throws IOException never (the CSV goes nowhere)
   */
  public RecordCodecLoop(int n, long seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    records = new RequestRecord[n];
    lines = new String[n];
    bytes = new byte[n][];
    for (int i = 0; i < n; i++) {
      List<Double> itl = new ArrayList<>(63);
      double sum = 0;
      for (int k = 0; k < 63; k++) {
        double gap = (900_000 + random.nextInt(300_000)) / 1000 / 1000.0;
        itl.add(gap);
        sum += gap;
      }
      double ttft = random.nextInt(5_000, 90_000) / 1000.0;
      long start = 1_764_633_600_000L + i * 7L;
      var b =
          RequestRecord.builder()
              .request("chat")
              .phase("measured")
              .index((long) i)
              .promptId("r-0123456789ab")
              .digest("0123456789abcdef")
              .plannedTokens(512)
              .startMs(start)
              .promptTokens(512 + random.nextInt(4))
              .promptTokensExact(true)
              .cachedTokens(random.nextInt(512))
              .completionTokens(64)
              .completionTokensExact(true)
              .ttftMs(ttft)
              .timeToFirstEventMs(ttft - 0.125)
              .itlMs(itl)
              .tpotMs(Math.round(sum / 63 * 1000) / 1000.0)
              .e2eMs(Math.round((ttft + sum) * 1000) / 1000.0)
              .outputTokensPerS(64 / ((ttft + sum) / 1000))
              .finishReason("length")
              .httpStatus(200)
              .status(RequestStatus.OK)
              .sentMs(start + random.nextInt(1000) / 1000.0);
      if (i % 4 == 0) {
        b.workload("shared-prefix").plannedCachedTokens(256).cachePlanned(CacheOutcome.HIT);
        b.cache(CacheOutcome.PARTIAL).cacheWarmStart(false);
      }
      if (i % 8 == 1) {
        b.conversationTurn(
            new io.github.gatlingllm.metrics.ConversationTurn(i, 2, 673, "00112233aabbccdd"));
      }
      records[i] = b.build();
      lines[i] = RequestRecordJson.toJson(records[i], true);
      bytes[i] = lines[i].getBytes(StandardCharsets.UTF_8);
    }
    csv = new RequestsFile.Csv(Writer.nullWriter());
  }

  /**
   * The lines, for the caller to check that both class loaders write the same text.
   *
   * @return the lines
   */
  public String[] lines() {
    return lines.clone();
  }

  /**
   * CPU nanoseconds of the current thread for {@code ops} operations of one kind.
   *
   * @param op {@code write} (a line into a reused builder), {@code readBytes} (a line from its
   *     bytes, as {@code RequestsFile.forEach}), {@code readText} (from its text, as the merge in
   *     start order) or {@code csv} (a row to nowhere)
   * @param ops how many
   * @return the CPU nanoseconds
   * @throws IOException never
   */
  public long run(String op, int ops) throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int mask = records.length - 1;
    long sink = 0;
    long cpu = threads.getCurrentThreadCpuTime();
    switch (op) {
      case "write" -> {
        for (int i = 0; i < ops; i++) {
          out.setLength(0);
          RequestLineWriter.append(out, records[i & mask], true);
          sink += out.length();
        }
      }
      case "readBytes" -> {
        for (int i = 0; i < ops; i++) {
          byte[] b = bytes[i & mask];
          sink += reader.read(b, 0, b.length).startMs();
        }
      }
      case "readText" -> {
        for (int i = 0; i < ops; i++) {
          sink += reader.read(lines[i & mask]).startMs();
        }
      }
      case "csv" -> {
        for (int i = 0; i < ops; i++) {
          csv.write(records[i & mask]);
        }
      }
      default -> throw new IllegalArgumentException("no such op: " + op);
    }
    long spent = threads.getCurrentThreadCpuTime() - cpu;
    blackhole = sink;
    return spent;
  }
}
