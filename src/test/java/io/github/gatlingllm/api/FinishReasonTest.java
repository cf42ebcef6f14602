package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class FinishReasonTest {

  @Test
  void chatWords() {
    assertEquals(FinishReason.STOP, FinishReason.of("stop"));
    assertEquals(FinishReason.LENGTH, FinishReason.of("length"));
    assertEquals(FinishReason.TOOL_CALLS, FinishReason.of("tool_calls"));
    assertEquals(FinishReason.TOOL_CALLS, FinishReason.of("function_call"));
    assertEquals(FinishReason.CONTENT_FILTER, FinishReason.of("content_filter"));
  }

  @Test
  void responsesWords() {
    assertEquals(FinishReason.STOP, FinishReason.of("completed"));
    assertEquals(FinishReason.LENGTH, FinishReason.of("max_output_tokens"));
    assertEquals(FinishReason.CONTENT_FILTER, FinishReason.of("content_filter"));
  }

  @Test
  void responsesIncompleteWithoutItsReasonIsOther() {
    assertEquals(FinishReason.OTHER, FinishReason.of("incomplete"));
  }

  @Test
  void messagesWords() {
    assertEquals(FinishReason.STOP, FinishReason.of("end_turn"));
    assertEquals(FinishReason.STOP, FinishReason.of("stop_sequence"));
    assertEquals(FinishReason.LENGTH, FinishReason.of("max_tokens"));
    assertEquals(FinishReason.LENGTH, FinishReason.of("model_context_window_exceeded"));
    assertEquals(FinishReason.TOOL_CALLS, FinishReason.of("tool_use"));
    assertEquals(FinishReason.CONTENT_FILTER, FinishReason.of("refusal"));
    assertEquals(FinishReason.OTHER, FinishReason.of("pause_turn"));
  }

  @Test
  void caseAndBlanksAreIgnored() {
    assertEquals(FinishReason.LENGTH, FinishReason.of(" Length "));
  }

  @Test
  void noReasonIsNull() {
    assertNull(FinishReason.of(null));
  }

  @Test
  void anUnknownWordIsOther() {
    assertEquals(FinishReason.OTHER, FinishReason.of("abort"));
  }
}
