package io.github.gatlingllm.internal;

import io.gatling.core.CoreComponents;
import io.gatling.core.structure.PopulationBuilder;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import scala.Product;
import scala.concurrent.duration.FiniteDuration;
import scala.jdk.javaapi.CollectionConverters;

/**
 * For internal use only. The injection profiles of the running simulation, read from Gatling 3.16's
 * internals: the controller actor's {@code SimulationParams} (its root population builders and
 * their {@code andThen} children), each builder's closed or open profile and its steps (case
 * classes, read through Scala's {@link Product} API), composite steps ({@code
 * incrementConcurrentUsers}, {@code incrementUsersPerSec}) expanded by Gatling's own {@code
 * composite}. Gatling hands none of this to a protocol; {@code GatlingInternalsTest} fails when an
 * upgrade moves it.
 */
public final class GatlingInjection {

  private GatlingInjection() {}

  /**
   * The injection of every scenario of the simulation whose core components these are.
   *
   * @param core the simulation's core components, never null
   * @return one entry per population (scenario), roots first, each followed by the scenarios it
   *     starts ({@code andThen}); never null
   * @throws IllegalStateException when Gatling's internals are not what this Gatling version had
   *     (the message names the member) or a step is of a kind this class does not know
   */
  public static List<Injection> read(CoreComponents core) {
    return read(params(core).rootPopulationBuilders());
  }

  /**
   * The request paths the simulation's {@code setUp(...).assertions(...)} assert on: one list of
   * names per {@code details(...)} assertion (group names then the request name); {@code global()}
   * and {@code forAll()} assertions are left out.
   *
   * @param core the simulation's core components, never null
   * @return the paths in assertion order, never null
   * @throws IllegalStateException when Gatling's internals are not what this Gatling version had
   */
  public static List<List<String>> assertedPaths(CoreComponents core) {
    return assertedPaths(params(core).assertions());
  }

  /**
   * The request paths of assertions, as {@link #assertedPaths(CoreComponents)}.
   *
   * @param assertions Gatling's assertions, never null
   * @return one list of names per {@code details(...)} assertion
   */
  public static List<List<String>> assertedPaths(
      scala.collection.immutable.Seq<io.gatling.commons.stats.assertion.Assertion> assertions) {
    List<List<String>> out = new ArrayList<>();
    for (io.gatling.commons.stats.assertion.Assertion a :
        scala.jdk.javaapi.CollectionConverters.asJava(assertions)) {
      if (a.path() instanceof io.gatling.commons.stats.assertion.AssertionPath.Details details) {
        out.add(List.copyOf(scala.jdk.javaapi.CollectionConverters.asJava(details.parts())));
      }
    }
    return out;
  }

  /**
   * The simulation's Gatling assertions ({@code setUp(...).assertions(...)}, the last call's), from
   * the same {@code SimulationParams} as {@link #read(CoreComponents)}.
   *
   * @param core the simulation's core components, never null
   * @return the assertions in order, never null
   * @throws IllegalStateException when Gatling's internals are not what this Gatling version had
   */
  public static List<io.gatling.commons.stats.assertion.Assertion> assertions(CoreComponents core) {
    return List.copyOf(CollectionConverters.asJava(params(core).assertions()));
  }

  private static io.gatling.core.scenario.SimulationParams params(CoreComponents core) {
    Objects.requireNonNull(core, "core");
    Object actor = field(core.controller(), "actor");
    Object params = field(actor, "simulationParams");
    if (!(params instanceof io.gatling.core.scenario.SimulationParams simulation)) {
      throw new IllegalStateException(
          "Gatling's controller holds no SimulationParams but " + className(params));
    }
    return simulation;
  }

  /**
   * The simulation's {@code maxDuration} ({@code setUp(...).maxDuration(...)}), read from the same
   * {@code SimulationParams} as {@link #read(CoreComponents)}.
   *
   * @param core the simulation's core components, never null
   * @return milliseconds, or null when the simulation has none
   * @throws IllegalStateException when Gatling's internals are not what this Gatling version had
   */
  public static Long maxDurationMs(CoreComponents core) {
    io.gatling.core.scenario.SimulationParams simulation = params(core);
    scala.Option<FiniteDuration> max = simulation.maxDuration();
    return max.isDefined() ? max.get().toMillis() : null;
  }

  /**
   * The failure-percentage bounds among the simulation's Gatling assertions: each {@code
   * details(name).failedRequests().percent().lt(bound)} (what {@code llm.assertions(bound,
   * names...)} adds), read from the same {@code SimulationParams} as {@link #read(CoreComponents)}.
   *
   * @param core the simulation's core components, never null
   * @return request name to bound in percent, in assertion order; empty when there is none
   * @throws IllegalStateException when Gatling's internals are not what this Gatling version had
   */
  public static Map<String, Double> failedPercentBelow(CoreComponents core) {
    io.gatling.core.scenario.SimulationParams simulation = params(core);
    return failedPercentBelow(CollectionConverters.asJava(simulation.assertions()));
  }

  /**
   * The failure-percentage bounds among assertions: each {@code
   * details(name).failedRequests().percent().lt(bound)} of a single-name path, and each {@code
   * details(name + " E2E")} one ({@code LlmDsl.failedBelow}) under {@code name}.
   *
   * @param assertions Gatling's assertions, never null
   * @return request name to bound in percent, in order; empty when there is none
   */
  public static Map<String, Double> failedPercentBelow(
      java.util.Collection<io.gatling.commons.stats.assertion.Assertion> assertions) {
    Map<String, Double> bounds = new LinkedHashMap<>();
    for (io.gatling.commons.stats.assertion.Assertion a : assertions) {
      if (a.path() instanceof io.gatling.commons.stats.assertion.AssertionPath.Details details
          && details.parts().size() == 1
          && a.target() instanceof io.gatling.commons.stats.assertion.Target.Percent percent
          && percent.metric()
              == io.gatling.commons.stats.assertion.CountMetric.FailedRequests$.MODULE$
          && a.condition() instanceof io.gatling.commons.stats.assertion.Condition.Lt lt) {
        String name = details.parts().head();
        bounds.put(name.endsWith(" E2E") ? name.substring(0, name.length() - 4) : name, lt.value());
      }
    }
    return bounds;
  }

  /**
   * The injection of every population of a simulation.
   *
   * @param roots the simulation's root population builders, never null
   * @return one entry per population, roots first, each followed by the populations it starts
   * @throws IllegalStateException when a profile or step is of a kind this class does not know
   */
  public static List<Injection> read(scala.collection.immutable.List<PopulationBuilder> roots) {
    List<Injection> out = new ArrayList<>();
    for (PopulationBuilder root : CollectionConverters.asJava(roots)) {
      add(root, List.of(), out);
    }
    return out;
  }

  private static void add(PopulationBuilder builder, List<String> after, List<Injection> out) {
    String name = builder.scenarioBuilder().name();
    Object profile = builder.injectionProfile();
    String kind = profile.getClass().getSimpleName();
    boolean closed;
    if (kind.equals("ClosedInjectionProfile")) {
      closed = true;
    } else if (kind.equals("OpenInjectionProfile")) {
      closed = false;
    } else {
      throw new IllegalStateException(
          "scenario " + name + ": Gatling injection profile " + kind + " is not known");
    }
    List<Step> steps = new ArrayList<>();
    for (Object step :
        CollectionConverters.asJava((scala.collection.Iterable<?>) field(profile, "steps"))) {
      steps(step, steps);
    }
    out.add(new Injection(name, closed, steps, after));
    // andThen: the first sequence starts after this population, each next one after the leaves of
    // the one before (Gatling's PopulationFlows)
    List<String> blockers = List.of(name);
    for (scala.collection.immutable.List<PopulationBuilder> sequence :
        CollectionConverters.asJava(builder.children())) {
      List<String> leaves = new ArrayList<>();
      for (PopulationBuilder child : CollectionConverters.asJava(sequence)) {
        add(child, blockers, out);
        leaves.addAll(leaves(child));
      }
      blockers = List.copyOf(leaves);
    }
  }

  private static List<String> leaves(PopulationBuilder builder) {
    List<scala.collection.immutable.List<PopulationBuilder>> sequences =
        CollectionConverters.asJava(builder.children());
    if (sequences.isEmpty()) {
      return List.of(builder.scenarioBuilder().name());
    }
    List<String> out = new ArrayList<>();
    for (PopulationBuilder child :
        CollectionConverters.asJava(sequences.get(sequences.size() - 1))) {
      out.addAll(leaves(child));
    }
    return out;
  }

  /** A step of one value over its {@code duration}: {@code value} from its start to its end. */
  private static Step level(Type type, Map<String, Object> f, String value) {
    double v = number(f, value);
    return new Step(type, v, v, millis(f, "duration"));
  }

  /** A step from {@code from} to {@code to} over its {@code duration}. */
  private static Step ramp(Type type, Map<String, Object> f, String from, String to) {
    return new Step(type, number(f, from), number(f, to), millis(f, "duration"));
  }

  private static void steps(Object step, List<Step> out) {
    if (!(step instanceof Product product)) {
      throw new IllegalStateException(
          "Gatling injection step " + className(step) + " is not known");
    }
    Map<String, Object> f = fields(product);
    switch (product.productPrefix()) {
      case "ConstantConcurrentUsersInjection" ->
          out.add(level(Type.CONSTANT_CONCURRENT_USERS, f, "number"));
      case "RampConcurrentUsersInjection" ->
          out.add(ramp(Type.RAMP_CONCURRENT_USERS, f, "from", "to"));
      case "AtOnceOpenInjection" -> {
        double users = number(f, "users");
        out.add(new Step(Type.AT_ONCE_USERS, users, users, 0));
      }
      case "RampOpenInjection" -> out.add(level(Type.RAMP_USERS, f, "users"));
      case "HeavisideOpenInjection" -> out.add(level(Type.STRESS_PEAK_USERS, f, "users"));
      case "ConstantRateOpenInjection" -> out.add(level(Type.CONSTANT_USERS_PER_SEC, f, "rate"));
      case "RampRateOpenInjection" ->
          out.add(ramp(Type.RAMP_USERS_PER_SEC, f, "startRate", "endRate"));
      case "PoissonOpenInjection" ->
          out.add(
              new Step(
                  Type.POISSON_USERS_PER_SEC,
                  number(f, "startRate"),
                  number(f, "endRate"),
                  millis(f, "duration"),
                  (long) number(f, "seed")));
      case "NothingForOpenInjection" ->
          out.add(new Step(Type.NOTHING_FOR, 0, 0, millis(f, "duration")));
      case "StairsConcurrentUsersCompositeStep", "StairsUsersPerSecCompositeStep" ->
          steps(invoke(step, "composite"), out);
      case "CompositeClosedInjectionStep", "CompositeOpenInjectionStep" -> {
        for (Object s :
            CollectionConverters.asJava((scala.collection.Iterable<?>) f.get("steps"))) {
          steps(s, out);
        }
      }
      default ->
          throw new IllegalStateException(
              "Gatling injection step " + product.productPrefix() + " is not known");
    }
  }

  private static Map<String, Object> fields(Product product) {
    Map<String, Object> out = new LinkedHashMap<>();
    scala.collection.Iterator<String> names = product.productElementNames();
    int i = 0;
    while (names.hasNext()) {
      out.put(names.next(), product.productElement(i++));
    }
    return out;
  }

  private static double number(Map<String, Object> fields, String name) {
    if (fields.get(name) instanceof Number n) {
      return n.doubleValue();
    }
    throw new IllegalStateException(
        "Gatling injection step has no number " + name + ": " + fields.keySet());
  }

  private static long millis(Map<String, Object> fields, String name) {
    if (fields.get(name) instanceof FiniteDuration d) {
      return d.toMillis();
    }
    throw new IllegalStateException(
        "Gatling injection step has no duration " + name + ": " + fields.keySet());
  }

  private static Object field(Object owner, String name) {
    for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(owner);
      } catch (NoSuchFieldException e) {
        // the superclass may declare it
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new IllegalStateException(
            "Gatling internals moved: cannot read " + owner.getClass().getName() + "." + name, e);
      }
    }
    throw new IllegalStateException(
        "Gatling internals moved: " + owner.getClass().getName() + " has no field " + name);
  }

  private static Object invoke(Object owner, String name) {
    try {
      Method m = owner.getClass().getMethod(name);
      m.setAccessible(true);
      return m.invoke(owner);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(
          "Gatling internals moved: cannot call " + owner.getClass().getName() + "." + name, e);
    }
  }

  private static String className(Object o) {
    return o == null ? "null" : o.getClass().getName();
  }
}
