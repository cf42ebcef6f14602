package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Inputs are Gatling 3.16's own renderings, produced by its SSE decoder from the noted stream. */
class SseMessageDataTest {

  @Test
  void inlinedDoneMarker() {
    // data: [DONE]
    assertEquals("[DONE]", SseMessageData.extract("{\"data\":[DONE]}"));
  }

  @Test
  void inlinedDoneMarkerAfterEmptyEventAndId() {
    // event:\nid:\ndata: [DONE]
    assertEquals("[DONE]", SseMessageData.extract("{\"event\":\"\",\"id\":\"\",\"data\":[DONE]}"));
  }

  @Test
  void inlinedJsonObject() {
    // data: {"choices":[{"delta":{"role":"assistant","content":null}}]}
    assertEquals(
        "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null}}]}",
        SseMessageData.extract(
            "{\"data\":{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null}}]}}"));
  }

  @Test
  void inlinedJsonObjectThatContainsDataAndRetryKeys() {
    assertEquals(
        "{\"data\":1,\"retry\":5}", SseMessageData.extract("{\"data\":{\"data\":1,\"retry\":5}}"));
  }

  @Test
  void eventAndIdBeforeData() {
    // event: error\nid: 7\ndata: {"error":{"message":"x"}}
    assertEquals(
        "{\"error\":{\"message\":\"x\"}}",
        SseMessageData.extract(
            "{\"event\":\"error\",\"id\":\"7\",\"data\":{\"error\":{\"message\":\"x\"}}}"));
  }

  @Test
  void quotedStringDataIsUnescaped() {
    // data: hello "world"
    assertEquals("hello \"world\"", SseMessageData.extract("{\"data\":\"hello \\\"world\\\"\"}"));
  }

  @Test
  void multiLineDataIsJoinedWithNewline() {
    // data: line1\ndata: line2
    assertEquals("line1\nline2", SseMessageData.extract("{\"data\":\"line1\\nline2\"}"));
  }

  @Test
  void controlCharsAreUnescaped() {
    // data: q<BS><FF>/<DEL> é
    assertEquals("q\b\f/\u007f é", SseMessageData.extract("{\"data\":\"q\\b\\f/\\u007F é\"}"));
  }

  @Test
  void doneWithTrailingSpaceIsQuoted() {
    // data: [DONE]<space>
    assertEquals("[DONE] ", SseMessageData.extract("{\"data\":\"[DONE] \"}"));
  }

  @Test
  void incompleteJsonIsQuoted() {
    // data: {incomplete
    assertEquals("{incomplete", SseMessageData.extract("{\"data\":\"{incomplete\"}"));
  }

  @Test
  void emptyData() {
    // data:
    assertEquals("", SseMessageData.extract("{\"data\":\"\"}"));
  }

  @Test
  void retryAfterData() {
    // id: 5\nevent: message\ndata: {"x":1}\nretry: 3
    assertEquals(
        "{\"x\":1}",
        SseMessageData.extract(
            "{\"event\":\"message\",\"id\":\"5\",\"data\":{\"x\":1},\"retry\":3}"));
  }

  @Test
  void retryAfterInlinedArray() {
    // retry: 100\ndata: [1,2]
    assertEquals("[1,2]", SseMessageData.extract("{\"data\":[1,2],\"retry\":100}"));
  }

  @Test
  void unescapedQuoteInEventNameIsTolerated() {
    // event: a"b\nid: 1\2\ndata: plain\text<TAB>tab
    assertEquals(
        "plain\\text\ttab",
        SseMessageData.extract(
            "{\"event\":\"a\"b\",\"id\":\"1\\2\",\"data\":\"plain\\\\text\\ttab\"}"));
  }

  @Test
  void messageWithoutData() {
    // event: only
    assertNull(SseMessageData.extract("{\"event\":\"only\"}"));
  }

  @Test
  void messageWithRetryOnly() {
    assertNull(SseMessageData.extract("{\"retry\":100}"));
  }

  @Test
  void messageWithNoFields() {
    assertNull(SseMessageData.extract("}"));
  }

  @Test
  void somethingElseIsNotARendering() {
    assertNull(SseMessageData.extract("data: [DONE]"));
  }

  @Test
  void nullMessage() {
    assertNull(SseMessageData.extract(null));
  }

  @Test
  void extractedDoneParsesAsDone() {
    assertEquals(StreamEvent.DONE, StreamEvent.parse(SseMessageData.extract("{\"data\":[DONE]}")));
  }
}
