package io.github.gatlingllm.llama;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on a free loopback port in front of an HTTP/1.1 server, which counts the client's
 * connections exactly: each connection a client opens to it is one accepted here, carried to the
 * server on one connection of its own. Bytes go on unchanged both ways as they arrive ({@code
 * TCP_NODELAY} on every socket, so a small SSE chunk is not held back), and a half-close or a close
 * on one side is passed to the other, so the server's keep-alive behaviour reaches the client as it
 * is.
 *
 * <p>It frames the requests on each client connection (request line, headers, a {@code
 * Content-Length} body) to say which connection carried which request, in arrival order. A request
 * it cannot frame (a chunked body, a head over 64 KiB, a bad {@code Content-Length}) is noted in
 * {@link #framingErrors()}; the bytes still go through.
 *
 * <p>Thread-safe. Blocking I/O: one thread to accept, two per connection, all daemon threads.
 */
final class CountingProxy implements AutoCloseable {

  /**
   * One request as it arrived.
   *
   * @param connection the connection's number, from 0 in accept order
   * @param sequence the request's number over all connections, from 0 in arrival order
   * @param method e.g. {@code POST}
   * @param target the request target, e.g. {@code /v1/chat/completions}
   */
  record Request(int connection, int sequence, String method, String target) {}

  private static final int MAX_HEAD_BYTES = 64 * 1024;
  private static final int CRLF_CRLF = 0x0d0a0d0a;

  private final ServerSocket listener;
  private final InetSocketAddress server;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger sequence = new AtomicInteger();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final List<String> framingErrors = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  private CountingProxy(ServerSocket listener, InetSocketAddress server) {
    this.listener = listener;
    this.server = server;
  }

  /**
   * Starts forwarding from a free port on 127.0.0.1 to {@code host:port}.
   *
   * @param host the server's host
   * @param port the server's port
   * @return the running proxy
   * @throws IOException if no port can be bound
   */
  static CountingProxy start(String host, int port) throws IOException {
    ServerSocket listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    CountingProxy proxy = new CountingProxy(listener, new InetSocketAddress(host, port));
    daemon("proxy-accept", proxy::accept).start();
    return proxy;
  }

  /** The port it listens on, on 127.0.0.1. */
  int port() {
    return listener.getLocalPort();
  }

  /** The connections accepted so far. */
  int connections() {
    return connections.get();
  }

  /** The requests framed so far, in arrival order. */
  List<Request> requests() {
    List<Request> list = new ArrayList<>(requests);
    list.sort((a, b) -> Integer.compare(a.sequence(), b.sequence()));
    return list;
  }

  /** What could not be framed, one line each; empty when every request was framed. */
  List<String> framingErrors() {
    return List.copyOf(framingErrors);
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(listener);
    sockets.forEach(CountingProxy::closeQuietly);
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      int id = connections.getAndIncrement();
      sockets.add(client);
      Socket upstream = new Socket();
      sockets.add(upstream);
      try {
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        upstream.connect(server, 5_000);
      } catch (IOException e) {
        framingErrors.add("connection " + id + ": cannot reach " + server + ": " + e);
        closeQuietly(client);
        closeQuietly(upstream);
        continue;
      }
      RequestFramer framer = new RequestFramer(id);
      daemon("proxy-" + id + "-up", () -> pump(client, upstream, framer)).start();
      daemon("proxy-" + id + "-down", () -> pump(upstream, client, null)).start();
    }
  }

  /** Copies {@code from} to {@code to} until end of stream, then half-closes {@code to}. */
  private void pump(Socket from, Socket to, RequestFramer framer) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (framer != null) {
          framer.feed(buffer, n);
        }
        out.write(buffer, 0, n);
      }
      to.shutdownOutput();
      if (from.isOutputShutdown()) {
        closeQuietly(from);
        closeQuietly(to);
      }
    } catch (IOException e) {
      // A reset or a close on either side: close both, as the peer would see it.
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  /** Splits one connection's client bytes into requests. */
  private final class RequestFramer {
    private final int connection;
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    private long bodyLeft;
    private int lastFour;
    private boolean lost;

    RequestFramer(int connection) {
      this.connection = connection;
    }

    void feed(byte[] bytes, int length) {
      int i = 0;
      while (i < length && !lost) {
        if (bodyLeft > 0) {
          int skip = (int) Math.min(bodyLeft, length - i);
          bodyLeft -= skip;
          i += skip;
          continue;
        }
        byte b = bytes[i++];
        head.write(b);
        lastFour = (lastFour << 8) | (b & 0xff);
        if (head.size() > MAX_HEAD_BYTES) {
          lose("a request head over " + MAX_HEAD_BYTES + " bytes");
        } else if (lastFour == CRLF_CRLF) {
          onHead(head.toString(StandardCharsets.ISO_8859_1));
          head.reset();
          lastFour = 0;
        }
      }
    }

    private void onHead(String text) {
      String[] lines = text.split("\r\n");
      String[] requestLine = lines[0].split(" ");
      if (requestLine.length != 3) {
        lose("a request line that is not METHOD TARGET VERSION: " + lines[0]);
        return;
      }
      long length = 0;
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon < 0) {
          continue;
        }
        String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = lines[i].substring(colon + 1).trim();
        if (name.equals("transfer-encoding")) {
          lose("a request body with Transfer-Encoding: " + value);
          return;
        }
        if (name.equals("content-length")) {
          try {
            length = Long.parseLong(value);
          } catch (NumberFormatException e) {
            lose("Content-Length: " + value);
            return;
          }
        }
      }
      requests.add(
          new Request(connection, sequence.getAndIncrement(), requestLine[0], requestLine[1]));
      bodyLeft = length;
    }

    private void lose(String why) {
      lost = true;
      framingErrors.add("connection " + connection + ": cannot frame " + why);
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    return t;
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing anyway
    }
  }
}
