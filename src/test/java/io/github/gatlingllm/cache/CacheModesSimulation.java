package io.github.gatlingllm.cache;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The cache truth tests' workloads, one after another, each one virtual user at a time (so no
 * request overlaps another's prefill and the embedded simulator's cache meets the plan exactly):
 * {@code repeat}, {@code shared-prefix} (0.5, 4 groups, cold measured groups), {@code warm-groups}
 * (the same with {@code warmGroups()}) and {@code unique}, 256-token prompts, 4 warmup and {@code
 * cachetest.requests} (16) measured requests each, 4 output tokens ({@code cachetest.inputTokens}
 * changes the prompt size). Request names are {@code chat MODE}. {@code cachetest.modes} picks the
 * workloads (comma-separated), {@code cachetest.cacheBlocks} the embedded simulator's cache
 * capacity (0 turns it off).
 */
public class CacheModesSimulation extends Simulation {

  static final List<String> MODES = List.of("repeat", "shared-prefix", "warm-groups", "unique");

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(4)
          .simulator(
              SimulatorConfig.defaults()
                  .withBaseTtftMs(2)
                  .withDecodeMsPerToken(1)
                  .withCacheBlocks(Integer.getInteger("cachetest.cacheBlocks", 65_536)));

  PromptFeederBuilder base =
      prompts()
          .inputTokens(Integer.getInteger("cachetest.inputTokens", 256))
          .warmup(4)
          .requests(Integer.getInteger("cachetest.requests", 16));

  PromptFeederBuilder workload(String mode) {
    return switch (mode) {
      case "repeat" -> base.repeat();
      case "shared-prefix" -> base.sharedPrefix(0.5, 4);
      case "warm-groups" -> base.sharedPrefix(0.5, 4).warmGroups();
      case "unique" -> base.unique();
      default -> throw new IllegalArgumentException("cachetest.modes: unknown mode " + mode);
    };
  }

  PopulationBuilder run(String mode) {
    return scenario(mode)
        .forever()
        .on(
            feed(workload(mode).name(mode).caseId("cache-" + mode))
                .exec(llm("chat " + mode).chatCompletion()))
        .injectOpen(atOnceUsers(1));
  }

  {
    List<String> modes =
        List.of(System.getProperty("cachetest.modes", String.join(",", MODES)).split(","));
    PopulationBuilder chain = run(modes.get(0));
    List<String> names = new ArrayList<>();
    names.add("chat " + modes.get(0));
    for (String mode : modes.subList(1, modes.size())) {
      chain = chain.andThen(run(mode));
      names.add("chat " + mode);
    }
    setUp(chain).protocols(llm).assertions(llm.assertions(1.0, names.toArray(String[]::new)));
  }
}
