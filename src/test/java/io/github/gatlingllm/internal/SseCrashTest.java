package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The status parsing; reading a real crashed stream is covered by {@code GatlingRunTest}. */
class SseCrashTest {

  @Test
  void statusIsReadFromGatlingsMessage() {
    assertEquals(
        Optional.of(429),
        SseCrash.status(
            "i.g.h.a.s.SseInvalidStatusException: Server returned http response with code 429"));
  }

  @Test
  void messageWithoutStatusHasNone() {
    assertEquals(Optional.empty(), SseCrash.status("Connection refused: /127.0.0.1:1"));
  }
}
