package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.prompt.ToolCatalog;
import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The tool-call model's reply ({@code TOOL_CALL_REPLY} in {@code scripts/llama-model.py}) against
 * what it must match, without a server: it is the Qwen3 template's rendering of a call of the first
 * tool {@link LlamaAgentSessionSimulation}'s catalog offers (seed 7, case {@code llamatools}), with
 * arguments its schema allows, split as the Qwen3 tokenizer splits that text, so the next turn's
 * prompt holds the very tokens the model generated. When the catalog's draws or the script change,
 * this fails here rather than as a cache miss in {@link LlamaAgentSessionTest}.
 */
class ToolCallModelTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The list literal in the script, a JSON array of token texts. */
  private static List<String> reply() throws Exception {
    String script = Files.readString(Path.of("scripts/llama-model.py"));
    int start = script.indexOf("TOOL_CALL_REPLY = [");
    int end = script.indexOf(']', start);
    JsonNode list = JSON.readTree(script.substring(script.indexOf('[', start), end + 1));
    List<String> pieces = new ArrayList<>();
    list.forEach(p -> pieces.add(p.asText()));
    return pieces;
  }

  @Test
  void theReplyCallsTheFirstToolOfTheTestsCatalogWithArgumentsItsSchemaAllows() throws Exception {
    assertEquals(
        "<tool_call>\n{\"name\": \"fetch_orders_0\", \"arguments\": {\"unit\": 7}}\n"
            + "</tool_call><|im_end|>",
        String.join("", reply()));
    ToolCatalog.Tool tool =
        new ToolCatalog(TestTokenizers.qwen3(), 7, "llamatools", 3, 24).tools().get(0);
    assertEquals("fetch_orders_0", tool.name());
    assertEquals("[\"unit\"]", tool.parameters().get("required").toString());
    assertEquals(
        "{\"type\":\"integer\",\"minimum\":1,\"maximum\":100}",
        tool.parameters().at("/properties/unit").toString());
  }

  @Test
  void theQwen3TokenizerSplitsTheTemplatedReplyAsTheModelSaysIt() throws Exception {
    HuggingFaceTokenCounter qwen3 = TestTokenizers.qwen3();
    List<String> pieces = reply();
    List<Long> said = new ArrayList<>();
    for (String piece : pieces) {
      long[] ids = qwen3.tokenIds(piece);
      assertEquals(1, ids.length, "piece " + JSON.writeValueAsString(piece));
      said.add(ids[0]);
    }
    // as the next turn's prompt has it: after the assistant lead, before the newline
    String templated = "<|im_start|>assistant\n" + String.join("", pieces) + "\n";
    List<Long> expected = new ArrayList<>();
    for (long id : qwen3.tokenIds("<|im_start|>assistant\n")) {
      expected.add(id);
    }
    expected.addAll(said);
    expected.add(qwen3.tokenIds("\n")[0]);
    assertEquals(
        expected, LongStream.of(qwen3.tokenIds(templated)).boxed().toList(), said.toString());
    assertEquals(22, said.size());
    assertEquals(
        "[151657, 198, 4913, 606, 788, 330, 9641, 37129, 62, 15, 497, 330, 16370, 788, 5212, 3843,"
            + " 788, 220, 22, 11248, 151658, 151645]",
        Arrays.toString(said.stream().mapToLong(Long::longValue).toArray()));
  }
}
