package io.github.gatlingllm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks an OpenAI-compatible server what it is before a run: {@code GET /v1/models} (OpenAI; every
 * engine), {@code GET /props} (llama.cpp) and {@code GET /version} (vLLM, SGLang), all at once,
 * each with the same timeout, with the JDK's HTTP client (no Gatling).
 *
 * <p>Never fails a run: a path that is missing, slow, refused or not JSON only leaves its fields
 * null and is logged at debug level. The API key, when given, is sent as a bearer token and never
 * logged.
 */
public final class ServerProbe {

  /** How long each probe may take by default: 2 seconds. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(ServerProbe.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private ServerProbe() {}

  /**
   * Probes the server of a base URL.
   *
   * @param baseUrl the OpenAI-compatible base URL, e.g. {@code http://127.0.0.1:8080/v1}; {@code
   *     /props} and {@code /version} are asked beside {@code /v1} (at the URL without its {@code
   *     /v1})
   * @param apiKey the bearer token, or null
   * @param timeout how long each request may take, including the connect
   * @return what the server said; never null, never throws
   */
  public static ServerInfo probe(String baseUrl, String apiKey, Duration timeout) {
    String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    String root = base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base;
    HttpClient client;
    try {
      client =
          HttpClient.newBuilder()
              .connectTimeout(timeout)
              .followRedirects(HttpClient.Redirect.NORMAL)
              .build();
    } catch (RuntimeException e) {
      LOG.debug("server probe: no HTTP client: {}", e.toString());
      return new ServerInfo(null, null, List.of(), null, null, Map.of());
    }
    Map<String, CompletableFuture<HttpResponse<String>>> calls = new LinkedHashMap<>();
    for (String url : List.of(base + "/models", root + "/props", root + "/version")) {
      calls.put(url, get(client, url, apiKey, timeout));
    }
    Map<String, Integer> answers = new LinkedHashMap<>();
    Map<String, JsonNode> bodies = new LinkedHashMap<>();
    for (Map.Entry<String, CompletableFuture<HttpResponse<String>>> call : calls.entrySet()) {
      String path = path(call.getKey());
      try {
        HttpResponse<String> response =
            call.getValue().get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
        answers.put(path, response.statusCode());
        if (response.statusCode() == 200) {
          bodies.put(path, JSON.readTree(response.body()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        answers.put(path, 0);
      } catch (Exception e) {
        // Refused, timed out, not JSON: the field stays unknown.
        answers.putIfAbsent(path, 0);
        LOG.debug("server probe: {} gave no usable answer: {}", path, e.toString());
        call.getValue().cancel(true);
      }
    }
    JsonNode models = bodies.get(path(base + "/models"));
    JsonNode props = bodies.get(path(root + "/props"));
    JsonNode version = bodies.get(path(root + "/version"));

    List<String> ids = new ArrayList<>();
    String owner = null;
    Integer context = null;
    if (models != null && models.path("data").isArray()) {
      for (JsonNode model : models.path("data")) {
        if (model.path("id").isTextual()) {
          ids.add(model.get("id").asText());
        }
        if (owner == null && model.path("owned_by").isTextual()) {
          owner = model.get("owned_by").asText();
        }
        if (context == null) {
          context = positive(model.path("meta").path("n_ctx"));
        }
        if (context == null) {
          context = positive(model.path("max_model_len"));
        }
      }
    }
    String engine = engine(owner);
    String build = null;
    Integer slots = null;
    if (props != null) {
      if (props.path("build_info").isTextual()) {
        build = props.get("build_info").asText();
        engine = "llama.cpp";
      }
      slots = positive(props.path("total_slots"));
      // A slot's context: what one request can use. llama.cpp divides -c among its -np slots;
      // builds whose /v1/models meta.n_ctx is the whole -c still say a slot's share here.
      Integer slot = positive(props.path("default_generation_settings").path("n_ctx"));
      if (slot != null && (context == null || slot < context)) {
        context = slot;
      }
    }
    if (build == null && version != null && version.path("version").isTextual()) {
      build = version.get("version").asText();
    }
    return new ServerInfo(engine, build, ids, context, slots, answers);
  }

  /**
   * Sends the one request of the pre-flight check ({@link Preflight}) and waits for its answer,
   * handing the answer's body to {@code bodySink} when one came (a later check reads the response's
   * id from it). Never throws: no answer is a {@link Preflight} without a status, with the reason.
   *
   * @param url the URL to post to; user info in it ({@code http://user:pw@host/v1}) is sent as
   *     basic authentication unless {@code headers} has an {@code Authorization}
   * @param shownUrl the URL as the result names it (credentials removed), never null
   * @param model the model the body names, never null
   * @param body the JSON body, never null
   * @param headers further headers (the run's, with its bearer token), never null
   * @param timeout how long the request may take, including the connect
   * @param bodySink takes the answer's body, or null
   * @return what came back, never null
   */
  public static Preflight preflight(
      String url,
      String shownUrl,
      String model,
      byte[] body,
      Map<String, String> headers,
      Duration timeout,
      java.util.function.Consumer<String> bodySink) {
    try {
      URI uri = URI.create(url);
      HttpRequest.Builder request =
          HttpRequest.newBuilder(withoutUserInfo(uri))
              .timeout(timeout)
              .header("Content-Type", "application/json")
              .header("Accept", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(body));
      boolean authorized = false;
      for (Map.Entry<String, String> h : headers.entrySet()) {
        request.header(h.getKey(), h.getValue());
        authorized |= h.getKey().equalsIgnoreCase("Authorization");
      }
      if (!authorized && uri.getRawUserInfo() != null) {
        request.header(
            "Authorization",
            "Basic "
                + java.util.Base64.getEncoder()
                    .encodeToString(
                        java.net.URLDecoder.decode(
                                uri.getRawUserInfo(), java.nio.charset.StandardCharsets.UTF_8)
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      }
      HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
      HttpResponse<String> response =
          client
              .sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
              .get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
      Preflight answer =
          new Preflight(
              "POST",
              shownUrl,
              model,
              response.statusCode(),
              Preflight.messageOf(response.body()),
              true);
      LOG.info("pre-flight: POST {} answered HTTP {}", shownUrl, response.statusCode());
      if (bodySink != null) {
        bodySink.accept(response.body());
      }
      return answer;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Preflight("POST", shownUrl, model, null, "interrupted", false);
    } catch (Exception e) {
      return new Preflight("POST", shownUrl, model, null, reason(e), connected(e));
    }
  }

  private static URI withoutUserInfo(URI uri) {
    if (uri.getRawUserInfo() == null) {
      return uri;
    }
    String s = uri.toString();
    return URI.create(s.replace(uri.getRawUserInfo() + "@", ""));
  }

  /** Whether a failed exchange had connected: it timed out waiting for the answer. */
  static boolean connected(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.net.http.HttpConnectTimeoutException) {
        return false;
      }
      if (t instanceof java.net.http.HttpTimeoutException
          || t instanceof java.util.concurrent.TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** The deepest cause of a failed exchange in a few words, e.g. {@code connection refused}. */
  static String reason(Throwable e) {
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.net.http.HttpConnectTimeoutException) {
        return "no connection in time";
      }
      if (t instanceof java.net.ConnectException) {
        return "connection refused";
      }
      if (t instanceof java.nio.channels.UnresolvedAddressException
          || t instanceof java.net.UnknownHostException) {
        return "unknown host";
      }
      if (t instanceof java.util.concurrent.TimeoutException
          || t instanceof java.net.http.HttpTimeoutException) {
        return "no answer in time";
      }
      root = t;
    }
    String message = root.getMessage();
    return root.getClass().getSimpleName()
        + (message == null ? "" : ": " + message.replace('\n', ' '));
  }

  private static CompletableFuture<HttpResponse<String>> get(
      HttpClient client, String url, String apiKey, Duration timeout) {
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(url))
              .timeout(timeout)
              .header("Accept", "application/json")
              .GET();
      if (apiKey != null) {
        request.header("Authorization", "Bearer " + apiKey);
      }
      return client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static String engine(String owner) {
    if (owner == null) {
      return null;
    }
    switch (owner.toLowerCase(Locale.ROOT)) {
      case "llamacpp":
        return "llama.cpp";
      case "vllm":
        return "vLLM";
      case "sglang":
        return "SGLang";
      case "gatling-llm":
        return "gatling-llm simulator";
      default:
        return null;
    }
  }

  private static Integer positive(JsonNode node) {
    return node.canConvertToInt() && node.isIntegralNumber() && node.asInt() > 0
        ? node.asInt()
        : null;
  }

  private static String path(String url) {
    try {
      return URI.create(url).getRawPath();
    } catch (IllegalArgumentException e) {
      return url;
    }
  }
}
