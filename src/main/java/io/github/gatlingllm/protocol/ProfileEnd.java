package io.github.gatlingllm.protocol;

import io.gatling.core.session.Session;
import io.github.gatlingllm.feeder.Conversation;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.report.Console;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. Ends the virtual users that would run on past their scenario's injection profile.
 *
 * <p>Gatling ends a run when its last virtual user ends; a user looping {@code forever()} never
 * does, so a closed profile ({@code incrementConcurrentUsers(3).times(5).eachLevelLasting(8)})
 * would run on past its last level, at its last concurrency, until killed. A closed profile says
 * how many users run for how long: past its end, a user about to send an LLM request ends instead
 * (the request it has in flight ends first, and is recorded). An open profile says when users
 * arrive: past its end (a profile that lasts, not only {@code atOnceUsers}), a user that already
 * sent an LLM request and comes back for another (a loop) ends; a user yet to send its first
 * request sends it (so {@code repeat(n)} users of an open profile that lasts end with it too).
 * Profiles of {@code atOnceUsers} only (no length) never end users here: their loops end with the
 * prompt budget. A conversation under way ends first; the next one is not begun. Each scenario says
 * once, on the console, that its users end. Off with {@code -Dllm.endWithProfile=false}.
 *
 * <p>The profile's end is its levels' anchor ({@code LevelTracker}: Gatling's injector start, or
 * the scenario's first LLM request less its profile's leading idle steps) plus its length.
 */
final class ProfileEnd {

  private static final Logger LOG = LoggerFactory.getLogger(ProfileEnd.class);

  private final Map<String, Injection> injections = new HashMap<>();
  private final Function<String, Long> endMs;
  private final Predicate<Session> sentBefore;
  private final Set<String> announced = ConcurrentHashMap.newKeySet();
  private final boolean enabled;

  /**
   * @param enabled {@code llm.endWithProfile}: false ends no user here
   * @param injections the simulation's profiles, one a scenario; empty when they could not be read
   *     (no user is ever ended)
   * @param endMs a scenario's profile end, epoch ms, or null while unknown
   * @param sentBefore whether an open-loop user has sent its first LLM request already
   */
  ProfileEnd(
      boolean enabled,
      List<Injection> injections,
      Function<String, Long> endMs,
      Predicate<Session> sentBefore) {
    this.enabled = enabled;
    for (Injection i : injections) {
      this.injections.putIfAbsent(i.scenario(), i);
    }
    this.endMs = endMs;
    this.sentBefore = sentBefore;
  }

  /**
   * Whether the user must end now, instead of sending an LLM request.
   *
   * @param session the user's session
   * @param nowMs now, epoch ms (Gatling's clock)
   * @return true to end the user
   */
  boolean past(Session session, long nowMs) {
    Injection injection = injections.get(session.scenario());
    if (!enabled || injection == null || (!injection.closed() && injection.durationMs() == 0)) {
      return false;
    }
    Long end = endMs.apply(session.scenario());
    if (end == null || nowMs < end) {
      return false;
    }
    if (!injection.closed() && !sentBefore.test(session)) {
      return false;
    }
    if (session.attributes().get(ConversationFeeder.CONVERSATION).getOrElse(() -> null)
            instanceof Conversation c
        && c.turnsSent() > 0
        && !c.over()) {
      // A conversation under way is one piece of work: it ends; the next one is not begun.
      return false;
    }
    if (announced.add(session.scenario())) {
      Console.line(
          LOG,
          String.format(
              Locale.ROOT,
              "the injection profile of scenario %s is over (%s, %.1f s): its virtual users"
                  + " still looping end as their requests in flight end, instead of running on",
              session.scenario(),
              injection.closed() ? "closed" : "open",
              injection.durationMs() / 1000.0));
    }
    return true;
  }
}
