package io.github.gatlingllm.internal;

import io.gatling.core.action.Action;
import java.util.Objects;

/**
 * Not API. The base of a Gatling {@link Action} written in Java: Gatling's {@code Action} is a
 * Scala trait that mixes in scala-logging's {@code StrictLogging}, whose logger field Scala
 * compiles into a getter and a setter with a mangled name; both live here, once. A subclass
 * implements {@code name()} and {@code execute(Session)}, catches every exception of its own (a
 * plain {@code Action} forwards no crash) and goes on with {@code next.$bang(session)}.
 */
public abstract class JavaAction implements Action {

  private com.typesafe.scalalogging.Logger logger;

  /**
   * An action logging through an SLF4J logger.
   *
   * @param log the logger, never null
   */
  protected JavaAction(org.slf4j.Logger log) {
    this.logger = com.typesafe.scalalogging.Logger$.MODULE$.apply(Objects.requireNonNull(log));
  }

  @Override
  public final com.typesafe.scalalogging.Logger logger() {
    return logger;
  }

  @Override
  public final void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(
      com.typesafe.scalalogging.Logger logger) {
    this.logger = logger;
  }
}
