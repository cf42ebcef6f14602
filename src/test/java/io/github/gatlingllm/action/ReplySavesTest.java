package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReplySavesTest {

  @Test
  void eachKeyIsKeptApart() {
    ReplySaves saves =
        ReplySaves.NONE
            .withText("answer")
            .withFinishReason("finish")
            .withPromptTokens("in")
            .withCompletionTokens("out");

    assertEquals(new ReplySaves("answer", "finish", "in", "out"), saves);
    assertEquals(true, saves.any());
  }

  @Test
  void nothingAskedIsNone() {
    assertEquals(false, ReplySaves.NONE.any());
  }

  @Test
  void aBlankKeyIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ReplySaves.NONE.withText(" "));

    assertEquals(
        "saveReplyAs: got a blank session key, expected a name such as \"answer\"", e.getMessage());
  }

  @Test
  void aFeederKeyIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ReplySaves.NONE.withFinishReason("llm.text"));

    assertEquals(
        "saveFinishReasonAs: got \"llm.text\", a key in the llm. namespace the prompt feeders set;"
            + " expected a key of your own, such as \"answer\"",
        e.getMessage());
  }

  @Test
  void oneKeyForTwoValuesIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ReplySaves.NONE.withText("answer").withFinishReason("answer"));

    assertEquals(
        "saveFinishReasonAs: got \"answer\", the key saveReplyAs already saves to; expected a key"
            + " of its own",
        e.getMessage());
  }

  @Test
  void aGatlingPrivateKeyIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ReplySaves.NONE.withText("gatling.http.cookies"));

    assertEquals(
        "saveReplyAs: got \"gatling.http.cookies\", a key in the gatling. namespace Gatling keeps"
            + " its own state in (cookies, loops); expected a key of your own, such as \"answer\"",
        e.getMessage());
  }
}
