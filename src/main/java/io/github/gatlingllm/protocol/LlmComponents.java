package io.github.gatlingllm.protocol;

import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import java.util.Objects;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Not API. The LLM protocol's components in Gatling's registry: the {@link RunContext} of the
 * simulation. Per virtual user, the start and end of the HTTP components the LLM requests go
 * through (DNS resolver, TLS contexts and, without shared connections, the user's own pool).
 */
public final class LlmComponents implements ProtocolComponents {

  private final RunContext run;

  LlmComponents(RunContext run) {
    this.run = Objects.requireNonNull(run, "run");
  }

  /**
   * The run.
   *
   * @return never null
   */
  public RunContext run() {
    return run;
  }

  @Override
  public Function1<Session, Session> onStart() {
    return run.http().onStart();
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    return run.http().onExit();
  }
}
