package io.github.gatlingllm.gatling;

import io.github.gatlingllm.gatling.ReplayServer.Reply;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fault corpus: what a server may send back to a streamed chat completion, one reply per case,
 * in a fixed order (the case of measured request {@code i} is the {@code i}-th). Replayed by {@link
 * ReplayServer} for {@link FaultCorpusTest}, on keep-alive connections: a reply that ends its
 * response leaves the connection to the next request, so later cases may arrive on a pooled one.
 */
final class FaultCorpus {

  static final String ROLE = "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}";
  static final String FINISH =
      "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}";

  /** The run's {@code llm.timeout}, in ms: long enough for a loaded machine's first requests. */
  static final long TIMEOUT_MS = 5_000;

  /** The gap between the events of the slow case, in ms: 1 s for its 10 events. */
  static final long TRICKLE_GAP_MS = 100;

  private FaultCorpus() {}

  static String content(String text) {
    return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}";
  }

  static String usage(int prompt, int completion) {
    return "{\"choices\":[],\"usage\":{\"prompt_tokens\":"
        + prompt
        + ",\"completion_tokens\":"
        + completion
        + "}}";
  }

  private static Reply events(String... data) {
    return wire -> wire.sseHead().events(data).end();
  }

  private static Reply json(int status, String reason, String message) {
    return wire ->
        wire.full(
            status,
            reason,
            "application/json",
            "{\"error\":{\"message\":\""
                + message
                + "\",\"type\":\"test_error\",\"code\":"
                + status
                + "}}");
  }

  private static Reply html(int status, String reason) {
    return wire ->
        wire.full(
            status,
            reason,
            "text/html",
            "<html>\r\n<head><title>"
                + status
                + " "
                + reason
                + "</title></head>\r\n<body>\r\n<center><h1>"
                + status
                + " "
                + reason
                + "</h1></center>\r\n<hr><center>nginx/1.27.0</center>\r\n</body>\r\n</html>\r\n");
  }

  /** Every case by name, in request order. */
  static Map<String, Reply> cases() {
    Map<String, Reply> c = new LinkedHashMap<>();
    c.put(
        "roleOnlyFirstEvent",
        events(ROLE, content("a"), content(" b"), content(" c"), FINISH, usage(10, 3), "[DONE]"));
    c.put(
        "emptyContentEvents",
        events(
            ROLE,
            content(""),
            content(""),
            content("a"),
            content(""),
            content(" b"),
            FINISH,
            usage(10, 2),
            "[DONE]"));
    c.put(
        "reasoningOnly",
        events(
            ROLE,
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"think\"}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\" more\"}}]}",
            FINISH,
            usage(10, 2),
            "[DONE]"));
    c.put(
        "toolCallDeltas",
        events(
            ROLE,
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                + "\"function\":{\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}",
            "[DONE]"));
    c.put(
        "usageOnLastContentEvent",
        events(
            ROLE,
            content("a"),
            "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" b\"},\"finish_reason\":\"length\"}],"
                + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":2,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":8}}}",
            "[DONE]"));
    c.put(
        "usageOnSeparateEventWithEmptyChoices",
        events(ROLE, content("a"), content(" b"), FINISH, usage(11, 2), "[DONE]"));
    c.put("usageMissing", events(ROLE, content("a"), content(" b"), FINISH, "[DONE]"));
    c.put(
        "doneMissingCleanClose",
        wire -> wire.sseHead().events(ROLE, content("a"), content(" b"), FINISH).end().close());
    c.put(
        "doneMissingKeptAlive",
        wire -> wire.sseHead().events(ROLE, content("a"), content(" b"), FINISH).end());
    c.put("closedMidStream", wire -> wire.sseHead().events(ROLE, content("a")).close());
    c.put(
        "cutMidEvent",
        wire ->
            wire.sseHead()
                .events(ROLE, content("a"))
                .chunk("data: {\"choices\":[{\"index\":0,\"del")
                .pause()
                .reset());
    c.put(
        "invalidJson",
        events(ROLE, content("a"), "{\"choices\":[{\"delta\":{\"content\":\"b\"}", "[DONE]"));
    c.put(
        "dataSplitOverLines",
        wire ->
            wire.sseHead()
                .chunk(
                    "data: {\"choices\":[{\"index\":0,\ndata: \"delta\":{\"content\":\"a\"}}]}\n\n")
                .events(content(" b"), FINISH, usage(10, 2), "[DONE]")
                .end());
    c.put(
        "commentLines",
        wire ->
            wire.sseHead()
                .chunk(": keep-alive\n\n")
                .events(ROLE)
                .chunk(": ping\n")
                .events(content("a"), content(" b"), FINISH, usage(10, 2), "[DONE]")
                .end());
    c.put("crlfLineEnds", lineEnds("\r\n"));
    c.put("crLineEnds", lineEnds("\r"));
    c.put(
        "errorEventMidStream",
        events(
            ROLE,
            content("a"),
            "{\"error\":{\"message\":\"the engine died\",\"type\":\"server_error\",\"code\":500}}",
            "[DONE]"));
    c.put("http400Json", json(400, "Bad Request", "max_tokens is too large"));
    c.put("http401Json", json(401, "Unauthorized", "invalid api key"));
    c.put("http404Json", json(404, "Not Found", "model does not exist"));
    c.put("http429Json", json(429, "Too Many Requests", "rate limit reached"));
    c.put("http500Json", json(500, "Internal Server Error", "engine crashed"));
    c.put("http503Json", json(503, "Service Unavailable", "server is overloaded"));
    c.put("http400Html", html(400, "Bad Request"));
    c.put("http401Html", html(401, "Unauthorized"));
    c.put("http404Html", html(404, "Not Found"));
    c.put("http429Html", html(429, "Too Many Requests"));
    c.put("http500Html", html(500, "Internal Server Error"));
    c.put("http503Html", html(503, "Service Unavailable"));
    c.put(
        "textPlainReply",
        wire -> wire.full(200, "OK", "text/plain; charset=utf-8", "streaming is disabled here"));
    c.put(
        "applicationJsonReply",
        wire ->
            wire.full(
                200,
                "OK",
                "application/json",
                "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"a b\"},"
                    + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,"
                    + "\"completion_tokens\":2}}"));
    c.put("resetAfterHeaders", wire -> wire.sseHead().pause().reset());
    c.put(
        "headersThenSilence",
        wire -> {
          wire.sseHead();
          Thread.sleep(TIMEOUT_MS + 3_000);
        });
    c.put(
        "slowTrickle",
        wire -> {
          wire.sseHead().events(ROLE);
          for (int i = 0; i < 10; i++) {
            Thread.sleep(TRICKLE_GAP_MS);
            wire.events(content("t" + i));
          }
          wire.events(FINISH, usage(10, 10), "[DONE]").end();
        });
    c.put(
        "oneMegabyteEvent",
        events(ROLE, content("x".repeat(1 << 20)), FINISH, usage(10, 1), "[DONE]"));
    c.put(
        "nonUtf8Bytes",
        wire -> {
          byte[] head = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a".getBytes();
          byte[] tail = "b\"}}]}\n\n".getBytes(StandardCharsets.US_ASCII);
          byte[] bad = {(byte) 0xff, (byte) 0xfe, (byte) 0xc3};
          byte[] event = new byte[head.length + bad.length + tail.length];
          System.arraycopy(head, 0, event, 0, head.length);
          System.arraycopy(bad, 0, event, head.length, bad.length);
          System.arraycopy(tail, 0, event, head.length + bad.length, tail.length);
          wire.sseHead().events(ROLE).chunk(event).events(FINISH, usage(10, 1), "[DONE]").end();
        });
    return c;
  }

  private static Reply lineEnds(String eol) {
    return wire -> {
      wire.sseHead();
      for (String d : List.of(ROLE, content("a"), content(" b"), FINISH, usage(10, 2), "[DONE]")) {
        wire.chunk("data: " + d + eol + eol);
      }
      wire.end();
    };
  }
}
