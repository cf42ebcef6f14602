package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One generation request on its way through the simulator: waiting for a slot, then producing its
 * planned chunks on its connection's event loop (timers, never sleeps), then done or cancelled.
 * Everything but {@link #admitted} runs on that event loop.
 */
final class GenerationJob implements Scheduler.Admittable {

  private static final Logger LOG = LoggerFactory.getLogger(GenerationJob.class);

  /** HTTP status counted for a non-streamed request whose client left before the answer. */
  static final int CLIENT_CLOSED = 499;

  private enum State {
    WAITING,
    RUNNING,
    DONE,
    CANCELLED
  }

  private final Engine engine;
  private final ChannelHandlerContext ctx;
  private final SimulatorHandler handler;
  private final ParsedRequest request;
  private final boolean keepAlive;
  private final long id;
  private final String responseId;
  private final long created;
  private final long[] blockHashes;
  private final String clientRequestId;

  private State state = State.WAITING;
  private long arrivalNanos;
  private long admittedNanos;
  private int cachedTokens;
  private List<PlannedChunk> plan;
  private int next;
  private int sentTokens;
  private boolean roleSent;
  private boolean cacheFilled;
  private StringBuilder text;
  private StringBuilder reasoningText;
  private int reasoningTokens;
  private boolean thinkOpen;
  private EventTemplate contentEvent;
  private EventTemplate reasoningEvent;
  private ApiReply api;
  private ScheduledFuture<?> timer;
  private ToolTurns.Plan toolPlan;
  private StringBuilder[] toolArguments;
  private long[] sentNanos;
  private int sentChunks;

  GenerationJob(
      Engine engine,
      ChannelHandlerContext ctx,
      SimulatorHandler handler,
      ParsedRequest request,
      boolean keepAlive,
      String clientRequestId) {
    this.engine = engine;
    this.ctx = ctx;
    this.handler = handler;
    this.request = request;
    this.keepAlive = keepAlive;
    this.id = engine.nextId();
    this.responseId = request.endpoint().responseId(id);
    this.created = System.currentTimeMillis() / 1000;
    this.blockHashes = engine.cache.blockHashes(request.tokens().ids());
    this.clientRequestId = clientRequestId;
  }

  /** Sends the stream head (when streaming) and asks for a slot. */
  void start() {
    if (request.stream()) {
      Responses.sseHead(ctx, keepAlive);
    }
    arrivalNanos = System.nanoTime();
    if (engine.scheduler.submit(this)) {
      admit(arrivalNanos);
    }
  }

  @Override
  public void admitted(long admittedNanos) {
    try {
      ctx.executor().execute(() -> admit(admittedNanos));
    } catch (RejectedExecutionException e) {
      // The simulator is closing: nothing runs any more, and its counts no longer matter.
    }
  }

  private void admit(long at) {
    if (state == State.CANCELLED) {
      engine.scheduler.release();
      return;
    }
    state = State.RUNNING;
    admittedNanos = at;
    int promptTokens = request.tokens().count();
    cachedTokens = engine.cache.lookup(blockHashes, promptTokens);
    engine.metrics.admitted(promptTokens, cachedTokens);
    api =
        switch (request.endpoint()) {
          case RESPONSES ->
              new ResponsesReply(
                  request.stream(),
                  id,
                  responseId,
                  created,
                  engine.config.model(),
                  request.reasoningSummary(),
                  promptTokens,
                  cachedTokens);
          case MESSAGES ->
              new MessagesReply(
                  request.stream(), responseId, engine.config.model(), promptTokens, cachedTokens);
          default -> null;
        };
    GenerationRequest generation =
        new GenerationRequest(
            id,
            request.endpoint(),
            request.stream(),
            promptTokens,
            cachedTokens,
            request.maxTokens());
    try {
      if (request.toolCalls().isEmpty()) {
        plan = List.copyOf(engine.strategy.plan(generation, engine.config));
      } else {
        toolPlan =
            ToolTurns.plan(
                request.toolCalls(), generation, engine.config, engine.parser.tokenizer());
        plan = toolPlan.chunks();
        toolArguments = new StringBuilder[request.toolCalls().size()];
      }
    } catch (RuntimeException e) {
      LOG.warn("response strategy failed on request {}: {}", responseId, e.toString());
      fail();
      return;
    }
    if (!request.stream()) {
      text = new StringBuilder();
    } else if (engine.config.recordSendTimes()) {
      sentNanos = new long[plan.size()];
    }
    emitDue();
  }

  /**
   * Sends every chunk that is due (in one flush), then waits on a timer for the next one, or
   * finishes.
   */
  private void emitDue() {
    timer = null;
    if (state != State.RUNNING) {
      return;
    }
    long now = System.nanoTime();
    while (next < plan.size()) {
      PlannedChunk chunk = plan.get(next);
      long wait = admittedNanos + chunk.atNanos() - now;
      if (wait > 0) {
        if (request.stream()) {
          ctx.flush();
        }
        timer = ctx.executor().schedule(this::emitDue, wait, TimeUnit.NANOSECONDS);
        return;
      }
      emit(chunk);
      next++;
    }
    finish();
  }

  private void emit(PlannedChunk chunk) {
    fillCache();
    sentTokens += chunk.tokens();
    engine.metrics.generated(chunk.tokens());
    if (toolPlan != null) {
      emitToolPiece(chunk, toolPlan.pieces().get(next));
      return;
    }
    if (chunk.reasoning()) {
      reasoningTokens += chunk.tokens();
      engine.metrics.reasoning(chunk.tokens());
    }
    if (api != null) {
      api.chunk(ctx, chunk.reasoning(), chunk.text());
      if (sentNanos != null && chunk.tokens() > 0) {
        sentNanos[sentChunks++] = System.nanoTime() - arrivalNanos;
      }
      return;
    }
    boolean chat = request.endpoint() == ServedEndpoint.CHAT;
    String value = chunk.text();
    if (!chat) {
      // Completions have no reasoning field: the thinking goes inside <think>...</think>.
      if (chunk.reasoning() && !thinkOpen) {
        thinkOpen = true;
        value = "<think>" + value;
      } else if (!chunk.reasoning() && thinkOpen) {
        thinkOpen = false;
        value = "</think>" + value;
      }
    }
    if (!request.stream()) {
      if (chat && chunk.reasoning()) {
        if (reasoningText == null) {
          reasoningText = new StringBuilder();
        }
        reasoningText.append(value);
      } else {
        text.append(value);
      }
      return;
    }
    if (chat) {
      sendRole();
    }
    EventTemplate template;
    if (chat && chunk.reasoning()) {
      if (reasoningEvent == null) {
        reasoningEvent =
            EventTemplate.of(
                OpenAiJson.chatChunk(
                    responseId,
                    created,
                    engine.config.model(),
                    OpenAiJson.reasoningDelta(EventTemplate.SLOT),
                    null));
      }
      template = reasoningEvent;
    } else {
      if (contentEvent == null) {
        String model = engine.config.model();
        contentEvent =
            EventTemplate.of(
                chat
                    ? OpenAiJson.chatChunk(
                        responseId,
                        created,
                        model,
                        OpenAiJson.contentDelta(EventTemplate.SLOT),
                        null)
                    : OpenAiJson.completionChunk(
                        responseId, created, model, EventTemplate.SLOT, null, null));
      }
      template = contentEvent;
    }
    Responses.sseEvent(ctx, template.render(ctx.alloc(), value));
    if (sentNanos != null && chunk.tokens() > 0) {
      sentNanos[sentChunks++] = System.nanoTime() - arrivalNanos;
    }
  }

  /**
   * A piece of a tool-call reply: streamed, a {@code tool_calls} delta as OpenAI sends it (the
   * call's head with its index, id, type, name and empty arguments; then its index and a piece of
   * its arguments); not streamed, the arguments are kept for the message's {@code tool_calls}.
   */
  private void emitToolPiece(PlannedChunk chunk, ToolTurns.Piece piece) {
    if (toolArguments[piece.call()] == null) {
      toolArguments[piece.call()] = new StringBuilder();
    }
    toolArguments[piece.call()].append(chunk.text());
    ToolTurns.Call call = request.toolCalls().get(piece.call());
    if (api != null) {
      api.toolPiece(ctx, piece.call(), call.id(), call.name(), piece.head(), chunk.text());
      if (sentNanos != null && chunk.tokens() > 0) {
        sentNanos[sentChunks++] = System.nanoTime() - arrivalNanos;
      }
      return;
    }
    if (!request.stream()) {
      return;
    }
    sendRole();
    Responses.sseEvent(
        ctx,
        OpenAiJson.chatChunk(
            responseId,
            created,
            engine.config.model(),
            piece.head()
                ? OpenAiJson.toolCallHead(piece.call(), call.id(), call.name())
                : OpenAiJson.toolCallArguments(piece.call(), chunk.text()),
            null));
    if (sentNanos != null && chunk.tokens() > 0) {
      sentNanos[sentChunks++] = System.nanoTime() - arrivalNanos;
    }
  }

  private void sendRole() {
    if (!roleSent) {
      roleSent = true;
      Responses.sseEvent(
          ctx,
          OpenAiJson.chatChunk(
              responseId, created, engine.config.model(), OpenAiJson.roleDelta(), null));
    }
  }

  /** The prompt's blocks enter the cache once its prefill is done: at the first chunk. */
  private void fillCache() {
    if (!cacheFilled) {
      cacheFilled = true;
      engine.cache.insert(blockHashes);
    }
  }

  private void finish() {
    fillCache();
    cacheReply();
    state = State.DONE;
    String finishReason =
        toolPlan != null
            ? (toolPlan.truncated() ? "length" : "tool_calls")
            : sentTokens >= request.maxTokens() ? "length" : "stop";
    record(true);
    engine.metrics.request(200);
    engine.scheduler.release();
    String model = engine.config.model();
    int promptTokens = request.tokens().count();
    ObjectNode usage =
        engine.config.reasoningTokens() > 0
            ? OpenAiJson.usage(promptTokens, sentTokens, cachedTokens, reasoningTokens)
            : OpenAiJson.usage(promptTokens, sentTokens, cachedTokens);
    if (api != null) {
      boolean length = toolPlan != null ? toolPlan.truncated() : sentTokens >= request.maxTokens();
      if (request.endpoint() == ServedEndpoint.RESPONSES) {
        List<PromptTokenizer.Message> added = new java.util.ArrayList<>(request.added());
        added.add(
            new PromptTokenizer.Message(
                "assistant", toolPlan != null ? toolPlan.text() : api.answer()));
        engine.stored.put(responseId, new StoredResponses.Stored(request.previous(), added));
      }
      if (request.stream()) {
        api.finish(ctx, length, sentTokens, reasoningTokens);
        Responses.sseEnd(ctx, keepAlive);
      } else {
        Responses.json(
            ctx, HttpResponseStatus.OK, api.body(length, sentTokens, reasoningTokens), keepAlive);
      }
      handler.exchangeDone(ctx, keepAlive);
      return;
    }
    if (request.stream()) {
      if (request.endpoint() == ServedEndpoint.CHAT) {
        sendRole();
        Responses.sseEvent(
            ctx,
            OpenAiJson.chatChunk(
                responseId, created, model, OpenAiJson.emptyDelta(), finishReason));
        if (request.includeUsage()) {
          Responses.sseEvent(ctx, OpenAiJson.chatUsageChunk(responseId, created, model, usage));
        }
      } else {
        Responses.sseEvent(
            ctx,
            OpenAiJson.completionChunk(
                responseId,
                created,
                model,
                "",
                finishReason,
                request.includeUsage() ? usage : null));
      }
      Responses.sseDone(ctx, keepAlive);
      handler.exchangeDone(ctx, keepAlive);
    } else {
      ObjectNode body =
          toolPlan != null
              ? OpenAiJson.chatToolCalls(
                  responseId, created, model, toolCalls(), finishReason, usage)
              : request.endpoint() == ServedEndpoint.CHAT
                  ? OpenAiJson.chatCompletion(
                      responseId,
                      created,
                      model,
                      text.toString(),
                      reasoningText == null ? null : reasoningText.toString(),
                      finishReason,
                      usage)
                  : OpenAiJson.textCompletion(
                      responseId, created, model, text.toString(), finishReason, usage);
      Responses.json(ctx, HttpResponseStatus.OK, body, keepAlive);
      handler.exchangeDone(ctx, keepAlive);
    }
  }

  /** The tool calls sent, with the arguments as far as they went out. */
  private List<ToolTurns.Call> toolCalls() {
    List<ToolTurns.Call> sent = new java.util.ArrayList<>();
    for (int i = 0; i < toolArguments.length && toolArguments[i] != null; i++) {
      ToolTurns.Call call = request.toolCalls().get(i);
      sent.add(new ToolTurns.Call(call.id(), call.name(), toolArguments[i].toString()));
    }
    return sent;
  }

  /**
   * The blocks the reply filled enter the cache when it ends, as vLLM caches the blocks its decode
   * fills: the prompt and every reply token but the last, whose KV no server has (it was sampled,
   * never fed back), so only the blocks wholly inside {@code prompt + reply - 1} tokens. A
   * conversation's next turn, which sends the prompt and the reply back, finds them, as its plan
   * says (the previous prompt and reply, less one token). Nothing to do when they fill no new
   * block.
   */
  private void cacheReply() {
    long[] prompt = request.tokens().ids();
    int block = engine.config.blockSize();
    if (prompt == null
        || sentTokens == 0
        || (prompt.length + sentTokens - 1) / block == prompt.length / block) {
      return;
    }
    long[] reply =
        toolPlan != null
            ? engine.parser.tokenizer().replyIds(toolPlan.text(), sentTokens)
            : engine.parser.tokenizer().replyIds(sentTokens);
    if (reply == null || reply.length == 0) {
      return;
    }
    // The reply's last token was sampled, never fed back: its KV is in no cache.
    long[] all = java.util.Arrays.copyOf(prompt, prompt.length + reply.length - 1);
    System.arraycopy(reply, 0, all, prompt.length, reply.length - 1);
    engine.cache.insert(engine.cache.blockHashes(all));
  }

  /** The strategy failed: 500 if nothing was sent yet, else the connection is closed. */
  private void fail() {
    state = State.DONE;
    engine.scheduler.release();
    engine.metrics.request(500);
    if (request.stream()) {
      ctx.close();
    } else {
      ErrorReply error =
          ErrorReply.of(500, "server_error", "The simulator's response strategy failed", null);
      Responses.error(ctx, error, keepAlive, request.endpoint());
      handler.exchangeDone(ctx, keepAlive);
    }
  }

  /** The client went away: stop producing and free the slot. */
  void cancel() {
    State was = state;
    state = State.CANCELLED;
    switch (was) {
      case WAITING -> {
        engine.metrics.cancelled();
        engine.metrics.request(request.stream() ? 200 : CLIENT_CLOSED);
        // If it is no longer waiting, its admission is on its way and admit() frees the slot.
        engine.scheduler.cancelWaiting(this);
      }
      case RUNNING -> {
        if (timer != null) {
          timer.cancel(false);
          timer = null;
        }
        record(false);
        engine.metrics.cancelled();
        engine.metrics.request(request.stream() ? 200 : CLIENT_CLOSED);
        engine.scheduler.release();
      }
      default -> state = was;
    }
  }

  private List<Long> sent() {
    if (sentNanos == null) {
      return List.of();
    }
    Long[] sent = new Long[sentChunks];
    for (int i = 0; i < sentChunks; i++) {
      sent[i] = sentNanos[i];
    }
    return List.of(sent);
  }

  private void record(boolean completed) {
    long queueWait = admittedNanos - arrivalNanos;
    long firstToken = -1;
    long lastToken = 0;
    for (PlannedChunk chunk : plan) {
      if (firstToken < 0 && chunk.tokens() > 0) {
        firstToken = chunk.atNanos();
      }
      lastToken = Math.max(lastToken, chunk.atNanos());
    }
    if (firstToken < 0) {
      firstToken = lastToken;
    }
    engine.record(
        new ServedRequest(
            id,
            request.endpoint(),
            request.stream(),
            request.tokens().count(),
            cachedTokens,
            sentTokens,
            queueWait,
            queueWait + firstToken,
            queueWait + lastToken,
            completed,
            clientRequestId,
            sent()));
  }
}
