package io.github.gatlingllm;

import io.github.gatlingllm.feeder.AgentFeeder;
import io.github.gatlingllm.feeder.AgentWorkload;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.prompt.AgentSource;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.settings.AgentSettings;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.token.TokenCounter;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * A feeder of agent sessions (issue 32; see docs/agents.md): each feed is one new session whose
 * turns {@link LlmDsl#agentSession(LlmActionBuilder)} sends. Every value can be overridden with
 * {@code -Dllm.agent.*} (and {@code -Dllm.maxContextTokens}); a bad value is refused with one line
 * naming the setting when the builder is called or the workload is made. Immutable: each method
 * returns a new builder.
 */
public final class AgentFeederBuilder
    extends SessionFeederBuilder<AgentFeederBuilder, AgentWorkload> {

  AgentFeederBuilder(Map<String, String> values, String name) {
    super(values, name);
  }

  @Override
  void check(Map<String, String> values) {
    AgentSettings.from(new java.util.Properties(), values);
  }

  @Override
  AgentFeederBuilder copy(Map<String, String> values, String name) {
    return new AgentFeederBuilder(values, name);
  }

  @Override
  String dslCall() {
    return "agents()";
  }

  /**
   * The measured sessions of the whole test ({@code llm.agent.sessions}, default 10).
   *
   * @param sessions at least 1
   * @return a new builder
   */
  public AgentFeederBuilder sessions(long sessions) {
    return with("agent.sessions", sessions);
  }

  /**
   * The warmup sessions, run before the measured ones ({@code llm.agent.warmupSessions}, 0).
   *
   * @param sessions at least 0
   * @return a new builder
   */
  public AgentFeederBuilder warmup(int sessions) {
    return with("agent.warmupSessions", sessions);
  }

  /**
   * The function tools of every request ({@code llm.agent.tools}, 4) and the tokens of each
   * description ({@code llm.agent.toolDescriptionTokens}, 48).
   *
   * @param tools from 0
   * @param descriptionTokens at least 1
   * @return a new builder
   */
  public AgentFeederBuilder tools(int tools, int descriptionTokens) {
    return with("agent.tools", tools, "agent.toolDescriptionTokens", descriptionTokens);
  }

  /**
   * The user task's tokens ({@code llm.agent.taskTokens}, 128).
   *
   * @param tokens at least 1
   * @return a new builder
   */
  public AgentFeederBuilder taskTokens(int tokens) {
    return with("agent.taskTokens", tokens);
  }

  /**
   * A system prompt of {@code tokens} shared by the sessions of each of {@code groups} groups
   * ({@code llm.agent.systemTokens}, {@code llm.agent.systemGroups}).
   *
   * @param tokens at least 1
   * @param groups at least 1
   * @return a new builder
   */
  public AgentFeederBuilder systemPrompt(int tokens, int groups) {
    return withSystemPrompt("agent.systemTokens", tokens, "agent.systemGroups", groups);
  }

  /**
   * Each tool result's tokens ({@code llm.agent.toolResultTokens}, 256).
   *
   * @param tokens at least 1
   * @return a new builder
   */
  public AgentFeederBuilder toolResultTokens(int tokens) {
    return with("agent.toolResultTokens", tokens);
  }

  /**
   * The most loops a session runs ({@code llm.agent.toolCalls}, 4): a reply with tool calls after
   * that many ends the session as {@code loop_limit}.
   *
   * @param loops from 0
   * @return a new builder
   */
  public AgentFeederBuilder toolCalls(int loops) {
    return with("agent.toolCalls", loops);
  }

  /**
   * The pause standing for the tools' run before each loop's results ({@code
   * llm.agent.toolLatencyMs}, 0).
   *
   * @param latency at least 0
   * @return a new builder
   */
  public AgentFeederBuilder toolLatency(Duration latency) {
    return with("agent.toolLatencyMs", Objects.requireNonNull(latency, "latency").toMillis());
  }

  /**
   * A tool latency drawn per loop, uniform in {@code [min, max]} ms.
   *
   * @param min at least 0
   * @param max at least min
   * @return a new builder
   */
  public AgentFeederBuilder toolLatency(Duration min, Duration max) {
    return with("agent.toolLatencyMs", millisRange(min, max));
  }

  /**
   * The requests' {@code tool_choice} ({@code llm.agent.toolChoice}): {@code auto}, {@code
   * required} or {@code none}.
   *
   * @param choice never null
   * @return a new builder
   */
  public AgentFeederBuilder toolChoice(String choice) {
    return with("agent.toolChoice", Objects.requireNonNull(choice, "choice"));
  }

  @Override
  public Iterator<Map<String, Object>> get() {
    return new AgentFeeder(workload());
  }

  /**
   * The workload, made once on first use.
   *
   * @return never null
   */
  @Override
  public AgentWorkload workload() {
    return super.workload();
  }

  @Override
  AgentWorkload build() {
    io.github.gatlingllm.settings.ImageSettings.refuseOutsidePrompts("agents()");
    AgentSettings s = AgentSettings.from(System.getProperties(), values);
    io.github.gatlingllm.settings.SettingUse.RUN.made(
        io.github.gatlingllm.settings.SettingUse.Part.AGENTS);
    Map<String, String> shared = new java.util.LinkedHashMap<>();
    for (String key : java.util.List.of("seed", "caseId", "tokenizer")) {
      if (values.containsKey(key)) {
        shared.put(key, values.get(key));
      }
    }
    LlmSettings llm = LlmSettings.fromSystemPropertiesBesidePrompts(shared);
    TokenCounter counter = counter(llm.tokenizer());
    String caseId = System.getProperty(LlmSettings.PREFIX + "caseId", values.get("caseId"));
    if (caseId == null || caseId.isBlank()) {
      caseId = s.spec().defaultCaseId();
    }
    AgentSource source =
        new AgentSource(s.spec(), counter, llm.seed(), caseId, Phase.MEASURED.wireName());
    synchronized (AgentFeederBuilder.class) {
      return new AgentWorkload(
          AgentWorkload.claimName(name), source, s.sessions(), s.warmupSessions(), Shard.current());
    }
  }
}
