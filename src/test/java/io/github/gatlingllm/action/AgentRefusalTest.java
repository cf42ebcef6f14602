package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * An agent session on the completions API (issue 40, item 7): refused when the scenario is built,
 * before any load, with one line naming where the API came from. Before, the first turn stopped the
 * run as a Gatling crash, the line three times with a stack trace, advising a DSL call when the API
 * came from {@code -Dllm.endpoint}.
 */
class AgentRefusalTest {

  @Test
  void fromTheEndpointSetting() {
    assertEquals(
        "llm.endpoint: got \"completions\", but agentSession(llm(\"agent\")...) sends tools and"
            + " reads tool calls, which the completions API (a raw text prompt) has not; expected"
            + " chat, responses or messages (or llm(\"agent\").chatCompletion() for this request)",
        LlmScalaActionBuilder.agentRefusal("agent", true, "completions"));
  }

  @Test
  void fromTheRequestsOwnCompletion() {
    assertEquals(
        "agentSession(llm(\"agent\").completion()): agentSession(llm(\"agent\")...) sends tools"
            + " and reads tool calls, which the completions API (a raw text prompt) has not;"
            + " expected llm(\"agent\").chatCompletion(), .responses() or .messages()",
        LlmScalaActionBuilder.agentRefusal("agent", false, "chat"));
  }
}
