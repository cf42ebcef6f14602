package io.github.gatlingllm.internal;

import io.gatling.core.CoreComponents;
import java.lang.reflect.Field;
import java.util.Objects;
import scala.Option;

/**
 * For internal use only. When Gatling 3.16's injector started a scenario's open injection: the
 * {@code startTime} its {@code OpenInjection} adds each user's offset to (Gatling's clock, epoch
 * ms), read from the injector actor's state: the controller actor's {@code injector} reference, its
 * current behavior (the {@code started} one holds the {@code StartedData}), the data's {@code
 * inProgressInjections}. Gatling publishes none of it; {@code GatlingInternalsTest} fails when an
 * upgrade moves it.
 */
public final class GatlingInjector {

  private static final String STARTED_DATA =
      "io.gatling.core.controller.inject.Injector$StartedData";
  private static final String OPEN_INJECTION =
      "io.gatling.core.controller.inject.open.OpenInjection";

  private GatlingInjector() {}

  /**
   * The start of a scenario's open injection.
   *
   * @param core the simulation's core components, never null
   * @param scenario the scenario's name, never null
   * @return Gatling's clock at the injection's start, epoch milliseconds; null while the injector
   *     does not hold the scenario's injection in progress (not started yet, already over, or not
   *     open)
   * @throws IllegalStateException when Gatling's internals are not what 3.16.0 had (the message
   *     names the member)
   */
  public static Long injectionStart(CoreComponents core, String scenario) {
    Objects.requireNonNull(scenario, "scenario");
    Object controller = field(Objects.requireNonNull(core, "core").controller(), "actor");
    Object injector = field(controller, "injector");
    Object behavior = field(injector, "behavior");
    if (behavior == null) {
      return null;
    }
    Field dataField = findField(behavior.getClass(), "data$1");
    if (dataField == null || !dataField.getType().getName().equals(STARTED_DATA)) {
      // the injector is not started yet: its behavior is init's
      return null;
    }
    Object data = read(dataField, behavior);
    if (!(field(data, "inProgressInjections") instanceof scala.collection.Map<?, ?> injections)) {
      throw new IllegalStateException(
          "Gatling internals moved: " + STARTED_DATA + ".inProgressInjections is not a Map");
    }
    @SuppressWarnings("unchecked")
    Option<Object> injection = ((scala.collection.Map<String, Object>) injections).get(scenario);
    if (injection.isEmpty() || !injection.get().getClass().getName().equals(OPEN_INJECTION)) {
      return null;
    }
    return (Long) field(injection.get(), "startTime");
  }

  private static Object field(Object owner, String name) {
    Field f = findField(owner.getClass(), name);
    if (f == null) {
      throw new IllegalStateException(
          "Gatling internals moved: " + owner.getClass().getName() + " has no field " + name);
    }
    return read(f, owner);
  }

  private static Field findField(Class<?> type, String name) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        return c.getDeclaredField(name);
      } catch (NoSuchFieldException e) {
        // the superclass may declare it
      }
    }
    return null;
  }

  private static Object read(Field f, Object owner) {
    try {
      f.setAccessible(true);
      return f.get(owner);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(
          "Gatling internals moved: cannot read "
              + f.getDeclaringClass().getName()
              + "."
              + f.getName(),
          e);
    }
  }
}
