package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PartialJsonTest {

  private static String object(String text) {
    return PartialJson.object(text).toString();
  }

  @Test
  void aWholeObjectIsKept() {
    assertEquals("{\"q\":\"bug\",\"n\":[1,2]}", object("{\"q\": \"bug\", \"n\": [1, 2]}"));
  }

  @Test
  void aStringCutShortIsClosed() {
    assertEquals("{\"path\":\"src/ma\"}", object("{\"path\":\"src/ma"));
  }

  @Test
  void anEscapeCutShortIsDropped() {
    assertEquals("{\"q\":\"a\"}", object("{\"q\":\"a\\"));
  }

  @Test
  void aKeyCutBeforeItsValueIsDropped() {
    assertEquals("{\"a\":1}", object("{\"a\":1,\"b\":"));
  }

  @Test
  void aKeyCutShortIsDropped() {
    assertEquals("{\"a\":1}", object("{\"a\":1,\"b"));
  }

  @Test
  void nestedArraysAndObjectsAreClosed() {
    assertEquals("{\"a\":{\"b\":[1,2]}}", object("{\"a\":{\"b\":[1,2"));
  }

  @Test
  void aLiteralCutShortIsDropped() {
    assertEquals("{\"a\":1}", object("{\"a\":1,\"b\":tru"));
  }

  @Test
  void aLoneLiteralCutShortLeavesAnEmptyObject() {
    assertEquals("{}", object("{\"a\":tru"));
  }

  @Test
  void anArrayIsNoObject() {
    assertEquals("{}", object("[1]"));
  }

  @Test
  void textIsNoObject() {
    assertEquals("{}", object("get the weather"));
  }

  @Test
  void blankIsAnEmptyObject() {
    assertEquals("{}", object(""));
  }

  @Test
  void anOpenBraceAloneIsAnEmptyObject() {
    assertEquals("{}", object("{"));
  }
}
