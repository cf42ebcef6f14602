package io.github.gatlingllm.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TokenCountTest {

  @Test
  void negativeValueIsRejectedWithTheValue() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new TokenCount(-1, "estimated", false));
    assertEquals("token count value must be >= 0, got -1 (source estimated)", e.getMessage());
  }

  @Test
  void nullSourceIsRejected() {
    assertThrows(NullPointerException.class, () -> new TokenCount(1, null, false));
  }
}
