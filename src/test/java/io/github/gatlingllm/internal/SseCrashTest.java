package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The status parsing and the reconnect switch; reading real crashed and cut streams is covered by
 * {@code GatlingRunTest} and {@code FaultCorpusTest}.
 */
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

  /** Fails when a Gatling upgrade moves the retry delay: then cut streams are sent again. */
  @Test
  void preventReconnectSetsGatlingsDefaultRetryDelayToTheLongestInt() throws Exception {
    assertTrue(SseCrash.preventReconnect());
    Class<?> module = Class.forName("io.gatling.http.action.sse.fsm.SseStream$");
    Object instance = module.getField("MODULE$").get(null);
    Method delay =
        module.getMethod("io$gatling$http$action$sse$fsm$SseStream$$DefaultRetryDelayInMillis");
    assertEquals(Integer.MAX_VALUE, delay.invoke(instance));
    // A second call changes nothing and says the same.
    assertTrue(SseCrash.preventReconnect());
  }
}
