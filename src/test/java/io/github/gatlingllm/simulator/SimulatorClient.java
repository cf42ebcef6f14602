package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** A plain HTTP/1.1 client of a simulator, over loopback, with client-side SSE timestamps. */
final class SimulatorClient {

  static final ObjectMapper JSON = new ObjectMapper();

  /** A complete response. */
  record Response(int status, String contentType, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (JsonProcessingException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  /** One SSE {@code data:} line and when the client read it ({@link System#nanoTime()}). */
  record Event(long nanos, String data) {
    boolean done() {
      return data.equals("[DONE]");
    }

    JsonNode json() {
      try {
        return JSON.readTree(data);
      } catch (JsonProcessingException e) {
        throw new AssertionError("not JSON: " + data, e);
      }
    }
  }

  /** A streamed response: status, content type, when the request was sent, and its events. */
  record SseResponse(int status, String contentType, long sentNanos, List<Event> events) {

    /** The events that carry output text (chat content deltas or completions text). */
    List<Event> contentEvents() {
      List<Event> content = new ArrayList<>();
      for (Event event : events) {
        if (event.done()) {
          continue;
        }
        JsonNode choices = event.json().path("choices");
        if (choices.isEmpty()) {
          continue;
        }
        JsonNode choice = choices.get(0);
        String text =
            choice.has("delta")
                ? choice.path("delta").path("content").asText("")
                : choice.path("text").asText("");
        if (!text.isEmpty()) {
          content.add(event);
        }
      }
      return content;
    }

    /** Client-side time to first content event, in milliseconds. */
    double ttftMs() {
      return (contentEvents().get(0).nanos() - sentNanos) / 1e6;
    }

    /** Client-side time to the last content event, in milliseconds. */
    double lastContentMs() {
      List<Event> content = contentEvents();
      return (content.get(content.size() - 1).nanos() - sentNanos) / 1e6;
    }
  }

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String root;
  private final int port;

  SimulatorClient(Simulator simulator) {
    this.port = simulator.port();
    this.root = "http://127.0.0.1:" + port;
  }

  /** A JSON object from alternating keys and values, in order. */
  static Map<String, Object> body(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  /** A chat body with one user message. */
  static Map<String, Object> chat(String content, Object... more) {
    Map<String, Object> map =
        body("model", "any", "messages", List.of(Map.of("role", "user", "content", content)));
    map.putAll(body(more));
    return map;
  }

  /** A completions body. */
  static Map<String, Object> completion(String prompt, Object... more) {
    Map<String, Object> map = body("model", "any", "prompt", prompt);
    map.putAll(body(more));
    return map;
  }

  /** {@code n} distinct words: {@code prefix0 prefix1 ...}. */
  static String words(String prefix, int n) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        text.append(' ');
      }
      text.append(prefix).append(i);
    }
    return text.toString();
  }

  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  Response get(String path) {
    return send(HttpRequest.newBuilder(URI.create(root + path)).GET().build());
  }

  Response post(String path, Object body) {
    return postRaw(path, json(body));
  }

  Response post(String path, Object body, String header, String value) {
    return send(
        HttpRequest.newBuilder(URI.create(root + path))
            .header("Content-Type", "application/json")
            .header(header, value)
            .POST(HttpRequest.BodyPublishers.ofString(json(body)))
            .build());
  }

  Response postRaw(String path, String body) {
    return send(
        HttpRequest.newBuilder(URI.create(root + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  private Response send(HttpRequest request) {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Response(
          response.statusCode(),
          response.headers().firstValue("content-type").orElse(null),
          response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * Opens a raw connection and sends one HTTP/1.1 POST on it, for tests that must control the
   * socket (disconnects, pipelining).
   */
  Socket rawPost(String path, Object body) throws IOException {
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    byte[] bytes = json(body).getBytes(StandardCharsets.UTF_8);
    String head =
        "POST "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + bytes.length
            + "\r\n\r\n";
    OutputStream out = socket.getOutputStream();
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
    return socket;
  }

  /** Reads from a socket until the text read so far contains {@code marker}; returns the text. */
  static String readUntil(Socket socket, String marker) throws IOException {
    StringBuilder text = new StringBuilder();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    while (text.indexOf(marker) < 0) {
      int n = in.read(buffer);
      if (n < 0) {
        throw new AssertionError("connection closed before \"" + marker + "\": " + text);
      }
      text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
    }
    return text.toString();
  }

  /** Posts a streamed request and reads its SSE {@code data:} lines as they arrive. */
  SseResponse stream(String path, Object body) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(root + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json(body)))
            .build();
    long sent = System.nanoTime();
    try {
      HttpResponse<Stream<String>> response =
          http.send(request, HttpResponse.BodyHandlers.ofLines());
      List<Event> events = new ArrayList<>();
      try (Stream<String> lines = response.body()) {
        for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
          String line = it.next();
          long at = System.nanoTime();
          if (line.startsWith("data: ")) {
            events.add(new Event(at, line.substring("data: ".length())));
          } else if (!line.isEmpty()) {
            throw new AssertionError("unexpected SSE line: " + line);
          }
        }
      }
      return new SseResponse(
          response.statusCode(),
          response.headers().firstValue("content-type").orElse(null),
          sent,
          events);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
