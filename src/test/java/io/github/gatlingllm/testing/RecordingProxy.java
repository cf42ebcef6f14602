package io.github.gatlingllm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on a free loopback port in front of an LLM server, for agent-session tests: it
 * keeps each chat, Responses or Messages request's body and session header and the reply's bytes
 * (buffered: the reply reaches the client whole, so its timings are not the server's), so a test
 * sees what went on the wire. It can also fail one turn of every session with HTTP 500 instead of
 * forwarding it, as a server that breaks mid-session does.
 *
 * <p>The static helpers read tool calls out of replies and request bodies in each API's shape.
 * Thread-safe.
 */
public final class RecordingProxy implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One exchange as the proxy saw it.
   *
   * @param session the session header's value, null when absent
   * @param path the request path, e.g. {@code /v1/chat/completions}
   * @param request the request body
   * @param status the HTTP status the client got
   * @param reply the reply's body as text
   */
  public record Exchange(String session, String path, JsonNode request, int status, String reply) {}

  private final HttpServer server;
  private final List<Exchange> exchanges = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();

  private RecordingProxy(HttpServer server) {
    this.server = server;
  }

  /**
   * Starts a proxy.
   *
   * @param upstream the server's origin, e.g. {@code http://127.0.0.1:8080} (a path is ignored)
   * @param sessionHeader the header naming a request's session
   * @param failTurn the turn (from 1, counted by session header) of every session answered with
   *     HTTP 500 instead of being forwarded; 0 for none
   * @return the running proxy
   * @throws IOException if no port can be bound
   */
  public static RecordingProxy start(String upstream, String sessionHeader, int failTurn)
      throws IOException {
    URI origin = URI.create(upstream);
    String base = origin.getScheme() + "://" + origin.getHost() + ":" + origin.getPort();
    HttpClient client = HttpClient.newHttpClient();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    RecordingProxy proxy = new RecordingProxy(server);
    server.createContext(
        "/", exchange -> proxy.handle(exchange, client, base, sessionHeader, failTurn));
    server.start();
    return proxy;
  }

  private void handle(
      HttpExchange exchange, HttpClient client, String base, String sessionHeader, int failTurn)
      throws IOException {
    try {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String path = exchange.getRequestURI().getPath();
      boolean llm =
          path.endsWith("/chat/completions")
              || path.endsWith("/responses")
              || path.endsWith("/messages");
      String session = exchange.getRequestHeaders().getFirst(sessionHeader);
      int turn =
          llm && session != null
              ? turns.computeIfAbsent(session, s -> new AtomicInteger()).incrementAndGet()
              : 0;
      int status;
      byte[] reply;
      String type;
      if (llm && failTurn > 0 && turn == failTurn) {
        status = 500;
        reply =
            "{\"error\":{\"message\":\"recording proxy: turn fails on purpose\",\"code\":500}}"
                .getBytes(StandardCharsets.UTF_8);
        type = "application/json";
      } else {
        HttpRequest.Builder forward =
            HttpRequest.newBuilder(URI.create(base + exchange.getRequestURI()));
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null) {
          forward.header("Content-Type", contentType);
        }
        forward.method(
            exchange.getRequestMethod(),
            body.length == 0
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<byte[]> answer =
            client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
        status = answer.statusCode();
        reply = answer.body();
        type = answer.headers().firstValue("Content-Type").orElse(null);
      }
      if (llm) {
        exchanges.add(
            new Exchange(
                session,
                path,
                JSON.readTree(body),
                status,
                new String(reply, StandardCharsets.UTF_8)));
      }
      if (type != null) {
        exchange.getResponseHeaders().set("Content-Type", type);
      }
      exchange.sendResponseHeaders(status, reply.length == 0 ? -1 : reply.length);
      exchange.getResponseBody().write(reply);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(502, -1);
    } finally {
      exchange.close();
    }
  }

  /** The proxy's base URL for {@code -Dllm.baseUrl}: {@code http://127.0.0.1:PORT/v1}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** The LLM exchanges so far, in arrival order. */
  public List<Exchange> exchanges() {
    synchronized (exchanges) {
      return List.copyOf(exchanges);
    }
  }

  /** The LLM exchanges that carried a session header, by its value, each in arrival order. */
  public Map<String, List<Exchange>> bySession() {
    Map<String, List<Exchange>> by = new LinkedHashMap<>();
    for (Exchange e : exchanges()) {
      if (e.session() != null) {
        by.computeIfAbsent(e.session(), k -> new ArrayList<>()).add(e);
      }
    }
    return by;
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /**
   * The tool calls of a chat completions reply, streamed or not, as a chat request threads them
   * back: {@code [{id, type, function: {name, arguments}}]}, arguments assembled from the deltas.
   *
   * @param reply the reply's body
   * @return a new array, empty for none
   * @throws IOException if a line is not JSON
   */
  public static ArrayNode chatCalls(String reply) throws IOException {
    ArrayNode calls = JSON.createArrayNode();
    if (!reply.startsWith("data:")) {
      JsonNode c = JSON.readTree(reply).path("choices").path(0).path("message").path("tool_calls");
      if (c.isArray()) {
        calls.addAll((ArrayNode) c);
      }
      return calls;
    }
    Map<Integer, String[]> byIndex = new TreeMap<>();
    for (String line : reply.split("\n")) {
      if (!line.startsWith("data:") || line.contains("[DONE]")) {
        continue;
      }
      JsonNode deltas = JSON.readTree(line.substring(5)).path("choices").path(0).path("delta");
      for (JsonNode d : deltas.path("tool_calls")) {
        String[] call = byIndex.computeIfAbsent(d.path("index").asInt(), i -> new String[3]);
        if (call[0] == null && d.hasNonNull("id")) {
          call[0] = d.get("id").asText();
        }
        JsonNode f = d.path("function");
        if (call[1] == null && f.hasNonNull("name")) {
          call[1] = f.get("name").asText();
        }
        if (f.hasNonNull("arguments")) {
          call[2] = (call[2] == null ? "" : call[2]) + f.get("arguments").asText();
        }
      }
    }
    for (String[] c : byIndex.values()) {
      var o = calls.addObject().put("id", c[0]).put("type", "function");
      o.putObject("function").put("name", c[1]).put("arguments", c[2] == null ? "" : c[2]);
    }
    return calls;
  }

  /**
   * The tool calls of a streamed Responses or Messages reply, in order: {@code [id, name,
   * arguments]} (Messages: the input JSON as streamed).
   *
   * @param reply the reply's body
   * @return a new list, empty for none
   * @throws IOException if a data line is not JSON
   */
  public static List<List<String>> streamedCalls(String reply) throws IOException {
    List<List<String>> calls = new ArrayList<>();
    StringBuilder input = null;
    String[] open = null;
    for (String line : reply.split("\n")) {
      if (!line.startsWith("data:")) {
        continue;
      }
      JsonNode e = JSON.readTree(line.substring(5));
      String type = e.path("type").asText();
      if (type.equals("response.output_item.done")
          && e.path("item").path("type").asText().equals("function_call")) {
        JsonNode item = e.get("item");
        calls.add(
            List.of(
                item.get("call_id").asText(),
                item.get("name").asText(),
                item.get("arguments").asText()));
      } else if (type.equals("content_block_start")
          && e.path("content_block").path("type").asText().equals("tool_use")) {
        open =
            new String[] {
              e.get("content_block").get("id").asText(), e.get("content_block").get("name").asText()
            };
        input = new StringBuilder();
      } else if (type.equals("content_block_delta")
          && e.path("delta").path("type").asText().equals("input_json_delta")) {
        input.append(e.get("delta").get("partial_json").asText());
      } else if (type.equals("content_block_stop") && open != null) {
        calls.add(List.of(open[0], open[1], input.toString()));
        open = null;
      }
    }
    return calls;
  }

  /**
   * The history array of a request body: chat and Messages {@code messages}, Responses {@code
   * input}.
   *
   * @param request the body
   * @return the array node
   */
  public static JsonNode history(JsonNode request) {
    return request.has("input") ? request.get("input") : request.get("messages");
  }

  /**
   * Every tool call a Responses or Messages body threads back, in order: {@code [id, name,
   * arguments]} (Messages: the {@code input} object's JSON text).
   *
   * @param request the body
   * @return a new list
   */
  public static List<List<String>> sentCalls(JsonNode request) {
    List<List<String>> calls = new ArrayList<>();
    for (JsonNode item : history(request)) {
      if (item.path("type").asText().equals("function_call")) {
        calls.add(
            List.of(
                item.get("call_id").asText(),
                item.get("name").asText(),
                item.get("arguments").asText()));
      }
      for (JsonNode block : item.path("content")) {
        if (block.path("type").asText().equals("tool_use")) {
          calls.add(
              List.of(
                  block.get("id").asText(),
                  block.get("name").asText(),
                  block.get("input").toString()));
        }
      }
    }
    return calls;
  }
}
