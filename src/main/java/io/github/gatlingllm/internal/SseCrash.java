package io.github.gatlingllm.internal;

import io.gatling.javaapi.core.Session;
import java.lang.reflect.Field;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * For internal use only. Why Gatling's SSE stream of a virtual user crashed, read from Gatling's
 * internal SSE state machine.
 *
 * <p>Gatling's SSE connect takes no HTTP checks: a non-200 answer or a refused connection only
 * shows as a KO row whose message names the status. This reads that message from the stream's
 * crashed state (the session attribute holding the {@code SseFsm}, and private fields of {@code
 * SseFsm} and {@code SseCrashedState}, Gatling 3.16) so the run record can say {@code http_error}
 * with the status, {@code rejected}, or {@code connect_error}. When Gatling's internals change, it
 * answers empty and the record falls back to a generic error: it never throws.
 */
public final class SseCrash {

  private static final Pattern STATUS = Pattern.compile("response with code (\\d{3})");

  private SseCrash() {}

  /**
   * The crash message of the named stream, if it crashed.
   *
   * @param session the virtual user's session
   * @param streamName the SSE stream's name in the session
   * @return the message Gatling recorded for the crash, or empty
   */
  public static Optional<String> message(Session session, String streamName) {
    try {
      if (!session.contains(streamName)) {
        return Optional.empty();
      }
      // Gatling 3.16 keeps the stream's SseFsm in the session under the stream's name.
      Object fsm = session.get(streamName);
      Object state = field(fsm, "currentState");
      if (state == null || !state.getClass().getSimpleName().equals("SseCrashedState")) {
        return Optional.empty();
      }
      return Optional.ofNullable((String) field(state, "errorMessage"));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return Optional.empty();
    }
  }

  /**
   * The HTTP status named in a crash message.
   *
   * @param message a crash message, e.g. {@code "...Server returned http response with code 429"}
   * @return the status, or empty when the message names none
   */
  public static Optional<Integer> status(String message) {
    Matcher m = STATUS.matcher(message);
    return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  private static Object field(Object target, String name) throws ReflectiveOperationException {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(name);
  }
}
