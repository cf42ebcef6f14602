package io.github.gatlingllm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Locale;

/**
 * What the one request sent before any load got ({@link ServerProbe#preflight}), and whether the
 * run may go on, as vLLM's {@code bench serve} sends one test request first and stops on a clear
 * error.
 *
 * <p>The run stops ({@link #stopLine()} is not null) when the target is plainly not there or not
 * this one: no answer at all (refused, unknown host, connect timeout), HTTP 404 (a wrong URL or,
 * for vLLM and OpenAI, a model the server does not serve), 401 or 403 (credentials), or another 4xx
 * whose message names the model, or a 2xx whose body is a web page (markup, not JSON). Anything
 * else (200, 429, 5xx, a 400 about the request's fields, a request that timed out after connecting)
 * lets the run go on: a busy or picky server is what a load test measures.
 *
 * @param method the HTTP method sent, e.g. {@code POST}, never null
 * @param url the URL the request went to, credentials removed, never null
 * @param model the model the request named, never null
 * @param status the answer's HTTP status, or null when none came
 * @param message the answer's error message ({@code error.message}, {@code message}, {@code
 *     detail}, or the body's first 200 characters on one line), or the reason no answer came; null
 *     when there is nothing to say
 * @param connected whether a connection was made (false: refused, unknown host, no connection in
 *     time); true whenever a status came
 */
public record Preflight(
    String method, String url, String model, Integer status, String message, boolean connected) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The message with control characters (a garbage reply's bytes, a terminal escape sequence a
   * server sent) shown as {@code ?}: it goes to the console as it is.
   */
  public Preflight {
    if (message != null) {
      message = message.replaceAll("\\p{Cntrl}", "?");
    }
  }

  /** The most characters of a body quoted when it has no error message. */
  static final int MAX_QUOTED_CHARS = 200;

  /**
   * The line that stops the run, naming the URL, the status and the server's message; null when the
   * run may go on.
   *
   * @return e.g. {@code llm pre-flight: POST http://127.0.0.1:8000/v1/chat/completions answered
   *     HTTP 404: "The model `x` does not exist." ...}, or null
   */
  public String stopLine() {
    return stopLine(java.util.List.of());
  }

  /**
   * As {@link #stopLine()}, naming the models the server serves when the answer is about the model:
   * {@code ...answered HTTP 404: The model `foo` does not exist.; llm.model foo is not one the
   * server serves: it serves qwen3 (GET /v1/models) ...}.
   *
   * @param served the model ids the server's {@code /v1/models} lists, in its order; empty when it
   *     lists none or was not asked; never null
   * @return the line, or null when the run may go on
   */
  public String stopLine(java.util.List<String> served) {
    String modelHint =
        served.isEmpty()
            ? "is llm.model one the server serves?"
            : "llm.model "
                + model
                + " is not one the server serves: it serves "
                + String.join(", ", served)
                + " (GET /v1/models)";
    String why;
    if (status == null && connected) {
      // Connected, then no answer in time: a slow or busy server, which the test measures.
      return null;
    }
    if (status == null) {
      why = "got no answer (" + (message == null ? "no reason given" : message) + ")";
      return line(why, "is the server up and llm.baseUrl right?");
    }
    String quoted = message == null ? "" : ": " + message;
    boolean modelMessage = aboutTheModel();
    if (status == 401 || status == 403) {
      return line(
          "answered HTTP " + status + quoted,
          "the server wants credentials: set llm.apiKey (or OPENAI_API_KEY)");
    }
    if (status == 404) {
      return line(
          "answered HTTP 404" + quoted,
          modelMessage ? modelHint : "is llm.baseUrl right (most servers serve /v1/...)?");
    }
    if (status >= 400 && status < 500 && status != 429 && modelMessage) {
      return line("answered HTTP " + status + quoted, modelHint);
    }
    if (status >= 200 && status < 300 && message != null && message.startsWith("<")) {
      // A web page (a web UI's index.html for any path, a proxy's welcome page): no LLM server
      // answers a completion with markup, and every request of the run would fail the same way.
      return line(
          "answered HTTP " + status + " with a web page, not JSON" + quoted,
          "is llm.baseUrl the LLM server's OpenAI-compatible /v1 (not a web UI or a proxy's"
              + " page)?");
    }
    return null;
  }

  /**
   * The line that stops a run with {@code llm.responses.history=server} before any load: the
   * pre-flight's second request, naming the first one's response in {@code previous_response_id},
   * got an HTTP 4xx other than 408 or 429 (llama.cpp b11669: HTTP 400 "llama.cpp does not support
   * 'previous_response_id'."), so every later turn of a conversation or agent session would fail
   * the same way.
   *
   * @return the line, or null when the server took the request (or only was busy or slow)
   */
  public String historyStopLine() {
    if (status == null || status < 400 || status >= 500 || status == 408 || status == 429) {
      return null;
    }
    return "llm.responses.history=server: the server refused previous_response_id in the"
        + " pre-flight (POST "
        + url
        + " answered HTTP "
        + status
        + (message == null ? "" : ": " + message)
        + "), so it keeps no conversation history for later turns: set"
        + " llm.responses.history=client (the default) to send each turn's whole history. The run"
        + " stops before any load (-Dllm.preflight=false skips this check)";
  }

  /**
   * A line saying the pre-flight did not get a plain success but the run goes on (a 5xx, a 429, a
   * 400 about the request, no answer in time after connecting); null after a 2xx or when {@link
   * #stopLine()} stops the run.
   *
   * @return the warning, or null
   */
  public String warningLine() {
    if (stopLine() != null || (status != null && status >= 200 && status < 300)) {
      return null;
    }
    return "llm pre-flight: "
        + method
        + " "
        + url
        + (status == null
            ? " got no answer after connecting (" + message + ")"
            : " answered HTTP " + status + (message == null ? "" : ": " + message))
        + "; the run goes on";
  }

  /**
   * Whether the error message is about the model: it names the model, or says a model is not found,
   * does not exist, is unknown or invalid (not merely a field "not supported with this model").
   */
  private boolean aboutTheModel() {
    if (message == null) {
      return false;
    }
    String m = message.toLowerCase(Locale.ROOT);
    // The model's name as a word of its own (a short name such as "a" is inside any message).
    if (model != null
        && java.util.regex.Pattern.compile(
                "(?<![\\w.\\-/])"
                    + java.util.regex.Pattern.quote(model.toLowerCase(Locale.ROOT))
                    + "(?![\\w.\\-/])")
            .matcher(m)
            .find()) {
      return true;
    }
    return m.contains("model")
        && (m.contains("not found")
            || m.contains("does not exist")
            || m.contains("unknown")
            || m.contains("invalid model")
            || m.contains("not served"));
  }

  private String line(String what, String hint) {
    return "llm pre-flight: "
        + method
        + " "
        + url
        + " "
        + what
        + "; "
        + hint
        + " The run stops before any load (-Dllm.preflight=false skips this check)";
  }

  /**
   * The message of an error body: {@code error.message} (OpenAI, llama.cpp), {@code error} as a
   * string, {@code message} (vLLM), {@code detail} (FastAPI servers), else the body's first {@value
   * #MAX_QUOTED_CHARS} characters on one line.
   *
   * @param body the response body, or null
   * @return the message, or null for a blank body
   */
  static String messageOf(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode json = JSON.readTree(body);
      for (JsonNode node :
          new JsonNode[] {
            json.path("error").path("message"),
            json.path("error"),
            json.path("message"),
            json.path("detail")
          }) {
        if (node.isTextual() && !node.asText().isBlank()) {
          return oneLine(node.asText());
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not JSON: quoted as it is
    }
    return oneLine(body);
  }

  private static String oneLine(String text) {
    String flat = text.strip().replaceAll("\\s+", " ");
    return flat.length() <= MAX_QUOTED_CHARS ? flat : flat.substring(0, MAX_QUOTED_CHARS) + "...";
  }
}
