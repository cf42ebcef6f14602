package io.github.gatlingllm.internal;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.action.Action;
import io.gatling.core.action.builder.SessionHookBuilder;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.Objects;
import scala.Function1;
import scala.Option;

/**
 * For internal use only. The one place that touches Gatling internals: a session function that is
 * handed a {@link Rows} writer, which logs response rows into Gatling's own statistics (console,
 * {@code simulation.log}, HTML report, assertions) with a given start and end.
 *
 * <p>Gatling's Java API has no way to log a custom timing. This builder captures the {@link
 * StatsEngine} from the {@link ScenarioContext} when the scenario is built, and runs the function
 * as Gatling's own session hook. An exception thrown by the function marks the virtual user's
 * session as failed with the exception's message; the virtual user goes on.
 */
public final class StatsHook implements ActionBuilder {

  /** Logs rows into Gatling's statistics for one virtual user. */
  public interface Rows {
    /**
     * Logs one response row.
     *
     * @param requestName the row's name, e.g. {@code "chat TTFT"}
     * @param startMillis start, epoch milliseconds (Gatling's clock)
     * @param endMillis end, epoch milliseconds, at least {@code startMillis}
     * @param ok whether the row counts as OK or KO
     * @param message an error message for a KO row, or null
     */
    void log(String requestName, long startMillis, long endMillis, boolean ok, String message);
  }

  /** The function run for each virtual user passing through. */
  @FunctionalInterface
  public interface Function {
    /**
     * Runs with the session and a row writer.
     *
     * @param session the virtual user's session
     * @param rows logs rows into Gatling's statistics
     * @return the next session
     */
    Session apply(Session session, Rows rows);
  }

  private final Function function;

  private StatsHook(Function function) {
    this.function = function;
  }

  /**
   * A chain step that runs {@code function} with a row writer.
   *
   * @param function the step, never null
   * @return the action builder
   */
  public static StatsHook of(Function function) {
    return new StatsHook(Objects.requireNonNull(function, "function"));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return new ScalaBuilder(function);
  }

  private static final class ScalaBuilder implements io.gatling.core.action.builder.ActionBuilder {
    private final Function function;

    ScalaBuilder(Function function) {
      this.function = function;
    }

    @Override
    public Action build(ScenarioContext ctx, Action next) {
      StatsEngine engine = ctx.coreComponents().statsEngine();
      Function1<io.gatling.core.session.Session, Validation<io.gatling.core.session.Session>> hook =
          scalaSession -> {
            try {
              Rows rows =
                  (name, start, end, ok, message) ->
                      engine.logResponse(
                          scalaSession.scenario(),
                          scalaSession.groups(),
                          name,
                          start,
                          Math.max(start, end),
                          ok ? OK$.MODULE$ : KO$.MODULE$,
                          Option.empty(),
                          Option.apply(message));
              return new Success<>(function.apply(new Session(scalaSession), rows).asScala());
            } catch (RuntimeException e) {
              return failure(
                  "gatling-llm: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
          };
      return new SessionHookBuilder(hook, true).build(ctx, next);
    }

    @SuppressWarnings("unchecked")
    private static Validation<io.gatling.core.session.Session> failure(String message) {
      // Failure is a Validation[Nothing]; Scala's covariance makes it a Validation[Session].
      return (Validation<io.gatling.core.session.Session>) (Validation<?>) new Failure(message);
    }
  }
}
