package io.github.gatlingllm.token;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.testing.TestTokenizers;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The chat template's leading tokens, as the cache plan counts them. */
class ChatTemplateLeadTest {

  @Test
  void qwen3sChatMlTemplateLeadsWithThreeTokens() {
    ChatTemplateLead lead = ChatTemplateLead.ofTemplate(TestTokenizers.qwen3());
    assertEquals(new ChatTemplateLead(3, true, "<|im_start|>user\n"), lead);
  }

  @Test
  void theLeadIsAPrefixOfEveryTemplatedPromptsIds() {
    for (String name : new String[] {"qwen3", "gpt4o"}) {
      HuggingFaceTokenCounter counter = TestTokenizers.named(name);
      ChatTemplateLead lead = ChatTemplateLead.chatMl(counter);
      long[] leadIds = Arrays.copyOf(counter.tokenIds(lead.text()), lead.tokens());
      for (PromptSpec spec :
          new PromptSpec[] {
            PromptSpec.repeat(), PromptSpec.unique(), PromptSpec.sharedPrefix(0.5, 4)
          }) {
        PromptSource source = new PromptSource(spec, counter, 3, "case", "measured", 64);
        for (long i = 0; i < 20; i++) {
          long[] ids = counter.tokenIds(lead.text() + source.prompt(i).text());
          assertArrayEquals(leadIds, Arrays.copyOf(ids, lead.tokens()), name + " " + spec);
        }
      }
    }
  }

  @Test
  void aTokenizerWithoutTemplateHasAnUnknownLead() {
    assertEquals(
        ChatTemplateLead.UNKNOWN, ChatTemplateLead.ofTemplate(TestTokenizers.named("gpt4o")));
  }

  @Test
  void theEstimateCountsTheSimulatorsLeadAsOneWord() {
    assertEquals(
        new ChatTemplateLead(1, true, "<|im_start|>user\n"),
        ChatTemplateLead.chatMl(EstimatedTokenCounter.INSTANCE));
    assertEquals(
        ChatTemplateLead.UNKNOWN, ChatTemplateLead.ofTemplate(EstimatedTokenCounter.INSTANCE));
  }

  @Test
  void aDefaultSystemMessageWrittenInTheTemplateLeadsToo() {
    String qwen25 =
        "{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\\n' +"
            + " messages[0]['content'] + '<|im_end|>\\n' }}{%- else %}{{-"
            + " '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful"
            + " assistant.<|im_end|>\\n' }}{%- endif %}";
    assertEquals(
        "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful"
            + " assistant.<|im_end|>\n",
        ChatTemplateLead.defaultSystem(qwen25));
    assertEquals("", ChatTemplateLead.defaultSystem(TestTokenizers.qwen3().chatTemplate()));
  }
}
