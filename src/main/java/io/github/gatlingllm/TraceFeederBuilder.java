package io.github.gatlingllm;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;

import io.gatling.javaapi.core.OpenInjectionStep;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.feeder.Trace;
import io.github.gatlingllm.feeder.TraceReplay;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.TraceBlocks;
import io.github.gatlingllm.settings.TraceSettings;
import io.github.gatlingllm.token.TokenCounter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A Gatling feeder that replays a request trace in Mooncake's JSONL format: {@code
 * feed(trace("conversation_trace.jsonl"))}, injected with {@link #arrivals()} so each row is sent
 * at its timestamp. Immutable, so all methods return a new instance. Works wherever Gatling takes a
 * feeder.
 *
 * <p>Each row of the file ({@code {"timestamp": ms, "input_length": tokens, "output_length":
 * tokens, "hash_ids": [...]}}) is one request: its prompt is one block of exactly {@link
 * #blockTokens(int)} tokens of the run's tokenizer per hash id (the last block the rest of {@code
 * input_length}), generated from (seed, hash id), so rows that share leading ids share exactly
 * those blocks of prompt and a prefix cache can reuse exactly them; the request asks for {@code
 * output_length} tokens (add {@code llm().ignoreEos(true)} for servers that would stop earlier).
 * Each request's cache plan is the tokens of its leading ids that earlier requests of the run sent.
 *
 * <p>One builder instance is one workload: its rows are handed out in file order across all virtual
 * users, each row once; a virtual user fed past the last row ends cleanly, and once every row has
 * been sent and answered the run stops its injection. With {@link #arrivals()} each row leaves
 * {@code (timestamp - first timestamp) / timeScale} milliseconds after the scenario's injection
 * start, whichever virtual user carries it; its {@code scheduled_ms} in {@code llm-requests.jsonl}
 * is that due time and {@code schedule_lag_ms} what the client added. A trace without timestamps is
 * sent as the scenario's injection brings virtual users (one a row).
 *
 * <p>Every value can be set by a {@code -Dllm.*} system property, which wins ({@code llm.trace},
 * {@code llm.trace.blockTokens}, {@code llm.trace.timeScale}, {@code llm.seed}, {@code llm.caseId},
 * {@code llm.tokenizer}); each value is checked when it is set, and the file is read and checked
 * whole when the feeder or the arrivals are first made (the simulation's construction), so a bad
 * row fails before any load with a message naming the file, the line, the field, the value and what
 * is allowed.
 *
 * <p>In a test run on several machines ({@code -Dllm.shard=I/N}), shard {@code I} sends rows {@code
 * I, I + N, ...} at their own timestamps, and its {@link #arrivals()} start only its rows.
 */
public final class TraceFeederBuilder extends WorkloadBuilder<TraceFeederBuilder, Workload> {

  TraceFeederBuilder(Map<String, String> values, String name) {
    super(values, name);
  }

  @Override
  void check(Map<String, String> values) {
    TraceSettings.fromSystemProperties(values);
  }

  @Override
  TraceFeederBuilder copy(Map<String, String> values, String name) {
    return new TraceFeederBuilder(values, name);
  }

  @Override
  String dslCall() {
    return "trace()";
  }

  /**
   * The tokens of one hash id's block (default 512, Mooncake's): the trace's own block size, since
   * each row must hold {@code ceil(input_length / blockTokens)} hash ids.
   *
   * @param tokens at least 1
   * @return a new builder
   * @throws IllegalArgumentException naming {@code llm.trace.blockTokens} when out of range
   */
  public TraceFeederBuilder blockTokens(int tokens) {
    return with("trace.blockTokens", tokens);
  }

  /**
   * The replay speed (default 1.0): row timestamps are divided by it, so 2.0 sends the trace twice
   * as fast, 0.5 at half speed.
   *
   * @param scale above 0
   * @return a new builder
   * @throws IllegalArgumentException naming {@code llm.trace.timeScale} when not above 0
   */
  public TraceFeederBuilder timeScale(double scale) {
    return with("trace.timeScale", scale);
  }

  /**
   * An open injection that starts one virtual user per row of this JVM's shard no later than the
   * row is due: for each arrival window ({@code max(1 s, trace span / 2000)}) holding rows, {@code
   * nothingFor} up to it then {@code atOnceUsers(rows in it)}; the LLM request then holds each row
   * until its own due time. Use it as {@code scenario.injectOpen(trace.arrivals())}, on the
   * scenario that feeds this builder.
   *
   * @return the steps, never empty
   * @throws IllegalArgumentException naming a bad setting or trace row
   * @throws IllegalStateException when the trace has no timestamps
   */
  public List<OpenInjectionStep> arrivals() {
    Workload w = workload();
    List<OpenInjectionStep> steps = new ArrayList<>();
    long at = 0;
    for (long[] window : w.replay().arrivalWindows(w.shard())) {
      if (window[0] > at) {
        steps.add(nothingFor(Duration.ofMillis(window[0] - at)));
        at = window[0];
      }
      steps.add(atOnceUsers((int) window[1]));
    }
    return steps;
  }

  /**
   * The number of rows in the trace (the whole test's, every shard's).
   *
   * @return at least 1
   * @throws IllegalArgumentException naming a bad setting or trace row
   */
  public int rows() {
    return workload().replay().trace().rows();
  }

  /**
   * The feeder: made once per builder instance (the trace read and checked); later calls return
   * feeders over the same rows.
   *
   * @return the feeder
   * @throws IllegalArgumentException naming a bad setting or trace row
   */
  @Override
  public Iterator<Map<String, Object>> get() {
    return new PromptFeeder(workload());
  }

  @Override
  Workload build() {
    io.github.gatlingllm.settings.ImageSettings.refuseOutsidePrompts("trace(path)");
    TraceSettings s = TraceSettings.fromSystemProperties(values);
    io.github.gatlingllm.settings.SettingUse.RUN.made(
        io.github.gatlingllm.settings.SettingUse.Part.TRACE);
    TokenCounter counter = counter(s.tokenizer());
    Trace trace = Trace.read(Path.of(s.path()), s.blockTokens());
    // A row's images (its "images" count) are counted by llm.images.tokens, made as
    // llm.images.format.
    io.github.gatlingllm.settings.ImageSettings images =
        io.github.gatlingllm.settings.ImageSettings.fromSystemProperties(values);
    TraceReplay replay =
        new TraceReplay(
            trace,
            new TraceBlocks(counter, s.seed(), s.blockTokens()),
            s.timeScale(),
            s.caseId(),
            images.tokenRule(),
            images.spec().format());
    replay.warm(PromptSource.DEFAULT_WARM_SAMPLE);
    return new Workload(Workload.claimName(name, "trace", "trace()"), replay, Shard.current());
  }
}
