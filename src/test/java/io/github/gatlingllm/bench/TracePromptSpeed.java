package io.github.gatlingllm.bench;

import io.github.gatlingllm.feeder.Trace;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.TraceBlocks;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.nio.file.Path;

/**
 * Prints how fast a trace's prompts are made ({@link TraceBlocks}: rows/s and prompt tokens/s over
 * every row, after one warm-up pass over the first 1,000 rows), and whether each prompt's planned
 * count is its {@code input_length}. Run: {@code java -cp ...
 * io.github.gatlingllm.bench.TracePromptSpeed TRACE [TOKENIZER] [BLOCK_TOKENS]} (tokenizer {@code
 * estimate} or a tokenizer.json path; block 512). {@code scripts/bench-trace-replay.sh} writes a
 * 10,000-row trace to use.
 */
public final class TracePromptSpeed {

  private TracePromptSpeed() {}

  /**
   * Runs the measurement.
   *
   * @param args the trace, then optionally the tokenizer and the block size
   */
  public static void main(String[] args) {
    Path path = Path.of(args[0]);
    String tokenizer = args.length > 1 ? args[1] : "estimate";
    int block = args.length > 2 ? Integer.parseInt(args[2]) : 512;
    TokenCounter counter =
        "estimate".equals(tokenizer)
            ? EstimatedTokenCounter.INSTANCE
            : TokenCounters.shared(tokenizer);
    long read = System.nanoTime();
    Trace trace = Trace.read(path, block);
    double readMs = (System.nanoTime() - read) / 1e6;
    TraceBlocks blocks = new TraceBlocks(counter, 0, block);
    for (int row = 0; row < Math.min(1000, trace.rows()); row++) {
      blocks.prompt(trace.hashIds(row), trace.inputLength(row), "warm");
    }
    blocks = new TraceBlocks(counter, 0, block);
    long tokens = 0;
    int inexact = 0;
    long start = System.nanoTime();
    for (int row = 0; row < trace.rows(); row++) {
      Prompt p = blocks.prompt(trace.hashIds(row), trace.inputLength(row), "r");
      tokens += p.planned().value();
      if (p.planned().value() != trace.inputLength(row)) {
        inexact++;
      }
    }
    double s = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "trace %s: %d rows read and checked in %.0f ms; prompts (%s, %d-token blocks, cold block"
            + " cache): %.0f rows/s, %.2f M prompt tokens/s; %d rows whose planned count is not"
            + " their input_length%n",
        path.getFileName(),
        trace.rows(),
        readMs,
        counter.identity().get("source") == null ? tokenizer : counter.identity().get("source"),
        block,
        trace.rows() / s,
        tokens / s / 1e6,
        inexact);
  }
}
