package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import org.junit.jupiter.api.Test;

class MisfedTest {

  @Test
  void agentSessionFedAgentsGoesOn() {
    assertNull(Misfed.message("agent", true, true, false, null));
  }

  @Test
  void agentSessionFedAgentsBesideConversationsGoesOn() {
    assertNull(Misfed.message("agent", true, true, true, null));
  }

  @Test
  void agentSessionFedConversationsNamesThem() {
    assertEquals(
        "agentSession(llm(\"agent\")...): the virtual user was fed a conversations() feeder, but"
            + " agentSession(...) runs the sessions of an agents() feeder: feed one before it"
            + " (feed(agents()...).exec(agentSession(llm(\"agent\")...)))",
        Misfed.message("agent", true, false, true, null));
  }

  @Test
  void agentSessionFedPromptsNamesThem() {
    Workload prompts =
        new Workload(
            "misfed-prompts",
            new PromptSource(
                PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 0, "misfed", "measured", 8),
            1,
            0,
            Shard.SINGLE);
    try {
      assertEquals(
          "agentSession(llm(\"agent\")...): the virtual user was fed a prompts() feeder, but"
              + " agentSession(...) runs the sessions of an agents() feeder: feed one before it"
              + " (feed(agents()...).exec(agentSession(llm(\"agent\")...)))",
          Misfed.message("agent", true, false, false, prompts));
    } finally {
      prompts.close();
    }
  }

  @Test
  void agentSessionFedNothingSaysSo() {
    assertEquals(
        "agentSession(llm(\"agent\")...): the virtual user was fed no LLM feeder, but"
            + " agentSession(...) runs the sessions of an agents() feeder: feed one before it"
            + " (feed(agents()...).exec(agentSession(llm(\"agent\")...)))",
        Misfed.message("agent", true, false, false, null));
  }

  @Test
  void conversationFedAgentsOnlyNamesThem() {
    assertEquals(
        "conversation(llm(\"chat\")...): the virtual user was fed an agents() feeder, but"
            + " conversation(...) runs the conversations of a conversations() feeder: run agents()"
            + " sessions with agentSession(...) (feed(agents()...).exec(agentSession(llm(\"chat\")"
            + "...)))",
        Misfed.message("chat", false, true, false, null));
  }

  @Test
  void conversationFedConversationsBesideAgentsGoesOn() {
    assertNull(Misfed.message("chat", false, true, true, null));
  }

  @Test
  void conversationFedNothingIsLeftToItsSender() {
    assertNull(Misfed.message("chat", false, false, false, null));
  }
}
