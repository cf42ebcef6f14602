package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * Vision prompts against text-only ones of the same shape (issue 45): two closed loops of 4 virtual
 * users each, both sending shared-prefix prompts of 256 tokens (half of each shared within 4
 * groups), the {@code vision} ones with two 448x448 JPEG images each, the first its group's (before
 * the text, in the group's shared prefix), the second its own. The run record's {@code images}
 * block, the console summary and the page give TTFT and E2E with images against text only; the
 * cache plan counts the images as Qwen2-VL does. Without {@code -Dllm.baseUrl} it runs against the
 * embedded simulator. The image settings are set here, not by {@code -Dllm.images.*} (a property
 * would apply to both workloads).
 */
public class VisionSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(32);

  PromptFeederBuilder text =
      prompts()
          .name("text")
          .sharedPrefix(0.5, 4)
          .inputTokens(256)
          .warmup(8)
          .requests(100)
          .caseId("vision_text");

  PromptFeederBuilder vision =
      prompts()
          .name("vision")
          .sharedPrefix(0.5, 4)
          .inputTokens(256)
          .images(2, 1)
          .imageSize(448, 448)
          .imageFormat("jpeg")
          .imageTokens("qwen2-vl")
          .warmup(8)
          .requests(100)
          .caseId("vision_images");

  ScenarioBuilder textUsers = scenario("text").forever().on(feed(text).exec(llm("text").request()));

  ScenarioBuilder visionUsers =
      scenario("vision").forever().on(feed(vision).exec(llm("vision").request()));

  {
    // Each loop stops when its 108 prompts are spent.
    setUp(
            textUsers.injectClosed(
                constantConcurrentUsers(concurrency(4)).during(Duration.ofMinutes(10))),
            visionUsers.injectClosed(
                constantConcurrentUsers(concurrency(4)).during(Duration.ofMinutes(10))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "text", "vision"));
  }
}
