package io.github.gatlingllm.gatling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A loopback HTTP/1.1 server on a raw {@link ServerSocket} that answers each POST with exactly the
 * bytes of one fault case, so line ends, chunk boundaries, closes, resets and silences are under
 * the test's control. Binds 127.0.0.1 only; one daemon thread per connection.
 *
 * <p>Keep-alive, as LLM servers are: after a reply that ended its response ({@link Wire#end()},
 * {@link Wire#full}), the connection waits for the next request, unless the request said {@code
 * Connection: close}; after any other reply (a reset, a close, a silence, a response left
 * unfinished) the connection is closed. Heads carry no {@code Connection} header.
 *
 * <p>The case of a request is chosen from its prompt by {@code pick} (e.g. by the prompt's nonce),
 * so the answer does not depend on arrival order. It counts the TCP connections that carried a POST
 * and the POSTs of each prompt; other requests (the run's server probe: {@code GET /v1/models}...)
 * are answered 404 and counted apart.
 */
final class ReplayServer implements AutoCloseable {

  /** What a case writes on the connection after the request was read. */
  @FunctionalInterface
  interface Reply {
    void write(Wire wire) throws IOException, InterruptedException;
  }

  /** The connection of one request, with helpers that write raw bytes. */
  static final class Wire {
    /** How long {@link #pause()} waits, in ms. */
    static final long PAUSE_MS = 100;

    private final Socket socket;
    private final OutputStream out;
    private boolean ended;
    private boolean closed;

    Wire(Socket socket) throws IOException {
      this.socket = socket;
      this.out = socket.getOutputStream();
    }

    /** Writes bytes as they are and flushes. */
    Wire raw(byte[] bytes) throws IOException {
      out.write(bytes);
      out.flush();
      return this;
    }

    /** Writes ISO-8859-1 text as it is and flushes. */
    Wire raw(String text) throws IOException {
      return raw(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The head of a chunked 200 {@code text/event-stream} response. */
    Wire sseHead() throws IOException {
      return raw(
          "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n");
    }

    /**
     * The head of a 200 {@code text/event-stream} response whose body is {@code length} bytes long
     * ({@code Content-Length}, no chunks).
     */
    Wire sseHeadWithLength(int length) throws IOException {
      return raw(
          "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
              + "Content-Length: "
              + length
              + "\r\n\r\n");
    }

    /** One SSE event {@code data: <data>\n\n} as raw body bytes (no chunk framing). */
    Wire rawEvent(String data) throws IOException {
      return raw(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    }

    /** One HTTP chunk holding {@code bytes}. */
    Wire chunk(byte[] bytes) throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream(bytes.length + 16);
      b.writeBytes(
          (Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      b.writeBytes(bytes);
      b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
      return raw(b.toByteArray());
    }

    /** One HTTP chunk holding UTF-8 {@code text}. */
    Wire chunk(String text) throws IOException {
      return chunk(text.getBytes(StandardCharsets.UTF_8));
    }

    /** One chunk per SSE event {@code data: <data>\n\n}. */
    Wire events(String... data) throws IOException {
      for (String d : data) {
        chunk("data: " + d + "\n\n");
      }
      return this;
    }

    /** The last chunk: the response ends cleanly and the connection may carry the next request. */
    Wire end() throws IOException {
      raw("0\r\n\r\n");
      ended = true;
      return this;
    }

    /** A complete response with a body and its length; the connection stays open. */
    Wire full(int status, String reason, String contentType, String body) throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      raw(
          "HTTP/1.1 "
              + status
              + " "
              + reason
              + "\r\nContent-Type: "
              + contentType
              + "\r\nContent-Length: "
              + bytes.length
              + "\r\n\r\n");
      raw(bytes);
      ended = true;
      return this;
    }

    /**
     * Waits {@link #PAUSE_MS} so the client has read what was written: a TCP reset makes the
     * client's kernel drop the bytes it received and the client has not read yet.
     */
    Wire pause() throws InterruptedException {
      Thread.sleep(PAUSE_MS);
      return this;
    }

    /** Closes the connection cleanly (FIN), wherever the response is. */
    void close() throws IOException {
      closed = true;
      socket.close();
    }

    /**
     * Half-closes the connection (FIN: the server sends nothing more) and keeps it open for reading
     * for {@code holdMs}, or until the client closes it, before closing it.
     */
    void halfClose(long holdMs) throws IOException {
      closed = true;
      socket.shutdownOutput();
      socket.setSoTimeout((int) holdMs);
      try {
        InputStream in = socket.getInputStream();
        byte[] drain = new byte[4096];
        while (in.read(drain) >= 0) {
          // the client's bytes, if any, are not a request any more
        }
      } catch (IOException e) {
        // the hold is over, or the client reset the connection
      }
      socket.close();
    }

    /** Closes the connection with a TCP reset instead of a clean close. */
    void reset() throws IOException {
      closed = true;
      socket.setSoLinger(true, 0);
      socket.close();
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ServerSocket server;
  private final Function<String, Reply> pick;
  private final Map<Socket, Boolean> open = new ConcurrentHashMap<>();
  private final Map<String, Integer> served = new ConcurrentHashMap<>();
  private final Map<String, Integer> positions = new ConcurrentHashMap<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger postConnections = new AtomicInteger();
  private final AtomicInteger posts = new AtomicInteger();
  private final AtomicInteger otherRequests = new AtomicInteger();
  private final AtomicInteger idleConnections = new AtomicInteger();
  private final Thread acceptor;
  private volatile boolean closed;

  /**
   * Starts a server on a free loopback port.
   *
   * @param pick the reply for a request's prompt text (chat {@code messages[0].content} or {@code
   *     prompt}); null for an unknown prompt, answered with 500
   */
  ReplayServer(Function<String, Reply> pick) throws IOException {
    this.pick = pick;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    this.acceptor = new Thread(this::accept, "replay-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** How many POSTs came with each prompt text. */
  Map<String, Integer> served() {
    return Map.copyOf(served);
  }

  /**
   * Where each prompt's (last) POST came on its connection: 1 for the first request of a new
   * connection, more for a connection kept alive from an earlier request.
   */
  Map<String, Integer> positions() {
    return Map.copyOf(positions);
  }

  /** The TCP connections accepted, whatever they carried. */
  int accepted() {
    return accepted.get();
  }

  /** The TCP connections that carried at least one POST. */
  int postConnections() {
    return postConnections.get();
  }

  /** The POSTs received, whatever their prompt. */
  int posts() {
    return posts.get();
  }

  /**
   * The TCP connections that ended (closed or reset by the client) before they carried any request:
   * opened and dropped, e.g. a retry closed before it was written.
   */
  int idleConnections() {
    return idleConnections.get();
  }

  /** The requests other than POST (the server probe's GETs). */
  int otherRequests() {
    return otherRequests.get();
  }

  int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!closed) {
      try {
        Socket socket = server.accept();
        // Each write leaves at once (no Nagle delay), so the client sees the server's timing.
        socket.setTcpNoDelay(true);
        accepted.incrementAndGet();
        open.put(socket, Boolean.TRUE);
        Thread t = new Thread(() -> serve(socket), "replay-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        if (!closed) {
          System.err.println("replay server: accept failed: " + e);
        }
      }
    }
  }

  private void serve(Socket socket) {
    boolean carriedPost = false;
    int position = 0;
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      while (true) {
        Request request = Request.read(in);
        if (request == null) {
          if (position == 0) {
            idleConnections.incrementAndGet();
          }
          return;
        }
        Wire wire = new Wire(socket);
        position++;
        if (!request.method().equals("POST")) {
          otherRequests.incrementAndGet();
          wire.full(404, "Not Found", "application/json", "{\"error\":\"not served here\"}");
        } else {
          posts.incrementAndGet();
          if (!carriedPost) {
            carriedPost = true;
            postConnections.incrementAndGet();
          }
          String prompt = promptOf(request.body());
          served.merge(prompt, 1, Integer::sum);
          positions.put(prompt, position);
          Reply reply = pick.apply(prompt);
          if (reply == null) {
            wire.full(500, "Internal Server Error", "text/plain", "replay server: unknown prompt");
          } else {
            reply.write(wire);
          }
        }
        if (wire.closed || !wire.ended || request.close()) {
          return;
        }
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      // The client went away or the case reset the connection: nothing more to do.
      if (position == 0 && !closed) {
        idleConnections.incrementAndGet();
      }
    } finally {
      open.remove(socket);
    }
  }

  private static String promptOf(String body) {
    try {
      JsonNode request = JSON.readTree(body);
      JsonNode messages = request.path("messages");
      if (messages.isArray() && !messages.isEmpty()) {
        return messages.get(0).path("content").asText("");
      }
      return request.path("prompt").asText("");
    } catch (IOException e) {
      return "";
    }
  }

  /** One request's method, body and whether it asked to close the connection after it. */
  private record Request(String method, String body, boolean close) {

    /** Reads one request (Content-Length bodies only), or null at the end of the stream. */
    static Request read(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int matched = 0;
      byte[] end = {'\r', '\n', '\r', '\n'};
      while (matched < 4) {
        int b = in.read();
        if (b < 0) {
          return null;
        }
        head.write(b);
        matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
      String method = lines[0].split(" ", 2)[0];
      int length = 0;
      boolean close = false;
      for (String line : lines) {
        String lower = line.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          length = Integer.parseInt(line.substring("content-length:".length()).strip());
        } else if (lower.startsWith("connection:") && lower.contains("close")) {
          close = true;
        }
      }
      return new Request(method, new String(in.readNBytes(length), StandardCharsets.UTF_8), close);
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    for (Socket s : List.copyOf(open.keySet())) {
      s.close();
    }
  }
}
