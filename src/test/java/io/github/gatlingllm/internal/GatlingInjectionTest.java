package io.github.gatlingllm.internal;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.incrementConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.stressPeakUsers;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.javaapi.core.PopulationBuilder;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads injection profiles built with Gatling's Java DSL, as a simulation builds them, and pins the
 * internals {@link GatlingInjection} reads a running simulation's profiles through.
 */
class GatlingInjectionTest {

  @Test
  void incrementConcurrentUsersIsExpandedIntoLevelsAndRamps() {
    List<Injection> read =
        read(
            scenario("chat")
                .exec(session -> session)
                .injectClosed(
                    incrementConcurrentUsers(2)
                        .times(3)
                        .eachLevelLasting(Duration.ofSeconds(10))
                        .separatedByRampsLasting(Duration.ofSeconds(2))
                        .startingFrom(1)));
    assertEquals(
        List.of(
            new Injection(
                "chat",
                true,
                List.of(
                    new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 10_000),
                    new Step(Type.RAMP_CONCURRENT_USERS, 1, 3, 2_000),
                    new Step(Type.CONSTANT_CONCURRENT_USERS, 3, 3, 10_000),
                    new Step(Type.RAMP_CONCURRENT_USERS, 3, 5, 2_000),
                    new Step(Type.CONSTANT_CONCURRENT_USERS, 5, 5, 10_000)),
                List.of())),
        read);
  }

  @Test
  void chainedClosedStepsAreReadInOrder() {
    List<Injection> read =
        read(
            scenario("chat")
                .exec(session -> session)
                .injectClosed(
                    constantConcurrentUsers(1).during(5),
                    rampConcurrentUsers(1).to(8).during(3),
                    constantConcurrentUsers(8).during(5)));
    assertEquals(
        List.of(
            new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 5_000),
            new Step(Type.RAMP_CONCURRENT_USERS, 1, 8, 3_000),
            new Step(Type.CONSTANT_CONCURRENT_USERS, 8, 8, 5_000)),
        read.get(0).steps());
  }

  @Test
  void everyOpenStepIsRead() {
    List<Injection> read =
        read(
            scenario("open")
                .exec(session -> session)
                .injectOpen(
                    nothingFor(1),
                    atOnceUsers(3),
                    rampUsers(10).during(5),
                    constantUsersPerSec(2).during(10),
                    rampUsersPerSec(1).to(5).during(4),
                    constantUsersPerSec(3).during(2).randomized(),
                    stressPeakUsers(20).during(3),
                    incrementUsersPerSec(1.5).times(2).eachLevelLasting(5)));
    Injection open = read.get(0);
    assertEquals(false, open.closed());
    List<Step> steps = open.steps();
    assertEquals(
        List.of(
            new Step(Type.NOTHING_FOR, 0, 0, 1_000),
            new Step(Type.AT_ONCE_USERS, 3, 3, 0),
            new Step(Type.RAMP_USERS, 10, 10, 5_000),
            new Step(Type.CONSTANT_USERS_PER_SEC, 2, 2, 10_000),
            new Step(Type.RAMP_USERS_PER_SEC, 1, 5, 4_000)),
        steps.subList(0, 5));
    Step poisson = steps.get(5);
    assertEquals(Type.POISSON_USERS_PER_SEC, poisson.type());
    assertEquals(3.0, poisson.from());
    assertEquals(3.0, poisson.to());
    assertEquals(2_000, poisson.durationMs());
    assertEquals(
        List.of(
            new Step(Type.STRESS_PEAK_USERS, 20, 20, 3_000),
            new Step(Type.CONSTANT_USERS_PER_SEC, 0, 0, 5_000),
            new Step(Type.CONSTANT_USERS_PER_SEC, 1.5, 1.5, 5_000)),
        steps.subList(6, steps.size()));
  }

  @Test
  void andThenSequencesStartAfterTheLeavesOfTheOneBefore() {
    PopulationBuilder a = scenario("a").exec(session -> session).injectOpen(atOnceUsers(1));
    PopulationBuilder b = scenario("b").exec(session -> session).injectOpen(atOnceUsers(1));
    PopulationBuilder c = scenario("c").exec(session -> session).injectOpen(atOnceUsers(1));
    PopulationBuilder d = scenario("d").exec(session -> session).injectOpen(atOnceUsers(1));
    PopulationBuilder e = scenario("e").exec(session -> session).injectOpen(atOnceUsers(1));
    List<Injection> read = read(a.andThen(b, c).andThen(d), e);
    assertEquals(List.of("a", "b", "c", "d", "e"), read.stream().map(Injection::scenario).toList());
    assertEquals(
        List.of(List.of(), List.of("a"), List.of("a"), List.of("b", "c"), List.of()),
        read.stream().map(Injection::after).toList());
  }

  @Test
  void failurePercentBoundsAreReadFromDetailsFailedPercentLt() {
    io.gatling.commons.stats.assertion.AssertionPath chat =
        new io.gatling.commons.stats.assertion.AssertionPath.Details(
            scala.jdk.javaapi.CollectionConverters.asScala(List.of("chat")).toList());
    io.gatling.commons.stats.assertion.Target failedPercent =
        new io.gatling.commons.stats.assertion.Target.Percent(
            io.gatling.commons.stats.assertion.CountMetric.FailedRequests$.MODULE$);
    List<io.gatling.commons.stats.assertion.Assertion> assertions =
        List.of(
            new io.gatling.commons.stats.assertion.Assertion(
                chat, failedPercent, new io.gatling.commons.stats.assertion.Condition.Lt(1.0)),
            // not a failure bound: an upper bound on successful requests' share
            new io.gatling.commons.stats.assertion.Assertion(
                chat,
                new io.gatling.commons.stats.assertion.Target.Percent(
                    io.gatling.commons.stats.assertion.CountMetric.SuccessfulRequests$.MODULE$),
                new io.gatling.commons.stats.assertion.Condition.Lt(99.0)),
            // a global bound names no request
            new io.gatling.commons.stats.assertion.Assertion(
                io.gatling.commons.stats.assertion.AssertionPath.Global$.MODULE$,
                failedPercent,
                new io.gatling.commons.stats.assertion.Condition.Lt(2.0)));
    assertEquals(Map.of("chat", 1.0), GatlingInjection.failedPercentBelow(assertions));
  }

  @Test
  void aFailureBoundOnTheE2eFigureIsReadUnderTheRequestName() {
    List<io.gatling.commons.stats.assertion.Assertion> assertions =
        List.of(io.github.gatlingllm.LlmDsl.failedBelow("chat", 2.5).asScala());
    assertEquals(Map.of("chat", 2.5), GatlingInjection.failedPercentBelow(assertions));
  }

  @Test
  void aRunningSimulationsProfilesAreReachableFromItsController() throws Exception {
    Field actor =
        Class.forName("io.gatling.core.actor.AtomicRunnableActorRef").getDeclaredField("actor");
    assertEquals("io.gatling.core.actor.Actor", actor.getType().getName());
    Field params =
        Class.forName("io.gatling.core.controller.Controller").getDeclaredField("simulationParams");
    assertEquals("io.gatling.core.scenario.SimulationParams", params.getType().getName());
    assertEquals(
        "scala.collection.immutable.List",
        Class.forName("io.gatling.core.scenario.SimulationParams")
            .getMethod("rootPopulationBuilders")
            .getReturnType()
            .getName());
    // GatlingInjection.maxDurationMs: the run record's end_reason max_duration
    assertEquals(
        "scala.Option",
        Class.forName("io.gatling.core.scenario.SimulationParams")
            .getMethod("maxDuration")
            .getReturnType()
            .getName());
    // the controller of CoreComponents is made by ActorSystem.actorOf, which wraps the actor in
    // an AtomicRunnableActorRef (read in ActorSystem.scala of 3.16.0)
    assertEquals(
        true,
        Class.forName("io.gatling.core.actor.ActorRef")
            .isAssignableFrom(Class.forName("io.gatling.core.actor.AtomicRunnableActorRef")));
    assertEquals(
        "io.gatling.core.actor.ActorRef",
        Class.forName("io.gatling.core.CoreComponents")
            .getMethod("controller")
            .getReturnType()
            .getName());
  }

  @Test
  void theDetailsAssertionsPathsAreRead() {
    List<io.gatling.javaapi.core.Assertion> assertions =
        List.of(
            io.gatling.javaapi.core.CoreDsl.global().failedRequests().percent().lt(1.0),
            io.gatling.javaapi.core.CoreDsl.details("warmup", "chat")
                .failedRequests()
                .count()
                .is(0L),
            io.github.gatlingllm.LlmDsl.sloLoadMet(),
            io.gatling.javaapi.core.CoreDsl.forAll().failedRequests().percent().lt(5.0));
    assertEquals(
        List.of(List.of("warmup", "chat"), List.of("SLO LOAD")),
        GatlingInjection.assertedPaths(
            CollectionConverters.asScala(
                    assertions.stream().map(io.gatling.javaapi.core.Assertion::asScala).toList())
                .toList()));
  }

  private static List<Injection> read(PopulationBuilder... builders) {
    return GatlingInjection.read(
        CollectionConverters.asScala(
                Arrays.stream(builders).map(PopulationBuilder::asScala).toList())
            .toList());
  }
}
