package io.github.gatlingllm.internal;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.stressPeakUsers;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.javaapi.core.OpenInjectionStep;
import io.github.gatlingllm.levels.InjectionSchedule;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import scala.concurrent.duration.FiniteDuration;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link InjectionSchedule} against Gatling 3.16.0's own arrival spacing: each profile's arrivals
 * as Gatling's {@code OpenInjectionStep.chain} yields them (the iterator its injector reads) must
 * be the schedule's offsets, user by user. Also pins {@code chain}, the member this replays.
 */
class GatlingArrivalsTest {

  @Test
  void everyOpenStepIsSpacedAsGatlingSpacesIt() throws Exception {
    List<List<OpenInjectionStep>> profiles =
        List.of(
            List.of(atOnceUsers(7)),
            List.of(nothingFor(2), atOnceUsers(3), rampUsers(10).during(5)),
            List.of(rampUsers(2500).during(3)),
            List.of(rampUsers(7).during(Duration.ofMillis(2500))),
            List.of(rampUsers(7).during(Duration.ofMillis(500)), atOnceUsers(1)),
            List.of(constantUsersPerSec(2.5).during(4)),
            List.of(constantUsersPerSec(0.3).during(Duration.ofMillis(9500))),
            List.of(constantUsersPerSec(1234).during(2)),
            List.of(rampUsersPerSec(1).to(5).during(4)),
            List.of(rampUsersPerSec(0.7).to(3.3).during(7)),
            List.of(rampUsersPerSec(10).to(1).during(6)),
            List.of(rampUsersPerSec(2.5).to(2.5).during(4)),
            List.of(stressPeakUsers(20).during(3)),
            List.of(stressPeakUsers(1000).during(Duration.ofMillis(1700))),
            List.of(constantUsersPerSec(30).during(3).randomized()),
            List.of(rampUsersPerSec(5).to(40).during(4).randomized(), atOnceUsers(2)),
            List.of(
                incrementUsersPerSec(1.5)
                    .times(3)
                    .eachLevelLasting(3)
                    .separatedByRampsLasting(2)
                    .startingFrom(2)),
            List.of(
                incrementUsersPerSec(2).times(2).eachLevelLasting(2).separatedByRampsLasting(1)));
    for (List<OpenInjectionStep> profile : profiles) {
      List<Long> gatling = gatlingOffsets(profile);
      InjectionSchedule schedule =
          InjectionSchedule.of(
              GatlingInjection.read(
                      CollectionConverters.asScala(
                              List.of(
                                  scenario("s")
                                      .exec(session -> session)
                                      .injectOpen(profile)
                                      .asScala()))
                          .toList())
                  .get(0));
      List<Long> ours = new ArrayList<>();
      for (long k = 0; k < schedule.users(); k++) {
        ours.add(schedule.offsetMs(k));
      }
      assertEquals(gatling, ours, profile.toString());
    }
  }

  /** The offsets, in ms, of Gatling's own arrival iterator ({@code UserStream}'s fold). */
  private static List<Long> gatlingOffsets(List<OpenInjectionStep> profile) throws Exception {
    Method chain =
        io.gatling.core.controller.inject.open.OpenInjectionStep.class.getDeclaredMethod(
            "chain", scala.collection.Iterator.class);
    chain.setAccessible(true);
    Object iterator = scala.collection.Iterator.empty();
    for (int i = profile.size() - 1; i >= 0; i--) {
      iterator = chain.invoke(profile.get(i).asScala(), iterator);
    }
    List<Long> out = new ArrayList<>();
    scala.collection.Iterator<?> it = (scala.collection.Iterator<?>) iterator;
    while (it.hasNext()) {
      out.add(((FiniteDuration) it.next()).toMillis());
    }
    return out;
  }
}
