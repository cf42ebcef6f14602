package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationTargetException;
import org.junit.jupiter.api.Test;

/** Which failures end a run with their one line ({@link OneLineErrors#line}). */
class OneLineErrorsTest {

  @Test
  void aRefusalOfOursIsItsMessage() {
    assertEquals(
        "llm.foo: unknown setting",
        OneLineErrors.line(new IllegalArgumentException("llm.foo: unknown setting")));
  }

  @Test
  void aRefusalInsideReflectionIsItsMessage() {
    assertEquals(
        "llm.tokenizer: got \"x\"",
        OneLineErrors.line(
            new InvocationTargetException(
                new IllegalArgumentException("llm.tokenizer: got \"x\""))));
  }

  @Test
  void theOutermostRefusalOfOursIsTaken() {
    IllegalArgumentException inner = new IllegalArgumentException("no protocol");
    assertEquals(
        "llm(\"chat\"): no protocol",
        OneLineErrors.line(new IllegalArgumentException("llm(\"chat\"): no protocol", inner)));
  }

  @Test
  void anIllegalStateOfOursIsItsMessage() {
    assertEquals("run stopped", OneLineErrors.line(new IllegalStateException("run stopped")));
  }

  @Test
  void aJdkRefusalKeepsItsTrace() {
    NumberFormatException jdk = null;
    try {
      Integer.parseInt("x");
    } catch (NumberFormatException e) {
      jdk = e;
    }
    assertEquals(null, OneLineErrors.line(jdk));
  }

  @Test
  void aBugKeepsItsTrace() {
    assertEquals(null, OneLineErrors.line(new NullPointerException("x")));
  }

  @Test
  void aMessageOfSeveralLinesKeepsItsTrace() {
    assertEquals(null, OneLineErrors.line(new IllegalArgumentException("a\nb")));
  }

  @Test
  void aRefusalInsideAnotherExceptionKeepsItsTrace() {
    assertEquals(
        null,
        OneLineErrors.line(new RuntimeException("x", new IllegalArgumentException("llm.foo"))));
  }

  @Test
  void gatlingsLauncherIsWhereTheFilterLooks() throws Exception {
    // Gatling 3.16.0 logs a failed run with its launcher object's logger, from its main.
    assertEquals(OneLineErrors.GATLING_LOGGER, Class.forName("io.gatling.app.Gatling$").getName());
    assertEquals(
        "main",
        Class.forName(OneLineErrors.GATLING_MAIN).getMethod("main", String[].class).getName());
  }
}
