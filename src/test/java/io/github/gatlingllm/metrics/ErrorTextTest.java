package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ErrorTextTest {

  @Test
  void bearerTokenIsMasked() {
    assertEquals(
        "401 with Authorization: Bearer *** refused",
        ErrorText.scrub("401 with Authorization: Bearer abc.DEF-123_x/y+z= refused"));
  }

  @Test
  void lowercaseBearerIsMasked() {
    assertEquals("bearer ***", ErrorText.scrub("bearer tok123"));
  }

  @Test
  void basicCredentialsAreMasked() {
    assertEquals("Basic ***", ErrorText.scrub("Basic dXNlcjpwYXNz"));
  }

  @Test
  void urlUserAndPasswordAreMasked() {
    assertEquals(
        "connect to https://***@llm.example.com:8443/v1 failed",
        ErrorText.scrub("connect to https://alice:s3cr3t@llm.example.com:8443/v1 failed"));
  }

  @Test
  void urlUserAloneIsMasked() {
    assertEquals("http://***@host/v1", ErrorText.scrub("http://alice@host/v1"));
  }

  @Test
  void urlWithoutCredentialsIsKept() {
    assertEquals(
        "http://host:8000/v1/chat/completions?x=1",
        ErrorText.scrub("http://host:8000/v1/chat/completions?x=1"));
  }

  @Test
  void emailAddressIsKept() {
    assertEquals("write to ops@example.com", ErrorText.scrub("write to ops@example.com"));
  }

  @Test
  void secretQueryParametersAreMasked() {
    assertEquals(
        "GET /v1/models?api_key=***&limit=5&access_token=***",
        ErrorText.scrub("GET /v1/models?api_key=abc123&limit=5&access_token=xyz"));
  }

  @Test
  void apiKeyHeaderIsMasked() {
    assertEquals("x-api-key: *** rejected", ErrorText.scrub("x-api-key: k-123 rejected"));
  }

  @Test
  void openAiStyleKeyIsMasked() {
    assertEquals(
        "Incorrect API key provided: sk-***.",
        ErrorText.scrub("Incorrect API key provided: sk-proj-abcdefgh12345678."));
  }

  @Test
  void plainTextIsKept() {
    assertEquals("max_tokens=5 is too large", ErrorText.scrub("max_tokens=5 is too large"));
  }

  @Test
  void nullIsNull() {
    assertNull(ErrorText.scrub(null));
    assertNull(ErrorText.forRecord(null));
  }

  @Test
  void shortenMakesOneLine() {
    assertEquals("a b c", ErrorText.shorten("a\r\n  b\tc\n", 10));
  }

  @Test
  void shortenCutsWithEllipsis() {
    assertEquals("abcdefg...", ErrorText.shorten("abcdefghijklmnop", 10));
  }

  @Test
  void shortenKeepsTextAtTheLimit() {
    assertEquals("abcdefghij", ErrorText.shorten("abcdefghij", 10));
  }

  @Test
  void shortenRefusesTinyLimits() {
    assertThrows(IllegalArgumentException.class, () -> ErrorText.shorten("x", 3));
  }

  @Test
  void forRecordScrubsThenShortens() {
    assertEquals(
        "Bearer *** " + "x".repeat(286) + "...",
        ErrorText.forRecord("Bearer secret\n" + "x".repeat(400)));
  }
}
