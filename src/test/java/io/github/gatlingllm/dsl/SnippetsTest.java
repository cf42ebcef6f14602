package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.Proxy;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;
import static io.github.gatlingllm.LlmDsl.conversation;
import static io.github.gatlingllm.LlmDsl.conversations;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static io.github.gatlingllm.LlmDsl.sweep;
import static io.github.gatlingllm.LlmDsl.trace;
import static io.github.gatlingllm.LlmDsl.workingSetSweep;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.gatlingllm.ConversationFeederBuilder;
import io.github.gatlingllm.LlmActionBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.SweepBuilder;
import io.github.gatlingllm.TraceFeederBuilder;
import io.github.gatlingllm.WorkingSetSweep;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every Java snippet of the documentation, copied as written: this class compiles only while they
 * do. A snippet that changes in the documentation changes here in the same commit. (Gatling refuses
 * to construct a simulation outside a run, so compiling is the check; the forked tests run the same
 * shapes.)
 */
class SnippetsTest {

  /** {@code LlmDsl}'s class javadoc. */
  abstract static class LlmDslJavadocSimulation extends Simulation {
    // The snippet's class is named ChatSimulation.
    LlmProtocolBuilder llm = llm().maxTokens(32);
    PromptFeederBuilder prompts = prompts().sharedPrefix(0.5, 4).inputTokens(256).requests(200);
    ScenarioBuilder chat =
        scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

    {
      setUp(chat.injectClosed(constantConcurrentUsers(8).during(600))).protocols(llm);
    }
  }

  /** docs/run-end.md, "A spent budget stops only what it governs". */
  abstract static class RunEndDocSimulation extends Simulation {
    // The snippet's class is named BudgetBesideOwnPromptSimulation.
    LlmProtocolBuilder llm = llm().maxTokens(32);
    PromptFeederBuilder prompts = prompts().inputTokens(256).requests(10);
    ScenarioBuilder budgeted =
        scenario("budgeted").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));
    ScenarioBuilder own =
        scenario("own prompt")
            .exec(
                llm("own").chatCompletion().prompt(session -> "Say hello to " + session.userId()));

    {
      setUp(
              budgeted.injectClosed(constantConcurrentUsers(2).during(60)),
              own.injectOpen(constantUsersPerSec(5).during(60)))
          .protocols(llm);
    }
  }

  /**
   * {@code WorkingSetSweep}'s class javadoc, {@code LlmDsl.workingSetSweep}'s and the README's "The
   * working-set sweep".
   */
  abstract static class WorkingSetSweepJavadocSimulation extends Simulation {
    LlmProtocolBuilder llm = llm().maxTokens(16);

    WorkingSetSweep sweep =
        workingSetSweep(
            prompts().sharedPrefix(0.9, 1).inputTokens(1024).requests(64), 1, 2, 4, 8, 16);

    {
      setUp(
              sweep.populations(
                  step ->
                      scenario(step.name())
                          .forever()
                          .on(feed(step.prompts()).exec(llm("chat").chatCompletion()))
                          .injectOpen(atOnceUsers(4))))
          .protocols(llm);
    }
  }

  /**
   * The README's "Conversations" and {@code ConversationFeederBuilder}'s and {@code
   * LlmDsl.conversation}'s javadoc.
   */
  abstract static class ConversationsReadmeSimulation extends Simulation {
    ConversationFeederBuilder chats =
        conversations()
            .turns(3, 5) // per conversation, seeded (or .turns(4))
            .userTokens(96) // each new user message
            .systemPrompt(512, 2) // one of 2 system prompts, shared within its group
            .thinkTime(
                java.time.Duration.ofMillis(200),
                java.time.Duration.ofMillis(800)) // Gatling pauses, seeded
            .warmup(2)
            .conversations(24) // the measured budget
            .maxContextTokens(8192);
    // closed loop: each virtual user holds one conversation at a time
    ScenarioBuilder chat =
        scenario("chat").forever().on(feed(chats).exec(conversation(llm("chat").chatCompletion())));
    // open loop: conversations arrive at a rate, one virtual user each
    ScenarioBuilder arrivals =
        scenario("chat").feed(chats).exec(conversation(llm("chat").chatCompletion()));
    // ConversationFeederBuilder's class javadoc.
    ConversationFeederBuilder javadoc =
        conversations().turns(2, 6).userTokens(128).systemPrompt(1024, 4).conversations(100);

    {
      setUp(
              chat.injectClosed(constantConcurrentUsers(4).during(300)),
              arrivals.injectOpen(constantUsersPerSec(0.5).during(60)))
          .protocols(llm());
    }
  }

  /** {@code STYLE.md}, "A user's simulation is ordinary Gatling". */
  abstract static class StyleShapeSimulation extends Simulation {
    LlmProtocolBuilder llm = llm().maxTokens(32);
    PromptFeederBuilder prompts = prompts().sharedPrefix(0.5, 4).inputTokens(256).requests(200);
    ScenarioBuilder chat =
        scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

    {
      setUp(chat.injectClosed(constantConcurrentUsers(8).during(600))).protocols(llm);
    }
  }

  /**
   * The README's "Load levels and the sweep" (with 10 s levels), {@code LlmDsl.sweep()}'s and
   * {@code SweepBuilder}'s javadoc (30 s).
   */
  abstract static class SweepSnippetSimulation extends Simulation {
    LlmProtocolBuilder llm = llm();
    PromptFeederBuilder prompts = prompts();
    SweepBuilder sweep =
        sweep().maxConcurrency(16).levels(3).levelDuration(java.time.Duration.ofSeconds(10));
    ScenarioBuilder chat = scenario("chat").feed(prompts).exec(llm("chat").chatCompletion());

    {
      setUp(chat.injectClosed(sweep.steps())).protocols(llm.stopWhenSaturated(true));
    }
  }

  /** {@code docs/comparing.md}, "A regression gate in CI". */
  abstract static class GatedChatSimulation extends Simulation {
    LlmProtocolBuilder llm =
        llm()
            .maxTokens(64)
            .baseline("baseline/quickstartsimulation-20261201101500000")
            .noRegressionPct(5);
    PromptFeederBuilder prompts = prompts().unique().inputTokens(512).requests(400);
    ScenarioBuilder chat =
        scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

    {
      setUp(chat.injectClosed(constantConcurrentUsers(8).during(600)))
          .protocols(llm)
          .assertions(llm.assertions(1.0, "chat"));
    }
  }

  /**
   * {@code docs/simulations.md}, the quickstart's assertions joined with the user's own, and {@code
   * LlmAssertions}' class javadoc.
   */
  abstract static class JoinedAssertionsSimulation extends Simulation {
    LlmProtocolBuilder llm = llm().maxTokens(32);
    PromptFeederBuilder prompts = prompts().inputTokens(256).requests(200);
    ScenarioBuilder chat =
        scenario("chat")
            .forever()
            .on(feed(prompts).group("turn").on(exec(llm("chat").chatCompletion())));

    {
      setUp(chat.injectClosed(constantConcurrentUsers(8).during(Duration.ofMinutes(10))))
          .protocols(llm)
          .assertions(
              llm.assertions(1.0, "chat")
                  .and(
                      global().responseTime().percentile(99.0).lt(5_000), // the real requests only
                      details("turn", "chat").successfulRequests().percent().gt(99.0),
                      details("chat TTFT").responseTime().percentile(99.0).lt(500)));
    }
  }

  /** {@code LlmAssertions}' class javadoc. */
  abstract static class LlmAssertionsJavadocSimulation extends Simulation {
    LlmProtocolBuilder llm = llm();
    ScenarioBuilder chat = scenario("chat").exec(llm("chat").chatCompletion());

    {
      setUp(chat.injectOpen(atOnceUsers(8)))
          .protocols(llm)
          .assertions(
              llm.assertions(1.0, "chat")
                  .and(
                      global().responseTime().percentile(99.0).lt(5000),
                      details("turn", "chat").successfulRequests().percent().gt(99.0)));
    }
  }

  /** The snippets of single methods' and classes' javadoc, as expressions; never called. */
  static List<Object> methodSnippets() {
    // PromptFeederBuilder's class javadoc.
    ChainBuilder fed = feed(prompts().unique().inputTokens(1024));
    // LlmActionBuilder's class javadoc.
    ChainBuilder request = exec(llm("chat").chatCompletion());
    // LlmDsl.llm(String).
    LlmActionBuilder chat = llm("chat").chatCompletion();
    // LlmProtocolBuilder.body(String, Object).
    LlmProtocolBuilder topK = llm().body("top_k", 20);
    // LlmProtocolBuilder.metricsInterval(Duration): the README's "Server metrics".
    LlmProtocolBuilder scraped = llm().metricsInterval(java.time.Duration.ofSeconds(1));
    // LlmProtocolBuilder.http(HttpProtocolBuilder).
    LlmProtocolBuilder proxied =
        llm().http(http.proxy(Proxy("proxy", 3128)).enableHttp2().maxConnectionsPerHost(64));
    // The README's "Settings": the simulator's SimulatorConfig, imported by name.
    LlmProtocolBuilder simulated =
        llm().simulator(SimulatorConfig.defaults().withMaxConcurrent(4).withDecodeMsPerToken(5));
    return List.of(fed, request, chat, topK, scraped, proxied, simulated);
  }

  /** docs/own-project.md (also src/test/consumer's LlmSimulation). */
  abstract static class OwnProjectSimulation extends Simulation {
    // The snippet's class is named LlmSimulation.
    LlmProtocolBuilder llm = llm().maxTokens(8);

    PromptFeederBuilder prompts = prompts().inputTokens(64).requests(12);

    ScenarioBuilder chat = scenario("chat").feed(prompts).exec(llm("chat").chatCompletion());

    {
      setUp(chat.injectClosed(constantConcurrentUsers(2).during(java.time.Duration.ofSeconds(30))))
          .protocols(llm);
    }
  }

  /** docs/replies-in-the-session.md. */
  abstract static class FollowUpSimulation extends Simulation {
    LlmProtocolBuilder llm = llm().maxTokens(64);

    ScenarioBuilder chat =
        scenario("follow-up")
            .exec(
                llm("ask")
                    .chatCompletion()
                    .prompt("List three colours.")
                    .saveReplyAs("answer")
                    .saveFinishReasonAs("finish"))
            .doIf(session -> session.contains("answer"))
            .then(
                llm("follow-up")
                    .chatCompletion()
                    .prompt(
                        session -> "Which of these is warmest? " + session.getString("answer")));

    {
      setUp(chat.injectOpen(atOnceUsers(4))).protocols(llm);
    }
  }

  /** docs/run-start-and-end.md. */
  static List<LlmProtocolBuilder> runStartAndEnd() {
    LlmProtocolBuilder noPreflight = llm().preflight(false);
    LlmProtocolBuilder runOn = llm().endWithProfile(false);
    return List.of(noPreflight, runOn);
  }

  /** docs/run-end.md, "A target that goes away". */
  static List<LlmProtocolBuilder> targetDown() {
    LlmProtocolBuilder llm =
        llm()
            .targetDownAfter(java.time.Duration.ofSeconds(5))
            .targetDownMinErrors(20); // a slower verdict
    LlmProtocolBuilder goesOn = llm().stopWhenTargetDown(false);
    return List.of(llm, goesOn);
  }

  /** docs/run-end.md, "A target that goes silent". */
  static LlmProtocolBuilder targetSilent() {
    LlmProtocolBuilder llm = llm().silentSeconds(30); // long prompts: a 30 s prefill is no silence
    return llm;
  }

  /** docs/traces.md's "A runnable example" (the class is named TraceReplaySimulation there). */
  abstract static class TraceReplayDocSimulation extends Simulation {
    LlmProtocolBuilder llm = llm().ignoreEos(true);

    TraceFeederBuilder trace =
        trace("user-files/resources/traces/sample_trace.jsonl").blockTokens(512).timeScale(1.0);

    ScenarioBuilder replay = scenario("replay").feed(trace).exec(llm("replay").chatCompletion());

    {
      setUp(replay.injectOpen(trace.arrivals()))
          .protocols(llm)
          .assertions(llm.assertions(1.0, "replay"));
    }
  }

  /** docs/prompt-files.md, "Run one". */
  abstract static class PromptFileDocSimulation extends Simulation {
    PromptFeederBuilder prompts =
        prompts().fromFile("prompts.jsonl").warmup(8).tokenizer(".cache/tokenizers/qwen3");
    ScenarioBuilder chat =
        scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));
  }

  /** docs/gatling-http.md, "The shape" (the class is named HttpPromptsSimulation there). */
  abstract static class GatlingHttpDocSimulation extends Simulation {
    HttpProtocolBuilder httpProtocol =
        http.baseUrl("http://127.0.0.1:8000/v1").contentTypeHeader("application/json");
    LlmProtocolBuilder llm = llm();
    PromptFeederBuilder prompts = prompts().unique().inputTokens(128).requests(40);
    ScenarioBuilder complete =
        scenario("complete")
            .forever()
            .on(
                feed(prompts)
                    .exitHereIf(session -> session.getBoolean("llm.done"))
                    .exec(session -> session.set("prompt", session.getString("llm.text")))
                    .exec(
                        http("complete")
                            .post("/completions")
                            .body(
                                StringBody(
                                    "{\"model\": \"m\", \"prompt\": #{prompt.jsonStringify()},"
                                        + " \"max_tokens\": 32}"))
                            .check(status().is(200))));

    {
      setUp(complete.injectOpen(atOnceUsers(4))).protocols(httpProtocol, llm);
    }
  }

  /** docs/reasoning.md's "Try it on the embedded simulator". */
  abstract static class ReasoningDocSimulation extends Simulation {
    // The snippet's class is named ReasoningSimulation.
    LlmProtocolBuilder llm =
        llm()
            .maxTokens(96)
            .sloTtfoMs(1_000)
            .simulator(SimulatorConfig.defaults().withReasoningTokens(64));
    PromptFeederBuilder prompts = prompts().unique().inputTokens(256).requests(200);
    ScenarioBuilder chat =
        scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

    {
      setUp(chat.injectClosed(constantConcurrentUsers(8).during(600))).protocols(llm);
    }
  }

  /** docs/reasoning.md's "An SLO on the answer". */
  LlmProtocolBuilder reasoningSlo() {
    LlmProtocolBuilder llm = llm().maxTokens(1024).sloTtfoMs(2_000).sloTpotMs(50).goodputRatio(0.9);
    return llm;
  }

  /** docs/cancelling.md's example. */
  abstract static class CancellingDocSimulation extends Simulation {
    // The snippet's class is named CancellingSimulation.
    LlmProtocolBuilder llm =
        llm().maxTokens(256).cancelRate(0.25).cancelAfter(java.time.Duration.ofMillis(500));
    PromptFeederBuilder prompts = prompts().unique().inputTokens(512).requests(400);
    ScenarioBuilder chat =
        scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

    {
      setUp(chat.injectClosed(constantConcurrentUsers(16).during(600)))
          .protocols(llm)
          .assertions(llm.assertions(1.0, "chat"));
    }
  }

  @Test
  void theSnippetSimulationsAreAbstractSoGatlingsScanSkipsThem() {
    for (Class<?> c :
        List.of(
            LlmDslJavadocSimulation.class,
            StyleShapeSimulation.class,
            WorkingSetSweepJavadocSimulation.class,
            SweepSnippetSimulation.class,
            ConversationsReadmeSimulation.class,
            RunEndDocSimulation.class,
            OwnProjectSimulation.class,
            FollowUpSimulation.class,
            TraceReplayDocSimulation.class,
            PromptFileDocSimulation.class,
            GatlingHttpDocSimulation.class,
            GatedChatSimulation.class,
            ReasoningDocSimulation.class,
            CancellingDocSimulation.class)) {
      assertEquals(true, Modifier.isAbstract(c.getModifiers()), c.getName());
    }
  }
}
