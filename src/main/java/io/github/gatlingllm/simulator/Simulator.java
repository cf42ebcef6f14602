package io.github.gatlingllm.simulator;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded OpenAI-compatible LLM server with a deterministic timing model: the default target of
 * gatling-llm's simulations and the oracle that measured timings are checked against. It listens on
 * 127.0.0.1 only, over HTTP/1.1 (keep-alive), on Netty.
 *
 * <h2>Endpoints</h2>
 *
 * <ul>
 *   <li>{@code POST /v1/chat/completions} and {@code POST /v1/completions}, streamed ({@code
 *       "stream": true}: {@code text/event-stream}, one {@code data: {json}\n\n} event per chunk,
 *       then {@code data: [DONE]\n\n}) or not (one JSON body).
 *   <li>{@code POST /v1/responses} (OpenAI's Responses API, {@link ResponsesReply}: {@code input}
 *       as a string or items, {@code instructions}, {@code max_output_tokens}, {@code
 *       previous_response_id} over the last {@value StoredResponses#CAPACITY} responses) and {@code
 *       POST /v1/messages} (Anthropic's Messages API, {@link MessagesReply}: {@code system},
 *       content blocks, {@code max_tokens} required), streamed in each API's named events (no
 *       {@code [DONE]}) or not; their messages and tool calls are templated as chat messages are.
 *   <li>{@code GET /v1/models}: {@code {"object": "list", "data": [{"id": model, ...}]}}.
 *   <li>{@code GET /health}: 200 {@code {"status": "ok"}}.
 *   <li>{@code GET /metrics}: Prometheus text; counters {@code
 *       gatling_llm_simulator_requests_total{status="..."}} (generation endpoints only; a request
 *       counts when it ends; 499 for a non-streamed request whose client left), {@code
 *       _prompt_tokens_total}, {@code _cached_prompt_tokens_total}, {@code
 *       _generation_tokens_total}, {@code _connections_total} (TCP connections accepted), {@code
 *       _cancelled_requests_total} (requests whose client went away first), {@code
 *       _reasoning_tokens_total} (the reasoning mode's tokens); gauges {@code _running_sequences},
 *       {@code _waiting_sequences}, {@code _cache_blocks}, {@code _cache_capacity_blocks}, {@code
 *       _cache_block_size_tokens} and {@code _cache_usage_ratio} (blocks held / capacity).
 * </ul>
 *
 * <p>Errors use OpenAI's shape {@code {"error": {"message", "type", "param", "code"}}} (on {@code
 * /v1/messages} Anthropic's {@code {"type": "error", "error": {"type", "message"}}}): 400 {@code
 * invalid_request_error} for invalid JSON and missing or mistyped fields, 400 {@code
 * exceed_context_size_error} (with {@code n_prompt_tokens} and {@code n_ctx}, as llama.cpp) for a
 * prompt longer than {@link SimulatorConfig#contextLength()}, 404 for an unknown path, 405 for a
 * wrong method.
 *
 * <h2>Requests</h2>
 *
 * <p>Read: {@code messages} (chat: each with a string {@code role} and a {@code content} that is a
 * string, null, or an array of text parts, joined with newlines), {@code prompt} (completions: a
 * string, an array of one string, or an array of token ids), {@code stream}, {@code
 * stream_options.include_usage}, {@code max_completion_tokens} (wins) or {@code max_tokens} (else
 * {@link SimulatorConfig#defaultMaxTokens()}; 1 to the context length), {@code ignore_eos}
 * (accepted; the simulator never stops early anyway), {@code n} (1 only). Everything else,
 * including {@code model}, is ignored; responses always name the configured model.
 *
 * <p>Prompt tokens: for completions, the configured {@link
 * io.github.gatlingllm.token.TokenCounter}'s tokens of the prompt (or the number of token ids); for
 * chat, its tokens of the ChatML text {@code <|im_start|>{role}\n{content}<|im_end|>\n} for each
 * message followed by {@code <|im_start|>assistant\n}. With the whitespace estimate, a single user
 * message {@code "Hello world"} is 4 tokens.
 *
 * <h2>Output</h2>
 *
 * <p>Always exactly {@code max_tokens} tokens ({@code finish_reason} {@code "length"}), as a server
 * with {@code ignore_eos} gives: a fixed cycle of 16 words, one word per token ({@code "the model
 * is running in a load test and each word here counts as one token"}, then again from {@code
 * "the"}), each token after the first with a leading space. No randomness anywhere.
 *
 * <p>Reasoning mode ({@link SimulatorConfig#reasoningTokens()} {@code R > 0}): the first {@code
 * min(R, max_tokens)} tokens are reasoning, sent as {@code reasoning_content} deltas (chat; {@code
 * message.reasoning_content} when not streamed) or inside {@code <think>...</think>} in the text
 * (completions: the first reasoning chunk starts with {@code <think>}, the first answer chunk with
 * {@code </think>}), then the answer; timing is unchanged (a reasoning token is a token), a chunk
 * is all reasoning or all answer, and {@code usage.completion_tokens_details.reasoning_tokens}
 * counts them.
 *
 * <p>Streamed chat: at the first token, a role-only chunk {@code "delta": {"role": "assistant",
 * "content": null}} (not a token), then one chunk per content delta, then a chunk with {@code
 * "delta": {}} and {@code "finish_reason"}, then, with {@code include_usage}, a chunk with {@code
 * "choices": []} and {@code usage}. Streamed completions: one chunk per {@code choices[0].text},
 * then a chunk with {@code "text": ""} and {@code finish_reason}, carrying {@code usage} when asked
 * (as llama.cpp). {@code usage} is {@code prompt_tokens}, {@code completion_tokens}, {@code
 * total_tokens} and {@code prompt_tokens_details.cached_tokens}.
 *
 * <h2>Prefix cache</h2>
 *
 * <p>As vLLM's automatic prefix caching: token ids in blocks of {@link
 * SimulatorConfig#blockSize()}, a block identified by the hash chain of all tokens up to its end,
 * full blocks only, the longest run of cached leading blocks wins, least recently used blocks are
 * evicted beyond {@link SimulatorConfig#cacheBlocks()}. The last prompt token is never served from
 * the cache, so {@code cached_tokens = floor((promptTokens - 1) / blockSize) * blockSize} at most:
 * a repeated 100-token prompt gets 96, a repeated 96-token prompt 80. A prompt's blocks enter the
 * cache when its first token is produced. Token ids: a Hugging Face counter's real ids; under the
 * estimate, a 64-bit hash of each whitespace word; other counters never hit the cache.
 *
 * <h2>Timing model</h2>
 *
 * <p>All times in nanoseconds of {@link System#nanoTime()}, measured from the request's
 * <em>arrival</em>: the moment it has been read, checked and tokenized (the HTTP response head of a
 * stream is sent just before). With {@code base = baseTtftMs}, {@code prefill = prefillUsPerToken},
 * {@code decode = decodeMsPerToken} and {@code c = tokensPerChunk}:
 *
 * <ol>
 *   <li><b>Admission.</b> A request is admitted at arrival if fewer than {@code maxConcurrent}
 *       sequences are running; otherwise it waits in FIFO order and is admitted the moment a
 *       running sequence finishes. {@code queueWait = admission - arrival}. The prefix-cache lookup
 *       happens at admission.
 *   <li><b>First token.</b> {@code TTFT = queueWait + base + prefill * (promptTokens -
 *       cachedTokens)}. The first token is token 1 of {@code N = max_tokens}, and it is sent alone
 *       in the first chunk at TTFT (for chat, right after the role-only chunk).
 *   <li><b>Later tokens.</b> Token {@code k} (1-based) exists at {@code TTFT + (k - 1) * decode}.
 *       Tokens 2..N go in chunks of {@code c} (the last may hold fewer); a chunk is sent when its
 *       last token exists, so chunks follow each other every {@code c * decode}.
 *   <li><b>End.</b> {@code E2E = TTFT + (N - 1) * decode}: the last chunk, then at once the
 *       finishing chunk, the usage chunk and {@code [DONE]}, or the whole non-streamed body. The
 *       sequence's slot is freed at E2E.
 * </ol>
 *
 * <p>Example: base 20 ms, prefill 50 µs, decode 10 ms, a 1,000-token uncached prompt and 100 output
 * tokens on an idle server: TTFT = 20 + 50 = 70 ms, E2E = 70 + 99 * 10 = 1,060 ms.
 *
 * <p>Chunks are scheduled with the event loop's timers at absolute deadlines (no sleeping, no busy
 * waiting), so a late chunk does not delay the ones after it. Each SSE event is its own HTTP chunk;
 * the events due at one moment leave in one flush, so each chunk of the model reaches the socket at
 * its own time (at zero delay, a whole answer leaves in one flush). Bytes leave at the scheduled
 * time or slightly later; {@link #requests()} holds the schedule itself ({@link ServedRequest}). A
 * client that disconnects cancels its request and frees its slot. Another {@link ResponseStrategy}
 * can replace steps 2 to 4.
 *
 * <p>Thread-safe. {@link #close()} stops it; do not call it from a simulator thread.
 */
public final class Simulator implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Simulator.class);

  /** The address the simulator listens on. */
  public static final String HOST = "127.0.0.1";

  /** The largest request body accepted, in bytes; larger ones get HTTP 413. */
  public static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

  private final Engine engine;
  private final EventLoopGroup group;
  private final Channel serverChannel;
  private final int port;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closed = new CountDownLatch(1);

  private Simulator(Engine engine, EventLoopGroup group, Channel serverChannel) {
    this.engine = engine;
    this.group = group;
    this.serverChannel = serverChannel;
    this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  /**
   * Starts a simulator with the standard {@link ResponseStrategy}.
   *
   * @param config the configuration, never null
   * @param port the TCP port on 127.0.0.1, or 0 for a free one
   * @return the running simulator; close it when done
   * @throws IllegalArgumentException if the port is outside 0..65535
   * @throws UncheckedIOException if the port cannot be bound (e.g. it is in use)
   */
  public static Simulator start(SimulatorConfig config, int port) {
    return start(config, port, ResponseStrategy.standard());
  }

  /**
   * Starts a simulator that produces its output with a given strategy.
   *
   * @param config the configuration, never null
   * @param port the TCP port on 127.0.0.1, or 0 for a free one
   * @param strategy how each admitted request's output is planned, never null
   * @return the running simulator; close it when done
   * @throws IllegalArgumentException if the port is outside 0..65535
   * @throws UncheckedIOException if the port cannot be bound (e.g. it is in use)
   */
  public static Simulator start(SimulatorConfig config, int port, ResponseStrategy strategy) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(strategy, "strategy");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    Engine engine = new Engine(config, strategy);
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channelType =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    EventLoopGroup group =
        new MultiThreadIoEventLoopGroup(
            Math.max(1, Runtime.getRuntime().availableProcessors()),
            new DefaultThreadFactory("gatling-llm-simulator", true),
            io);
    try {
      Channel channel =
          new ServerBootstrap()
              .group(group)
              .channel(channelType)
              .option(ChannelOption.SO_BACKLOG, 1024)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      engine.metrics.connectionAccepted();
                      ch.pipeline()
                          .addLast(new HttpServerCodec())
                          .addLast(new HttpObjectAggregator(MAX_BODY_BYTES))
                          .addLast(new SimulatorHandler(engine));
                    }
                  })
              .bind(HOST, port)
              .sync()
              .channel();
      Simulator simulator = new Simulator(engine, group, channel);
      LOG.debug(
          "simulator listening on {} ({} transport)", simulator.baseUrl(), epoll ? "epoll" : "nio");
      return simulator;
    } catch (Exception e) {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new UncheckedIOException(
          new IOException("cannot listen on " + HOST + ":" + port + ": " + e.getMessage(), e));
    }
  }

  /**
   * The TCP port the simulator listens on.
   *
   * @return the port, never 0
   */
  public int port() {
    return port;
  }

  /**
   * The OpenAI base URL of the simulator.
   *
   * @return {@code http://127.0.0.1:PORT/v1}
   */
  public String baseUrl() {
    return "http://" + HOST + ":" + port + "/v1";
  }

  /**
   * The configuration the simulator runs with.
   *
   * @return the configuration, never null
   */
  public SimulatorConfig config() {
    return engine.config;
  }

  /**
   * The records of the latest admitted generation requests (at most {@link
   * SimulatorConfig#recordCapacity()}), in the order they ended. A request's record exists before
   * its last byte is sent.
   *
   * @return an immutable snapshot, oldest first, never null
   */
  public List<ServedRequest> requests() {
    return engine.records();
  }

  /**
   * The counters and gauges of {@code GET /metrics}, now.
   *
   * @return a snapshot, never null
   */
  public SimulatorStats stats() {
    return engine.stats();
  }

  /**
   * Waits until the simulator is closed (by {@link #close()} from another thread).
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public void awaitClosed() throws InterruptedException {
    closed.await();
  }

  /**
   * Stops listening, drops open connections (and their requests) and stops the simulator's threads.
   * Idempotent; returns once stopped.
   */
  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      awaitClosedUninterruptibly();
      return;
    }
    try {
      serverChannel.close().syncUninterruptibly();
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
      LOG.debug("simulator on port {} stopped", port);
    } finally {
      closed.countDown();
    }
  }

  private void awaitClosedUninterruptibly() {
    boolean interrupted = false;
    while (true) {
      try {
        closed.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "Simulator[" + baseUrl() + "]";
  }
}
