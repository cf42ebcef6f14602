package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@link JavaAction} against Gatling 3.16.0's {@code Action} trait: when an upgrade adds an
 * abstract member or moves scala-logging's setter, this fails naming it instead of an {@code
 * AbstractMethodError} in the middle of a run.
 */
class JavaActionTest {

  private static final class Named extends JavaAction {
    Named() {
      super(LoggerFactory.getLogger(JavaActionTest.class));
    }

    @Override
    public String name() {
      return "named";
    }

    @Override
    public void execute(Session session) {}
  }

  @Test
  void everyAbstractMemberOfGatlingsActionIsImplementedByTheBaseOrLeftToTheAction()
      throws Exception {
    List<String> left = new ArrayList<>();
    for (Method m : Action.class.getMethods()) {
      if (!Modifier.isAbstract(m.getModifiers())) {
        continue;
      }
      Method impl = JavaAction.class.getMethod(m.getName(), m.getParameterTypes());
      if (Modifier.isAbstract(impl.getModifiers())) {
        left.add(m.getName());
      }
    }
    left.sort(null);
    assertEquals(List.of("execute", "name"), left);
  }

  @Test
  void scalaLoggingsSetterHasTheNameTheBaseOverrides() throws Exception {
    Method setter =
        Class.forName("com.typesafe.scalalogging.StrictLogging")
            .getMethod(
                "com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq",
                com.typesafe.scalalogging.Logger.class);
    assertEquals(void.class, setter.getReturnType());
  }

  @Test
  void theSetterReplacesTheLogger() {
    Named action = new Named();
    com.typesafe.scalalogging.Logger other =
        com.typesafe.scalalogging.Logger$.MODULE$.apply(LoggerFactory.getLogger("other"));
    action.com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(other);
    assertSame(other, action.logger());
  }
}
