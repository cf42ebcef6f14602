package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Pins the Gatling 3.16.0 members {@link GatlingInjector} reads a scenario's injection start
 * through (a run reading them is {@code ClientLagTest}: its record says {@code injection_start:
 * gatling_injector}).
 */
class GatlingInjectorTest {

  @Test
  void theControllerReachesTheInjectorsCurrentBehavior() throws Exception {
    assertEquals(
        "io.gatling.core.actor.Actor",
        field("io.gatling.core.actor.AtomicRunnableActorRef", "actor").getType().getName());
    assertEquals(
        "io.gatling.core.actor.ActorRef",
        field("io.gatling.core.controller.Controller", "injector").getType().getName());
    assertEquals(
        "io.gatling.core.actor.package$Behavior",
        field("io.gatling.core.actor.AtomicRunnableActorRef", "behavior").getType().getName());
  }

  @Test
  void theStartedBehaviorHoldsTheInjectionsInProgress() throws Exception {
    Class<?> started =
        Class.forName("io.gatling.core.controller.inject.Injector$$anonfun$started$2");
    assertEquals(
        "io.gatling.core.controller.inject.Injector$StartedData",
        started.getDeclaredField("data$1").getType().getName());
    assertEquals(
        "scala.collection.immutable.Map",
        field("io.gatling.core.controller.inject.Injector$StartedData", "inProgressInjections")
            .getType()
            .getName());
    // only the started behavior holds the data: init's does not
    assertEquals(
        false,
        Arrays.stream(
                Class.forName("io.gatling.core.controller.inject.Injector$$anonfun$init$3")
                    .getDeclaredFields())
            .anyMatch(f -> f.getName().equals("data$1")));
  }

  @Test
  void anOpenInjectionKeepsItsStartTime() throws Exception {
    assertEquals(
        long.class,
        field("io.gatling.core.controller.inject.open.OpenInjection", "startTime").getType());
  }

  private static Field field(String className, String name) throws Exception {
    return Class.forName(className).getDeclaredField(name);
  }
}
