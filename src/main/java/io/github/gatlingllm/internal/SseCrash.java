package io.github.gatlingllm.internal;

import io.gatling.javaapi.core.Session;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(SseCrash.class);
  private static final Object RECONNECT_LOCK = new Object();
  private static Boolean reconnectPrevented;

  private SseCrash() {}

  /**
   * Stops Gatling's SSE client from reconnecting a stream that the server closed early.
   *
   * <p>Gatling 3.16 ({@code SseStream#crash}) answers a connection closed before the end of a
   * connected stream by sending the connect request again after the stream's retry delay (3,000 ms
   * unless the server sent {@code retry:}), as the SSE specification asks of browsers. For an LLM
   * request that is a second generation the run never counts, sent even after the virtual user has
   * moved on. This sets Gatling's default retry delay ({@code
   * SseStream$.DefaultRetryDelayInMillis}, a static final int) to {@link Integer#MAX_VALUE}
   * milliseconds, so the reconnect never comes within a run. It must run before the first SSE
   * stream is made (the delay is copied into each stream). Runs once; never throws.
   *
   * @return whether the delay is now {@link Integer#MAX_VALUE}
   */
  public static boolean preventReconnect() {
    synchronized (RECONNECT_LOCK) {
      if (reconnectPrevented == null) {
        reconnectPrevented = patchRetryDelay();
        if (!reconnectPrevented) {
          LOG.warn(
              "could not turn off Gatling's SSE reconnect: a stream the server closes early is"
                  + " sent again after 3 s");
        }
      }
      return reconnectPrevented;
    }
  }

  @SuppressWarnings({"removal", "deprecation"})
  private static boolean patchRetryDelay() {
    try {
      Class<?> module =
          Class.forName(
              "io.gatling.http.action.sse.fsm.SseStream$", true, SseCrash.class.getClassLoader());
      Field delay = null;
      for (Field f : module.getDeclaredFields()) {
        if (f.getName().endsWith("DefaultRetryDelayInMillis") && f.getType() == int.class) {
          delay = f;
        }
      }
      if (delay == null || !Modifier.isStatic(delay.getModifiers())) {
        return false;
      }
      Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
      unsafe.putInt(
          unsafe.staticFieldBase(delay), unsafe.staticFieldOffset(delay), Integer.MAX_VALUE);
      delay.setAccessible(true);
      return delay.getInt(null) == Integer.MAX_VALUE;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false;
    }
  }

  /**
   * Whether the server closed the named stream's connection while it was connected, before the
   * response ended: Gatling 3.16 then keeps the stream in its connected state (waiting to
   * reconnect) and only the stream's listener knows its channel is closed. Such a stream ends its
   * await by the timeout only.
   *
   * @param session the virtual user's session
   * @param streamName the SSE stream's name in the session
   * @return true if so; false otherwise or when Gatling's internals cannot be read
   */
  public static boolean closedWhileConnected(Session session, String streamName) {
    try {
      if (!session.contains(streamName)) {
        return false;
      }
      Object stream = field(session.get(streamName), "stream");
      Object state = field(stream, "state");
      if (state == null || !state.getClass().getName().endsWith("SseStreamState$Connected")) {
        return false;
      }
      return Boolean.TRUE.equals(field(field(state, "listener"), "closed"));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false;
    }
  }

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
   * Cancels the reconnect Gatling scheduled for the named stream after the server closed it (see
   * {@link #preventReconnect()}), so that the stream, its session and its request are not kept
   * until the end of the run. Looks through the scheduled tasks of the virtual user's event loop
   * for the one that reconnects this stream. Must run on that event loop (as session functions do);
   * does nothing elsewhere. Never throws.
   *
   * @param session the virtual user's session
   * @param streamName the SSE stream's name in the session
   * @return how many scheduled tasks were cancelled (0 or 1)
   */
  public static int cancelReconnect(Session session, String streamName) {
    try {
      if (!session.contains(streamName)) {
        return 0;
      }
      Object stream = field(session.get(streamName), "stream");
      io.netty.channel.EventLoop loop = session.asScala().eventLoop();
      if (!loop.inEventLoop()) {
        return 0;
      }
      Object queue = field(loop, "scheduledTaskQueue");
      if (!(queue instanceof java.util.Collection<?> tasks)) {
        return 0;
      }
      int cancelled = 0;
      for (Object task : tasks.toArray()) {
        if (task instanceof java.util.concurrent.Future<?> future
            && captures(field(task, "task"), stream)) {
          future.cancel(false);
          cancelled++;
        }
      }
      return cancelled;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return 0;
    }
  }

  /** Whether a task (a lambda, or an adapter holding one) captured {@code target}. */
  private static boolean captures(Object task, Object target) throws IllegalAccessException {
    for (int depth = 0; task != null && depth < 3; depth++) {
      Object next = null;
      for (Field f : task.getClass().getDeclaredFields()) {
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
          continue;
        }
        try {
          f.setAccessible(true);
        } catch (RuntimeException e) {
          continue;
        }
        Object value = f.get(task);
        if (value == target) {
          return true;
        }
        if (f.getName().equals("task")) {
          next = value;
        }
      }
      task = next;
    }
    return false;
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

  static Object field(Object target, String name) throws ReflectiveOperationException {
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
