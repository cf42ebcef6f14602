package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConversationSenderTest {

  @Test
  void theContextLimitWarningNamesTheWorkloadTheConversationAndTheBound() {
    assertEquals(
        "workload conversations: measured conversation 3 ends before turn 4 of 6: its prompt of"
            + " about 7900 tokens (16 of them the template allowance) and max_tokens 512 (8412"
            + " tokens in all) would exceed llm.maxContextTokens=8192; the turn is not sent (each such end is counted in llm-run.json's conversations,"
            + " ended_by_context_limit; this is said once)",
        ConversationSender.contextLimitMessage(
            "conversations", "measured", 3, 4, 6, 7900, 16, 512, 8192));
  }
}
