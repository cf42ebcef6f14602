package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ErrorBodyTest {

  @Test
  void openAiErrorObjectGivesTypeCodeAndMessage() {
    assertEquals(
        "invalid_request_error (400): max_tokens is too large",
        ErrorBody.describe(
            "{\"error\":{\"message\":\"max_tokens is too large\",\"type\":\"invalid_request_error\","
                + "\"code\":400}}",
            "application/json"));
  }

  @Test
  void tgiErrorStringGivesItsTypeAndMessage() {
    assertEquals(
        "overloaded: Model is overloaded",
        ErrorBody.describe(
            "{\"error\":\"Model is overloaded\",\"error_type\":\"overloaded\"}",
            "application/json"));
  }

  @Test
  void htmlPageGivesItsTitle() {
    assertEquals(
        "502 Bad Gateway",
        ErrorBody.describe(
            "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
                + "</body></html>",
            "text/html"));
  }

  @Test
  void htmlWithoutTitleGivesItsTextWithoutScripts() {
    assertEquals(
        "Upstream down try later",
        ErrorBody.describe(
            "<body><script>var x = 1;</script><p>Upstream down</p>\n<p>try later</p></body>",
            "text/html; charset=utf-8"));
  }

  @Test
  void bodyStartingWithATagIsReadAsHtmlWhateverItsType() {
    assertEquals("Forbidden", ErrorBody.describe("<h1>Forbidden</h1>", null));
  }

  @Test
  void plainTextIsCollapsedToOneLine() {
    assertEquals("no streaming here", ErrorBody.describe("no\tstreaming\n\n  here", "text/plain"));
  }

  @Test
  void longTextIsCutTo160Chars() {
    String d = ErrorBody.describe("a".repeat(500), "text/plain");
    assertEquals(160, d.length());
    assertEquals("a".repeat(157) + "...", d);
  }

  @Test
  void blankBodyGivesNull() {
    assertNull(ErrorBody.describe(" \n", "text/plain"));
    assertNull(ErrorBody.describe(null, null));
  }

  @Test
  void jsonWithoutAnErrorGivesItsText() {
    assertEquals(
        "{\"detail\":\"Not Found\"}", ErrorBody.describe("{\"detail\":\"Not Found\"}", null));
  }
}
