package io.github.gatlingllm.dsl;

import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Mistakes in the DSL fail where they are written, while the simulation is constructed (before
 * Gatling starts the simulator, opens a run folder or sends anything), with one message naming the
 * call or setting, the value and what is allowed.
 */
@ExtendWith(NoLlmProperties.class)
class EarlyErrorsTest {

  private static String message(Runnable call) {
    return assertThrows(IllegalArgumentException.class, call::run).getMessage();
  }

  @Test
  void sharedPrefixRatioAboveOne() {
    assertEquals(
        "llm.sharedPrefixRatio: got 1.5, expected a number between 0 and 1, exclusive",
        message(() -> prompts().sharedPrefix(1.5, 4)));
  }

  @Test
  void sharedPrefixWithoutGroups() {
    assertEquals(
        "llm.prefixGroups: got 0, expected a whole number >= 1",
        message(() -> prompts().sharedPrefix(0.5, 0)));
  }

  @Test
  void feederTokenizerThatDoesNotExist() {
    assertEquals(
        "llm.tokenizer: got \"/no/such/tokenizer.json\", expected estimate, or the path of an"
            + " existing tokenizer.json or of a folder holding one",
        message(() -> prompts().tokenizer("/no/such/tokenizer.json")));
  }

  @Test
  void feederRequestsZero() {
    assertEquals(
        "llm.requests: got 0, expected a whole number >= 1", message(() -> prompts().requests(0)));
  }

  @Test
  void protocolMaxTokensZero() {
    assertEquals(
        "llm().maxTokens: got 0, expected a whole number >= 1 (llm.outputTokens)",
        message(() -> llm().maxTokens(0)));
  }

  @Test
  void requestMaxTokensZero() {
    assertEquals(
        "llm(\"chat\").maxTokens: got 0, expected a whole number >= 1",
        message(() -> llm("chat").chatCompletion().maxTokens(0)));
  }

  @Test
  void protocolBodySetsTheModel() {
    assertEquals(
        "llm().body(\"model\", \"x\"): the request body sets \"model\" itself, expected another"
            + " field (the body sets model, messages, prompt, stream, max_tokens,"
            + " max_completion_tokens); use llm().model(...)",
        message(() -> llm().body("model", "x")));
  }

  @Test
  void requestBodySetsTheMessages() {
    assertEquals(
        "llm(\"chat\").body(\"messages\", \"x\"): the request body sets \"messages\" itself,"
            + " expected another field (the body sets model, messages, prompt, stream,"
            + " max_tokens, max_completion_tokens); use the prompt: feed(prompts()...) or"
            + " .prompt(...)",
        message(() -> llm("chat").chatCompletion().body("messages", "x")));
  }

  @Test
  void protocolBodySetsTheTemperatureTheProtocolSets() {
    assertEquals(
        "llm().body(\"temperature\", 0.5): the request body sets \"temperature\" itself, expected"
            + " another field (the body sets model, messages, prompt, stream, stream_options,"
            + " max_tokens, max_completion_tokens, temperature); use llm().temperature(...)",
        message(() -> llm().temperature(0).body("temperature", 0.5).protocol()));
  }

  @Test
  void protocolTokenizerThatDoesNotExist() {
    assertEquals(
        "llm.tokenizer: got \"/no/such/tokenizer.json\", expected estimate, or the path of an"
            + " existing tokenizer.json or of a folder holding one",
        message(() -> llm().tokenizer("/no/such/tokenizer.json").protocol()));
  }
}
