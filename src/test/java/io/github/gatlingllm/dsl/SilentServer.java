package io.github.gatlingllm.dsl;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A streaming chat completions server on loopback that goes silent as a hung engine does (llama.cpp
 * after SIGTERM, or under SIGSTOP): it answers its first requests whole, then answers each later
 * one with its head and first two events and holds the connection open, writing nothing more, until
 * it is released (after a set time, or when it closes). It can also wait before every answer, as a
 * server slow to its first token does. Every other path is a 404.
 */
final class SilentServer implements AutoCloseable {

  private static final String ROLE =
      "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"x\",\"choices\":"
          + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
          + "\"finish_reason\":null}]}\n\n";
  private static final String TOKEN =
      "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"x\",\"choices\":"
          + "[{\"index\":0,\"delta\":{\"content\":\" hi\"},\"finish_reason\":null}]}\n\n";
  private static final String FINISH =
      "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"x\",\"choices\":"
          + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n";
  private static final String USAGE =
      "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"x\",\"choices\":[],"
          + "\"usage\":{\"prompt_tokens\":32,\"completion_tokens\":16,\"total_tokens\":48}}\n\n";
  private static final String DONE = "data: [DONE]\n\n";

  /** The tokens of every answer (the simulations ask for 16). */
  private static final int TOKENS = 16;

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger received = new AtomicInteger();
  private final AtomicInteger held = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicBoolean releaseTimer = new AtomicBoolean();
  private final int answerFirst;
  private final long firstByteDelayMs;
  private final long releaseAfterMs;

  /**
   * Starts a server on a free loopback port.
   *
   * @param answerFirst how many requests are answered whole before the silence (a very large
   *     number: never silent)
   * @param firstByteDelayMs how long every request waits before its head
   * @param releaseAfterMs how long the silence lasts from its first held request, or -1 until the
   *     server closes
   */
  SilentServer(int answerFirst, long firstByteDelayMs, long releaseAfterMs) throws IOException {
    this.answerFirst = answerFirst;
    this.firstByteDelayMs = firstByteDelayMs;
    this.releaseAfterMs = releaseAfterMs;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The base URL, {@code http://127.0.0.1:PORT/v1}. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** The chat completions requests received so far. */
  int received() {
    return received.get();
  }

  /** The requests held silent so far. */
  int held() {
    return held.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getRequestBody().readAllBytes();
      if (!exchange.getRequestURI().getPath().equals("/v1/chat/completions")) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      int n = received.incrementAndGet();
      Thread.sleep(firstByteDelayMs);
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      write(out, ROLE + TOKEN);
      if (n > answerFirst && release.getCount() > 0) {
        held.incrementAndGet();
        if (releaseAfterMs >= 0 && releaseTimer.compareAndSet(false, true)) {
          threads.execute(
              () -> {
                try {
                  Thread.sleep(releaseAfterMs);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                release.countDown();
              });
        }
        release.await();
      }
      StringBuilder rest = new StringBuilder();
      for (int i = 1; i < TOKENS; i++) {
        rest.append(TOKEN);
      }
      write(out, rest + FINISH + USAGE + DONE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away (the run stopped, or its JVM ended)
    }
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Override
  public void close() throws InterruptedException {
    release.countDown();
    server.stop(0);
    threads.shutdownNow();
    threads.awaitTermination(5, TimeUnit.SECONDS);
  }
}
