package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ToolCallAssemblyTest {

  private static ToolCallAssembly assemble(String... payloads) {
    ToolCallAssembly calls = new ToolCallAssembly();
    for (String payload : payloads) {
      calls.add(StreamEvent.parse(payload, true).toolCalls());
    }
    return calls;
  }

  @Test
  void argumentsConcatenatedFromOpenAiDeltas() {
    ToolCallAssembly calls =
        assemble(
            "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"index\":0,\"id\":\"call_abc\",\"type\":\"function\","
                + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                + "\"function\":{\"arguments\":\"{\\\"lo\"}}]}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                + "\"function\":{\"arguments\":\"cation\\\": \\\"Paris\\\"}\"}}]}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}");
    assertEquals(
        List.of(new ToolCall("call_abc", "get_weather", "{\"location\": \"Paris\"}", true)),
        calls.calls());
    assertEquals(0, calls.malformed());
  }

  @Test
  void parallelCallsInterleavedComeOutInIndexOrder() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(1, "b", "g", ""));
    calls.add(new ToolCallDelta(0, "a", "f", "{\"x\""));
    calls.add(new ToolCallDelta(1, null, null, "{}"));
    calls.add(new ToolCallDelta(0, null, null, ":1}"));
    assertEquals(
        List.of(new ToolCall("a", "f", "{\"x\":1}", true), new ToolCall("b", "g", "{}", true)),
        calls.calls());
  }

  @Test
  void malformedArgumentsKeptAsReceivedAndCounted() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(0, "a", "f", "{\"x\": 1"));
    calls.add(new ToolCallDelta(1, "b", "g", "{\"y\": 2}"));
    assertEquals(
        List.of(
            new ToolCall("a", "f", "{\"x\": 1", false), new ToolCall("b", "g", "{\"y\": 2}", true)),
        calls.calls());
    assertEquals(1, calls.malformed());
  }

  @Test
  void emptyArgumentsAreMalformed() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(0, "a", "f", null));
    assertEquals(List.of(new ToolCall("a", "f", "", false)), calls.calls());
    assertEquals(1, calls.malformed());
  }

  @Test
  void argumentsThatAreAnArrayAreMalformed() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(0, "a", "f", "[1]"));
    assertEquals(1, calls.malformed());
  }

  @Test
  void trailingTextAfterTheObjectIsMalformed() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(0, "a", "f", "{} {}"));
    assertEquals(1, calls.malformed());
  }

  @Test
  void whitespaceAroundTheObjectIsWellFormed() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(0, "a", "f", " {\"k\": [1, 2]}\n"));
    assertEquals(0, calls.malformed());
  }

  @Test
  void firstIdAndNameWin() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(0, "a", "f", "{"));
    calls.add(new ToolCallDelta(0, "z", "zz", "}"));
    assertEquals(List.of(new ToolCall("a", "f", "{}", true)), calls.calls());
  }

  @Test
  void entriesWithoutIndexSplitByNewId() {
    ToolCallAssembly calls =
        assemble(
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}},{\"id\":\"c2\","
                + "\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{\\\"q\\\":1}\"}}]},"
                + "\"finish_reason\":\"tool_calls\"}]}");
    assertEquals(
        List.of(new ToolCall("c1", "f", "{}", true), new ToolCall("c2", "g", "{\"q\":1}", true)),
        calls.calls());
  }

  @Test
  void entryWithoutIndexOrIdContinuesTheLastCall() {
    ToolCallAssembly calls =
        assemble(
            "{\"choices\":[{\"delta\":{\"function_call\":{\"name\":\"f\",\"arguments\":\"\"}}}]}",
            "{\"choices\":[{\"delta\":{\"function_call\":{\"arguments\":\"{\\\"a\\\"\"}}}]}",
            "{\"choices\":[{\"delta\":{\"function_call\":{\"arguments\":\":2}\"}}}]}");
    assertEquals(List.of(new ToolCall(null, "f", "{\"a\":2}", true)), calls.calls());
  }

  @Test
  void entryWithoutIndexAndAKnownIdContinuesThatCall() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(null, "c1", "f", "{"));
    calls.add(new ToolCallDelta(null, "c2", "g", "{}"));
    calls.add(new ToolCallDelta(null, "c1", null, "}"));
    assertEquals(
        List.of(new ToolCall("c1", "f", "{}", true), new ToolCall("c2", "g", "{}", true)),
        calls.calls());
  }

  @Test
  void noEntriesNoCalls() {
    ToolCallAssembly calls =
        assemble("{\"choices\":[{\"delta\":{\"content\":\"hello\"}}]}", "[DONE]");
    assertTrue(calls.isEmpty());
    assertEquals(List.of(), calls.calls());
  }

  @Test
  void oneEntryIsNotEmpty() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.add(new ToolCallDelta(0, null, null, null));
    assertFalse(calls.isEmpty());
    assertEquals(List.of(new ToolCall(null, "", "", false)), calls.calls());
  }

  @Test
  void wholeCallsComeOutInTheOrderAddedAsReceived() {
    ToolCallAssembly calls = new ToolCallAssembly();
    calls.addWhole("fc_1", "grep", "{\"q\":\"bug\"}");
    calls.addWhole("fc_2", "read", "{\"path\"");
    assertEquals(
        List.of(
            new ToolCall("fc_1", "grep", "{\"q\":\"bug\"}", true),
            new ToolCall("fc_2", "read", "{\"path\"", false)),
        calls.calls());
    assertEquals(1, calls.malformed());
  }
}
