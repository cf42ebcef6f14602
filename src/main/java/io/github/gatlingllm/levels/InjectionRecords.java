package io.github.gatlingllm.levels;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How {@code llm-run.json} writes injection profiles: {@code load.injection} (one JSON object per
 * scenario) and {@code load.profiles} (one readable line per scenario, in Gatling's Java DSL).
 */
public final class InjectionRecords {

  private InjectionRecords() {}

  /**
   * One scenario's {@code load.injection} entry: {@code scenario}, {@code kind} ({@code closed} or
   * {@code open}), {@code after} (the scenarios it starts after, {@code andThen}), {@code steps}
   * (each {@code type} = {@link Injection.Type} lower-cased, {@code from}, {@code to}, {@code
   * duration_ms}, and {@code level: true} for a step that makes a load level: {@link
   * LoadLevel#isLevel}).
   *
   * @param injection the profile, never null
   * @return an ordered, unmodifiable map
   */
  public static Map<String, Object> toRecord(Injection injection) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", injection.scenario());
    m.put("kind", injection.closed() ? "closed" : "open");
    m.put("after", injection.after());
    List<Object> steps = new ArrayList<>();
    for (Injection.Step s : injection.steps()) {
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("type", s.type().name().toLowerCase(Locale.ROOT));
      step.put("from", number(s.from()));
      step.put("to", number(s.to()));
      step.put("duration_ms", s.durationMs());
      if (LoadLevel.isLevel(s)) {
        step.put("level", true);
      }
      steps.add(Collections.unmodifiableMap(step));
    }
    m.put("steps", Collections.unmodifiableList(steps));
    return Collections.unmodifiableMap(m);
  }

  /**
   * Every profile's {@link #toRecord} entry.
   *
   * @param injections the profiles, never null
   * @return the entries in order, unmodifiable
   */
  public static List<Object> toRecords(List<Injection> injections) {
    List<Object> list = new ArrayList<>();
    for (Injection i : injections) {
      list.add(toRecord(i));
    }
    return Collections.unmodifiableList(list);
  }

  /**
   * One readable line of a profile, in Gatling's Java DSL, e.g. {@code chat (closed):
   * constantConcurrentUsers(1).during(5s), rampConcurrentUsers(1).to(2).during(1s),
   * constantConcurrentUsers(2).during(5s)}; {@code andThen} children say {@code (open, after
   * chat)}.
   *
   * @param injection the profile, never null
   * @return the line
   */
  public static String describe(Injection injection) {
    List<String> steps = new ArrayList<>();
    for (Injection.Step s : injection.steps()) {
      steps.add(describe(s));
    }
    return injection.scenario()
        + " ("
        + (injection.closed() ? "closed" : "open")
        + (injection.after().isEmpty() ? "" : ", after " + String.join(", ", injection.after()))
        + "): "
        + (steps.isEmpty() ? "no step" : String.join(", ", steps));
  }

  /**
   * One step in Gatling's Java DSL, e.g. {@code constantUsersPerSec(2.5).during(30s)}.
   *
   * @param s the step, never null
   * @return the text
   */
  public static String describe(Injection.Step s) {
    String from = LoadLevel.describeNumber(s.from());
    String to = LoadLevel.describeNumber(s.to());
    String during = ".during(" + seconds(s.durationMs()) + ")";
    return switch (s.type()) {
      case CONSTANT_CONCURRENT_USERS -> "constantConcurrentUsers(" + from + ")" + during;
      case RAMP_CONCURRENT_USERS -> "rampConcurrentUsers(" + from + ").to(" + to + ")" + during;
      case AT_ONCE_USERS -> "atOnceUsers(" + from + ")";
      case RAMP_USERS -> "rampUsers(" + from + ")" + during;
      case CONSTANT_USERS_PER_SEC -> "constantUsersPerSec(" + from + ")" + during;
      case RAMP_USERS_PER_SEC -> "rampUsersPerSec(" + from + ").to(" + to + ")" + during;
      case POISSON_USERS_PER_SEC ->
          (s.from() == s.to()
                  ? "constantUsersPerSec(" + from + ")"
                  : "rampUsersPerSec(" + from + ").to(" + to + ")")
              + during
              + ".randomized()";
      case STRESS_PEAK_USERS -> "stressPeakUsers(" + from + ")" + during;
      case NOTHING_FOR -> "nothingFor(" + seconds(s.durationMs()) + ")";
    };
  }

  private static String seconds(long ms) {
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  private static Number number(double v) {
    return v == Math.rint(v) ? (Number) (long) v : (Number) v;
  }
}
