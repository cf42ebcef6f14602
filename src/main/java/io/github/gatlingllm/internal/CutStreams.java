package io.github.gatlingllm.internal;

import io.gatling.javaapi.core.Session;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For internal use only. Ends the wait of a virtual user whose SSE stream the server closed before
 * the stream's end, within {@value #SCAN_MS} ms instead of at the await's timeout.
 *
 * <p>Gatling 3.16 ({@code SseStream#crash}) does not tell the stream's state machine about such a
 * close: it schedules a reconnect of the stream on the virtual user's event loop (pushed out of
 * reach by {@link SseCrash#preventReconnect()}) and the await goes on until its timeout. Every
 * {@value #SCAN_MS} ms, on each event loop that runs virtual users, this looks through the loop's
 * scheduled tasks for such a reconnect, cancels it and reports the close to the stream's state
 * machine ({@code SseFsm#onSseStreamCrashed}) with the message {@link #MESSAGE}, which ends the
 * await as a failed check. When Gatling's internals differ, it does nothing. Never throws.
 */
public final class CutStreams {

  /** The crash message given to the state machine of a stream the server closed early. */
  public static final String MESSAGE =
      "connection closed by the server before the end of the stream";

  static final long SCAN_MS = 50;

  private static final Logger LOG = LoggerFactory.getLogger(CutStreams.class);
  private static final String STREAM_CLASS = "io.gatling.http.action.sse.fsm.SseStream";
  private static final Set<EventLoop> WATCHED = ConcurrentHashMap.newKeySet();
  private static volatile boolean broken;

  private CutStreams() {}

  /**
   * Makes sure the event loop of this virtual user is watched.
   *
   * @param session the virtual user's session
   */
  public static void watch(Session session) {
    if (broken) {
      return;
    }
    try {
      EventLoop loop = session.asScala().eventLoop();
      if (loop != null && WATCHED.add(loop)) {
        loop.scheduleWithFixedDelay(() -> scan(loop), SCAN_MS, SCAN_MS, TimeUnit.MILLISECONDS);
      }
    } catch (RuntimeException | LinkageError e) {
      broken = true;
    }
  }

  /** One pass over a loop's scheduled tasks; runs on that loop. */
  static int scan(EventLoop loop) {
    if (broken) {
      return 0;
    }
    int found = 0;
    try {
      Object queue = SseCrash.field(loop, "scheduledTaskQueue");
      if (!(queue instanceof Collection<?> tasks) || tasks.isEmpty()) {
        return 0;
      }
      for (Object task : tasks.toArray()) {
        Object stream = reconnectedStream(SseCrash.field(task, "task"));
        if (stream == null || !(task instanceof Future<?> future)) {
          continue;
        }
        future.cancel(false);
        Object fsm = SseCrash.field(stream, "fsm");
        if (fsm != null) {
          fsm.getClass()
              .getMethod("onSseStreamCrashed", Throwable.class)
              .invoke(fsm, new IOException(MESSAGE));
          found++;
        }
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      broken = true;
      LOG.warn(
          "cannot watch for SSE streams closed by the server ({}): such a request waits for"
              + " llm.timeout",
          e.toString());
    }
    return found;
  }

  /**
   * The SSE stream a scheduled task reconnects: a lambda of {@code SseStream} (possibly inside an
   * adapter) that captured the stream; null for any other task.
   */
  private static Object reconnectedStream(Object task) throws IllegalAccessException {
    for (int depth = 0; task != null && depth < 3; depth++) {
      Fields fields = FIELDS.get(task.getClass());
      if (fields.lambdaOfStream) {
        for (Field f : fields.references) {
          Object value = f.get(task);
          if (value != null && value.getClass().getName().equals(STREAM_CLASS)) {
            return value;
          }
        }
      }
      task = fields.task == null ? null : fields.task.get(task);
    }
    return null;
  }

  /**
   * What a scan reads of a task class, found once per class: every scan visits every scheduled task
   * of the loop (each in-flight request's timeout among them), 20 times a second.
   */
  private static final ClassValue<Fields> FIELDS =
      new ClassValue<>() {
        @Override
        protected Fields computeValue(Class<?> type) {
          boolean lambdaOfStream = type.getName().startsWith(STREAM_CLASS + "$$Lambda");
          List<Field> references = new ArrayList<>();
          Field task = null;
          for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
              continue;
            }
            if (!lambdaOfStream && !f.getName().equals("task")) {
              continue;
            }
            try {
              f.setAccessible(true);
            } catch (RuntimeException e) {
              continue;
            }
            if (lambdaOfStream) {
              references.add(f);
            }
            if (f.getName().equals("task")) {
              task = f;
            }
          }
          return new Fields(lambdaOfStream, references.toArray(new Field[0]), task);
        }
      };

  /**
   * A task class's fields of interest.
   *
   * @param lambdaOfStream whether the class is a lambda of {@code SseStream}
   * @param references its non-static reference fields, when it is such a lambda
   * @param task its {@code task} field (an adapter's wrapped task), or null
   */
  private record Fields(boolean lambdaOfStream, Field[] references, Field task) {}
}
