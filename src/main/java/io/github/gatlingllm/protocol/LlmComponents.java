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

  /**
   * Also notes each user's start, for its schedule ({@link ClientWatch}); the first user's start,
   * before any request, checks the prompts against the server's context ({@link
   * RunContext#userStarting()}).
   */
  @Override
  public Function1<Session, Session> onStart() {
    Function1<Session, Session> http = run.http().onStart();
    return session -> {
      run.userStarting();
      run.client().userStarted(session);
      return http.apply(session);
    };
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    Function1<Session, BoxedUnit> http = run.http().onExit();
    return session -> {
      run.client().userExited(session);
      return http.apply(session);
    };
  }
}
