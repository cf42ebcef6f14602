package io.github.gatlingllm.api;

import io.github.gatlingllm.metrics.AnswerTimings;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.RequestTimings;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * A test client that speaks one API through its dialect over plain HTTP (no Gatling): sends a body,
 * feeds the streamed answer to the dialect's parser as its bytes arrive and times it with {@link
 * RequestTimer}, or reads a non-streamed body with {@link Dialect#parseResponse}.
 */
public final class DialectClient {

  /**
   * One answer.
   *
   * @param status the HTTP status
   * @param timings the timings of a 200 stream, else null
   * @param answer the reasoning and answer phases of a 200 stream, else null
   * @param text the answer text of a 200 stream or body
   * @param parser the stream's parser, else null
   * @param body the body of a non-streamed answer or an error, else null
   * @param response the parsed non-streamed body, else null
   */
  public record Result(
      int status,
      RequestTimings timings,
      AnswerTimings answer,
      String text,
      EventParser parser,
      String body,
      StreamEvent response) {}

  private DialectClient() {}

  /**
   * Sends one request.
   *
   * @param baseUrl the API base, for example {@code http://127.0.0.1:8000/v1}
   * @param api the API
   * @param body the request body
   * @param apiKey the key, or null
   * @param stream whether the body asks for a stream
   * @return the answer
   * @throws IOException if the exchange fails
   * @throws InterruptedException if interrupted
   */
  public static Result send(String baseUrl, WireApi api, String body, String apiKey, boolean stream)
      throws IOException, InterruptedException {
    Dialect dialect = api.dialect();
    String base = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + dialect.path()))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (Map.Entry<String, String> h : dialect.headers(apiKey).entrySet()) {
      request.header(h.getKey(), h.getValue());
    }
    long startNanos = System.nanoTime();
    // A client a request: llama.cpp closes the connection after each streamed answer without
    // saying so, and a pooled connection would then answer nothing.
    HttpResponse<InputStream> response =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .build()
            .send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200 || !stream) {
      String text;
      try (InputStream in = response.body()) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      StreamEvent parsed = dialect.parseResponse(text);
      return new Result(response.statusCode(), null, null, parsed.content(), null, text, parsed);
    }
    RequestTimer timer =
        new RequestTimer(System.currentTimeMillis(), startNanos, dialect.terminalEvent());
    StringBuilder text = new StringBuilder();
    long[] arrival = {0};
    EventParser parser =
        dialect.parser(
            new EventParser.Listener() {
              @Override
              public boolean wantsText() {
                return true;
              }

              @Override
              public void onEvent(StreamEvent event) {
                if (event.content() != null) {
                  text.append(event.content());
                }
                timer.onEvent(arrival[0], event);
              }
            });
    try (InputStream in = response.body()) {
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) > 0) {
        arrival[0] = System.nanoTime();
        parser.feed(buffer, 0, n);
      }
    }
    parser.end();
    RequestTimings timings = timer.finish(timer.lastEventNanos(), null);
    return new Result(200, timings, timer.answer(null), text.toString(), parser, null, null);
  }
}
