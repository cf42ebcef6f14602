package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProfileEndTest {

  /** closed: 9 s; open: 4 s of arrivals; burst: atOnceUsers only. Each ends at 10_000 + length. */
  private static final List<Injection> INJECTIONS =
      List.of(
          new Injection(
              "closed",
              true,
              List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 2, 2, 9_000)),
              List.of()),
          new Injection(
              "open",
              false,
              List.of(new Step(Type.CONSTANT_USERS_PER_SEC, 4, 4, 4_000)),
              List.of()),
          new Injection("burst", false, List.of(new Step(Type.AT_ONCE_USERS, 3, 3, 0)), List.of()));

  private static final Map<String, Long> ENDS =
      Map.of("closed", 19_000L, "open", 14_000L, "burst", 10_000L);

  /** Users 1 and 2 have sent an LLM request; others have not. */
  private static ProfileEnd end(boolean enabled) {
    return new ProfileEnd(enabled, INJECTIONS, ENDS::get, s -> Set.of(1L, 2L).contains(s.userId()));
  }

  private static Session user(String scenario, long id) {
    return Session$.MODULE$.apply(scenario, id, null);
  }

  @Test
  void aClosedUserBeforeTheEndGoesOn() {
    assertEquals(false, end(true).past(user("closed", 1), 18_999));
  }

  @Test
  void aClosedUserAtTheEndEnds() {
    assertEquals(true, end(true).past(user("closed", 1), 19_000));
  }

  @Test
  void aClosedUserYetToSendEndsToo() {
    assertEquals(true, end(true).past(user("closed", 7), 19_500));
  }

  @Test
  void anOpenUserLoopingPastTheEndEnds() {
    assertEquals(true, end(true).past(user("open", 2), 14_001));
  }

  @Test
  void anOpenUserYetToSendItsFirstRequestSendsIt() {
    assertEquals(false, end(true).past(user("open", 9), 14_001));
  }

  @Test
  void anAtOnceProfileHasNoEnd() {
    assertEquals(false, end(true).past(user("burst", 1), 60_000));
  }

  @Test
  void anEndNotYetKnownEndsNoUser() {
    ProfileEnd end = new ProfileEnd(true, INJECTIONS, scenario -> null, s -> true);
    assertEquals(false, end.past(user("closed", 1), 60_000));
  }

  @Test
  void aScenarioOfUnknownProfileGoesOn() {
    assertEquals(false, end(true).past(user("other", 1), 60_000));
  }

  @Test
  void turnedOffEndsNoUser() {
    assertEquals(false, end(false).past(user("closed", 1), 60_000));
  }
}
