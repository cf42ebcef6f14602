package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The Gatling internals that {@link GatlingHttp} and {@link GatlingCore} use, by name and shape:
 * when a Gatling upgrade moves one, this fails with the member's name instead of a run failing
 * half-way. Checked on Gatling 3.16.0.
 */
class GatlingInternalsTest {

  @Test
  void gatlingVersionIsThePinnedOne() {
    assertEquals("3.16.0", GatlingCore.version());
  }

  @Test
  void httpEngineExecutesARequestWithAListenerOnAnEventLoop() throws Exception {
    method(
        "io.gatling.http.engine.HttpEngine",
        "executeRequest",
        "io.gatling.http.client.Request",
        "long",
        "boolean",
        "io.netty.channel.EventLoop",
        "io.gatling.http.client.HttpListener",
        "scala.Option");
  }

  @Test
  void httpListenerHasTheCallbacksTheActionImplements() throws Exception {
    method("io.gatling.http.client.HttpListener", "onSend");
    method("io.gatling.http.client.HttpListener", "onWrite", "io.netty.channel.Channel");
    method(
        "io.gatling.http.client.HttpListener",
        "onHttpResponse",
        "io.netty.handler.codec.http.HttpResponseStatus",
        "io.netty.handler.codec.http.HttpHeaders");
    method(
        "io.gatling.http.client.HttpListener",
        "onHttpResponseBodyChunk",
        "io.netty.buffer.ByteBuf",
        "boolean");
    method("io.gatling.http.client.HttpListener", "onThrowable", "java.lang.Throwable");
  }

  @Test
  void requestBuilderBuildsARequestDefinitionPerProtocol() throws Exception {
    method(
        "io.gatling.http.request.builder.HttpRequestBuilder",
        "build",
        "io.gatling.http.cache.HttpCaches",
        "io.gatling.http.protocol.HttpProtocol",
        "boolean",
        "io.gatling.core.config.GatlingConfiguration");
    method("io.gatling.http.request.HttpRequestDef", "build", "io.gatling.core.session.Session");
    method("io.gatling.http.request.HttpRequest", "clientRequest");
  }

  @Test
  void httpProtocolKeyMakesComponents() throws Exception {
    method("io.gatling.http.protocol.HttpProtocol$", "HttpProtocolKey");
    method("io.gatling.http.protocol.HttpComponents", "httpEngine");
    method("io.gatling.http.protocol.HttpComponents", "httpCaches");
    method("io.gatling.http.protocol.HttpComponents", "httpProtocol");
    method(
        "io.gatling.http.cache.SslContextSupport$",
        "sslContexts",
        "io.gatling.core.session.Session");
  }

  @Test
  void clientExceptionsTheListenerClassifiesExist() throws Exception {
    assertNotNull(Class.forName("io.gatling.http.client.impl.RequestTimeoutException"));
    assertNotNull(Class.forName("io.gatling.http.client.impl.PrematureCloseException"));
  }

  @Test
  void coreHasStatsGroupsExitAndStop() throws Exception {
    method(
        "io.gatling.core.stats.StatsEngine",
        "logResponse",
        "java.lang.String",
        "scala.collection.immutable.List",
        "java.lang.String",
        "long",
        "long",
        "io.gatling.commons.stats.Status",
        "scala.Option",
        "scala.Option");
    method(
        "io.gatling.core.stats.StatsEngine",
        "logGroupEnd",
        "java.lang.String",
        "io.gatling.core.session.GroupBlock",
        "long");
    method("io.gatling.core.session.Session", "enterGroup", "java.lang.String", "long");
    method("io.gatling.core.session.Session", "exitGroup", "scala.collection.immutable.List");
    method("io.gatling.core.CoreComponents", "exit");
    method("io.gatling.core.actor.ActorSystem", "registerOnTermination", "scala.Function0");
    assertNotNull(Class.forName("io.gatling.core.action.StopLoadGenerator").getConstructors()[0]);
    assertEquals(
        6,
        Class.forName("io.gatling.core.action.StopLoadGenerator")
            .getConstructors()[0]
            .getParameterCount());
  }

  @Test
  void aSessionOfNoUserCarriesAStopFromAWatchThread() {
    // GatlingCore.stopLoadGenerator(message): the silence watch stops the run from its own thread
    io.gatling.core.session.Session session =
        io.gatling.core.session.Session$.MODULE$.apply(
            "gatling-llm", -1L, (io.netty.channel.EventLoop) null);
    assertEquals("gatling-llm", session.scenario());
    assertEquals(-1L, session.userId());
  }

  @Test
  void aGroupBlockIsMadeFromItsHierarchyStartCumulatedTimeAndStatus() throws Exception {
    assertNotNull(
        Class.forName("io.gatling.core.session.GroupBlock")
            .getConstructor(
                scala.collection.immutable.List.class,
                long.class,
                int.class,
                io.gatling.commons.stats.Status.class));
  }

  @Test
  void gatlingsAssertionVerdictIsReachable() throws Exception {
    method(
        "io.gatling.charts.stats.LogFileReader",
        "apply",
        "java.lang.String",
        "java.nio.file.Path",
        "io.gatling.core.config.GatlingConfiguration");
    method("io.gatling.charts.stats.LogFileReader", "read");
    assertNotNull(
        Class.forName("io.gatling.shared.model.assertion.AssertionValidator")
            .getConstructor(
                Class.forName("io.gatling.shared.model.assertion.AssertionStatsRepository")));
    method(
        "io.gatling.shared.model.assertion.AssertionValidator",
        "validateAssertions",
        "scala.collection.immutable.List");
    method(
        "io.gatling.shared.model.assertion.AssertionMessage",
        "message",
        "io.gatling.commons.stats.assertion.Assertion");
    method("io.gatling.shared.model.assertion.AssertionResult$Resolved", "actualValue");
    method("io.gatling.shared.model.assertion.AssertionResult$ResolutionError", "error");
    method("io.gatling.core.CoreComponents", "configuration");
  }

  @Test
  void anAssertionsTextIsGatlingsOwn() {
    assertEquals(
        "chat E2E: percentage of failed events is less than 1.0",
        GatlingAssertions.message(io.github.gatlingllm.LlmDsl.failedBelow("chat", 1.0).asScala()));
  }

  private static Method method(String className, String name, String... parameterTypes)
      throws Exception {
    Class<?> type = Class.forName(className);
    Class<?>[] parameters = new Class<?>[parameterTypes.length];
    for (int i = 0; i < parameters.length; i++) {
      parameters[i] = classOf(parameterTypes[i]);
    }
    Method m = type.getMethod(name, parameters);
    assertNotNull(m, className + "." + name + Arrays.toString(parameterTypes));
    return m;
  }

  private static Class<?> classOf(String name) throws ClassNotFoundException {
    return switch (name) {
      case "long" -> long.class;
      case "boolean" -> boolean.class;
      case "int" -> int.class;
      default -> Class.forName(name);
    };
  }

  @Test
  void statsEngineHasTheFlagItDropsRowsBy() {
    // GatlingCore.takesRows: a request ending after Gatling's stats engine stopped is cut.
    io.gatling.core.stats.DataWritersStatsEngine engine =
        new io.gatling.core.stats.DataWritersStatsEngine(
            scala.collection.immutable.List$.MODULE$.empty(), null, null);
    java.util.concurrent.atomic.AtomicBoolean active = GatlingCore.activeFlag(engine);
    assertNotNull(active);
    assertEquals(true, active.get());
  }
}
