package io.github.gatlingllm.internal;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.util.GatlingVersion$;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.CoreComponents;
import io.gatling.core.action.Action;
import io.gatling.core.action.StopLoadGenerator;
import io.gatling.core.session.Block;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import java.util.Objects;
import scala.Option;
import scala.collection.immutable.List;
import scala.collection.immutable.List$;
import scala.runtime.BoxedUnit;

/**
 * For internal use only. Gatling 3.16's core internals that an LLM action needs besides HTTP: rows
 * in Gatling's statistics with a given start and end, a group around one request, ending a virtual
 * user, stopping the load generator and running code when the run terminates. Looked up in one
 * place, with {@code GatlingInternalsTest} failing when an upgrade moves one.
 */
public final class GatlingCore {

  private final CoreComponents core;
  private final StatsEngine stats;
  private final java.util.concurrent.atomic.AtomicBoolean statsActive;
  private volatile boolean figuresAsRequests;

  /**
   * The internals of one simulation's core components.
   *
   * @param core the core components, from the scenario context, never null
   */
  public GatlingCore(CoreComponents core) {
    this.core = Objects.requireNonNull(core, "core");
    this.stats = core.statsEngine();
    this.statsActive = activeFlag(stats);
  }

  /**
   * The flag Gatling's {@code DataWritersStatsEngine} turns off when the controller stops the run
   * (a graceful stop, {@code maxDuration}, or every user ended): rows logged after it are dropped.
   * Looked up once; null for another statistics engine (then {@link #takesRows()} says true).
   */
  static java.util.concurrent.atomic.AtomicBoolean activeFlag(StatsEngine stats) {
    if (!(stats instanceof io.gatling.core.stats.DataWritersStatsEngine)) {
      return null;
    }
    try {
      java.lang.reflect.Field field =
          io.gatling.core.stats.DataWritersStatsEngine.class.getDeclaredField("active");
      field.setAccessible(true);
      return (java.util.concurrent.atomic.AtomicBoolean) field.get(stats);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException(
          "gatling-llm: Gatling's DataWritersStatsEngine.active is not where Gatling 3.16 has it"
              + " (an unsupported Gatling version?): "
              + e,
          e);
    }
  }

  /**
   * Whether Gatling's statistics still take rows: false once Gatling's controller stopped the run
   * ({@code maxDuration}, a stop of the load generator, every user ended). A request that ends
   * later has no row in Gatling's counts.
   *
   * @return true while rows are taken (always, for a statistics engine other than Gatling's own)
   */
  public boolean takesRows() {
    return statsActive == null || statsActive.get();
  }

  /**
   * The running Gatling's version.
   *
   * @return e.g. {@code 3.16.0}
   */
  public static String version() {
    return GatlingVersion$.MODULE$.ThisVersion().fullVersion();
  }

  /**
   * Gatling's clock, epoch milliseconds: the clock of every row.
   *
   * @return now, epoch ms
   */
  public long nowMillis() {
    return core.clock().nowMillis();
  }

  /**
   * Logs one response row into Gatling's statistics (console, {@code simulation.log}, HTML report,
   * assertions), in the session's groups.
   *
   * @param session the virtual user's session, never null
   * @param name the row's name
   * @param startMs start, epoch ms of Gatling's clock
   * @param endMs end, epoch ms; raised to {@code startMs} when earlier
   * @param ok OK or KO
   * @param message the KO message, or null
   */
  public void logRow(
      Session session, String name, long startMs, long endMs, boolean ok, String message) {
    logResponse(session.scenario(), session.groups(), name, startMs, endMs, ok, message);
  }

  /**
   * Logs one response row into Gatling's statistics outside any virtual user's groups: a verdict of
   * the whole run, e.g. the {@code SLO LOAD} row.
   *
   * @param scenario the scenario the row belongs to
   * @param name the row's name
   * @param startMs start, epoch ms of Gatling's clock
   * @param endMs end, epoch ms; raised to {@code startMs} when earlier
   * @param ok OK or KO
   * @param message the KO message, or null
   */
  public void logRow(
      String scenario, String name, long startMs, long endMs, boolean ok, String message) {
    logResponse(scenario, List$.MODULE$.empty(), name, startMs, endMs, ok, message);
  }

  /**
   * Logs one LLM figure into Gatling's statistics as a group, not as a request: a group row named
   * {@code name} under {@code parents} (top level when empty), one entry whose start is {@code
   * startMs}, whose end and whose cumulated response time are {@code endMs - startMs} (so the
   * figure reads the same whether {@code charting.useGroupDurationMetric} is on or off), OK or KO.
   * Gatling counts groups apart from requests: the figure is in {@code details(parents..., name)}
   * assertions, but never in Global Information nor in {@code global()} or {@code forAll()}
   * assertions; Gatling 3.16 shows no group without requests in its console or HTML report. With
   * {@link #figuresAsRequests(boolean)} on, the figure is a request row at the same path instead
   * (shown there, and counted in Global Information).
   *
   * @param scenario the scenario the row belongs to, never null
   * @param parents the groups the figure is nested in, outermost first; empty for top level
   * @param name the figure's group name, never null
   * @param startMs start, epoch ms of Gatling's clock
   * @param endMs end, epoch ms; raised to {@code startMs} when earlier
   * @param ok OK or KO
   */
  public void logFigure(
      String scenario,
      java.util.List<String> parents,
      String name,
      long startMs,
      long endMs,
      boolean ok) {
    long end = Math.max(startMs, endMs);
    if (figuresAsRequests) {
      logResponse(scenario, scalaList(parents), name, startMs, end, ok, null);
      return;
    }
    long span = Math.min(Integer.MAX_VALUE, end - startMs);
    List<String> hierarchy = List$.MODULE$.empty();
    hierarchy = hierarchy.$colon$colon(name);
    for (int i = parents.size() - 1; i >= 0; i--) {
      hierarchy = hierarchy.$colon$colon(parents.get(i));
    }
    stats.logGroupEnd(
        scenario,
        new GroupBlock(hierarchy, startMs, (int) span, ok ? OK$.MODULE$ : KO$.MODULE$),
        end);
  }

  /**
   * Makes {@link #logFigure} log request rows instead of groups ({@code llm.figuresAsRequests}).
   *
   * @param asRequests true for request rows
   */
  public void figuresAsRequests(boolean asRequests) {
    this.figuresAsRequests = asRequests;
  }

  /** One response row; its end raised to its start when earlier, a null message none. */
  private void logResponse(
      String scenario,
      List<String> groups,
      String name,
      long startMs,
      long endMs,
      boolean ok,
      String message) {
    stats.logResponse(
        scenario,
        groups,
        name,
        startMs,
        Math.max(startMs, endMs),
        ok ? OK$.MODULE$ : KO$.MODULE$,
        Option.empty(),
        Option.apply(message));
  }

  private static List<String> scalaList(java.util.List<String> names) {
    List<String> out = List$.MODULE$.empty();
    for (int i = names.size() - 1; i >= 0; i--) {
      out = out.$colon$colon(names.get(i));
    }
    return out;
  }

  /**
   * The groups a session is in, outermost first.
   *
   * @param session the session, never null
   * @return the group names, empty outside any group
   */
  public static java.util.List<String> groups(Session session) {
    return scala.jdk.javaapi.CollectionConverters.asJava(session.groups());
  }

  /**
   * Enters a Gatling group, as {@code group(name).on(...)} does.
   *
   * @param session the session
   * @param name the group's name
   * @param startMs the group's start, epoch ms
   * @return the session inside the group
   */
  public static Session enterGroup(Session session, String name, long startMs) {
    return session.enterGroup(name, startMs);
  }

  /**
   * Leaves the innermost group, logging its end as Gatling's group end does.
   *
   * @param session a session inside a group entered with {@link #enterGroup}
   * @param endMs the group's end, epoch ms
   * @return the session outside the group
   * @throws IllegalStateException if the session is not inside a group
   */
  public Session exitGroup(Session session, long endMs) {
    List<Block> stack = session.blockStack();
    if (stack.isEmpty() || !(stack.head() instanceof GroupBlock group)) {
      throw new IllegalStateException("gatling-llm: exitGroup outside a group");
    }
    stats.logGroupEnd(session.scenario(), group, endMs);
    @SuppressWarnings("unchecked")
    List<Block> outer = (List<Block>) stack.tail();
    return session.exitGroup(outer);
  }

  /**
   * Records request timings in the session's enclosing groups, as Gatling's HTTP action does.
   *
   * @param session the session
   * @param startMs the request's start, epoch ms
   * @param endMs its end, epoch ms
   * @return the session
   */
  public static Session logGroupRequestTimings(Session session, long startMs, long endMs) {
    return session.logGroupRequestTimings(startMs, endMs);
  }

  /**
   * Gatling's exit: sending a session there ends its virtual user cleanly, wherever it is in its
   * scenario (a {@code forever} loop included).
   *
   * @return the exit action
   */
  public Action exit() {
    return core.exit();
  }

  /**
   * Stops the load generator: gracefully (the run ends as if its injection had ended, the report is
   * generated) or as a crash (the run fails with {@code message}).
   *
   * @param session the session of the virtual user that stops it
   * @param message why, shown by Gatling
   * @param crash whether the run failed
   */
  public void stopLoadGenerator(Session session, String message, boolean crash) {
    Validation<String> text = new Success<>(message);
    Validation<Object> yes = new Success<>(Boolean.TRUE);
    new StopLoadGenerator(s -> text, s -> yes, crash, stats, core.controller(), core.exit())
        .execute(session);
  }

  /**
   * Stops the load generator gracefully from outside any virtual user (a watch's own thread), as
   * {@link #stopLoadGenerator(Session, String, boolean)} does for a user: Gatling's {@code
   * StopLoadGenerator} reads the session only to evaluate its message and condition, and forwards
   * none once it stops, so a session of no user carries the call.
   *
   * @param message why, shown by Gatling
   */
  public void stopLoadGenerator(String message) {
    stopLoadGenerator(
        io.gatling.core.session.Session$.MODULE$.apply(
            "gatling-llm", -1L, (io.netty.channel.EventLoop) null),
        message,
        false);
  }

  /**
   * Runs {@code task} when Gatling terminates the run: after the load and the simulation's {@code
   * after()}, before the HTML report and the assertions, whether they pass or not. Tasks run in the
   * reverse order of registration.
   *
   * @param task the task, never null
   */
  public void onTermination(Runnable task) {
    Objects.requireNonNull(task, "task");
    core.actorSystem()
        .registerOnTermination(
            () -> {
              task.run();
              return BoxedUnit.UNIT;
            });
  }
}
