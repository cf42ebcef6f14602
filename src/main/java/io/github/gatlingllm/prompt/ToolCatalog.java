package io.github.gatlingllm.prompt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gatlingllm.token.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The tools an agent session offers the model: {@code count} function tools with JSON-schema
 * parameters, the same for every session and phase of a case, so that they are part of the prefix
 * every session shares (as a real agent's tool catalog is). A pure function of (seed, case id,
 * count, description tokens, tokenizer):
 *
 * <ul>
 *   <li>draws: the first 8 bytes of {@code sha256("{seed}:{case_id}:tools:{i}:" + what)}, unsigned,
 *       modulo the range;
 *   <li>tool {@code i}'s name: {@code {verb}_{noun}_{i}}, verb and noun drawn from 8 each ({@code
 *       verb}, {@code noun});
 *   <li>its description: the nonce of {@code "{seed}:{case_id}:tools:tool:{i}"} in brackets and
 *       filler words up to {@code descriptionTokens}, as a unique prompt is made ({@link
 *       PromptSource#extend});
 *   <li>its parameters: a JSON schema {@code {"type": "object", "properties": {...}, "required":
 *       [...]}} of 1 to 4 properties ({@code params}), property {@code k} named from a list of 10
 *       ({@code param:{k}}, no name twice), of type {@code string}, {@code integer} (with {@code
 *       minimum} 1 and {@code maximum} 100), {@code boolean} or a {@code string} enum of 3 values
 *       ({@code type:{k}}); the first property required, each other one required on an even draw
 *       ({@code required:{k}}).
 * </ul>
 *
 * <p>Immutable and thread-safe; the JSON trees handed out are copies.
 */
public final class ToolCatalog {

  /** Most tools a catalog may hold. */
  public static final int MAX_TOOLS = 128;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] VERBS = {
    "search", "get", "list", "create", "update", "lookup", "fetch", "compute"
  };
  private static final String[] NOUNS = {
    "documents", "weather", "orders", "accounts", "tickets", "metrics", "files", "users"
  };
  private static final String[] PARAMS = {
    "query", "limit", "path", "id", "location", "unit", "since", "verbose", "format", "priority"
  };
  private static final String[] ENUM = {"low", "medium", "high"};

  /**
   * One function tool.
   *
   * @param name the function's name, never null
   * @param description its description, never null
   * @param parameters its JSON schema, never null; held, not copied: use {@link #function()} for a
   *     tree to change
   */
  public record Tool(String name, String description, JsonNode parameters) {

    /**
     * Checks the fields.
     *
     * @throws NullPointerException if a field is null
     */
    public Tool {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(description, "description");
      Objects.requireNonNull(parameters, "parameters");
    }

    /**
     * The tool as the chat API's {@code tools[]} takes it: {@code {"type": "function", "function":
     * {"name", "description", "parameters"}}}.
     *
     * @return a new tree
     */
    public ObjectNode function() {
      ObjectNode tool = JSON.createObjectNode();
      tool.put("type", "function");
      ObjectNode function = tool.putObject("function");
      function.put("name", name);
      function.put("description", description);
      function.set("parameters", parameters.deepCopy());
      return tool;
    }
  }

  private final List<Tool> tools;
  private final long seed;
  private final String caseId;
  private final int descriptionTokens;
  private final int tokens;

  /**
   * A catalog.
   *
   * @param counter counts tokens for the descriptions, never null
   * @param seed any integer; the same seed gives the same tools
   * @param caseId the case, never null
   * @param count the number of tools, 0 to {@value #MAX_TOOLS} (0: no tools)
   * @param descriptionTokens each description's size, in tokens of {@code counter}, at least 1
   * @throws IllegalArgumentException naming a value out of range
   * @throws NullPointerException if {@code counter} or {@code caseId} is null
   */
  public ToolCatalog(
      TokenCounter counter, long seed, String caseId, int count, int descriptionTokens) {
    Objects.requireNonNull(counter, "counter");
    Objects.requireNonNull(caseId, "caseId");
    if (count < 0 || count > MAX_TOOLS) {
      throw new IllegalArgumentException(
          "tools: got " + count + ", expected 0 to " + MAX_TOOLS + " tools");
    }
    if (descriptionTokens < 1) {
      throw new IllegalArgumentException(
          "toolDescriptionTokens: got " + descriptionTokens + ", expected >= 1");
    }
    this.seed = seed;
    this.caseId = caseId;
    this.descriptionTokens = descriptionTokens;
    // extend() only: the size given here is never used; at least MIN_CONTROLLED_TOKENS, so no
    // warning about small prompts.
    PromptSource text =
        new PromptSource(
            PromptSpec.unique(),
            counter,
            seed,
            caseId,
            "tools",
            Math.max(PromptSource.MIN_CONTROLLED_TOKENS, descriptionTokens));
    byte[] label = (seed + ":" + caseId + ":tools:").getBytes(StandardCharsets.UTF_8);
    List<Tool> made = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name =
          VERBS[(int) draw(label, i, "verb", VERBS.length)]
              + "_"
              + NOUNS[(int) draw(label, i, "noun", NOUNS.length)]
              + "_"
              + i;
      String description = text.extend("tool:" + i, descriptionTokens, "tool" + i + "-").text();
      made.add(new Tool(name, description, parameters(label, i)));
    }
    this.tools = List.copyOf(made);
    this.tokens = count == 0 ? 0 : counter.count(json());
  }

  private static ObjectNode parameters(byte[] label, int tool) {
    ObjectNode schema = JSON.createObjectNode();
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ArrayNode required = JSON.createArrayNode();
    int count = 1 + (int) draw(label, tool, "params", 4);
    List<String> free = new ArrayList<>(List.of(PARAMS));
    for (int k = 0; k < count; k++) {
      String name = free.remove((int) draw(label, tool, "param:" + k, free.size()));
      ObjectNode property = properties.putObject(name);
      switch ((int) draw(label, tool, "type:" + k, 4)) {
        case 0 -> property.put("type", "string");
        case 1 -> property.put("type", "integer").put("minimum", 1).put("maximum", 100);
        case 2 -> property.put("type", "boolean");
        default -> {
          property.put("type", "string");
          ArrayNode values = property.putArray("enum");
          for (String v : ENUM) {
            values.add(v);
          }
        }
      }
      if (k == 0 || draw(label, tool, "required:" + k, 2) == 0) {
        required.add(name);
      }
    }
    schema.set("required", required);
    return schema;
  }

  private static long draw(byte[] label, int tool, String what, long range) {
    if (range <= 1) {
      return 0;
    }
    MessageDigest sha = Hashing.sha256();
    sha.update(label);
    sha.update((tool + ":" + what).getBytes(StandardCharsets.UTF_8));
    return Long.remainderUnsigned(Hashing.first8(sha.digest()), range);
  }

  /**
   * The tools, in order.
   *
   * @return an unmodifiable list, empty for none
   */
  public List<Tool> tools() {
    return tools;
  }

  /**
   * The tools as the chat API's {@code tools} array.
   *
   * @return a new tree
   */
  public ArrayNode functions() {
    ArrayNode array = JSON.createArrayNode();
    for (Tool tool : tools) {
      array.add(tool.function());
    }
    return array;
  }

  /**
   * The {@code tools} array as compact JSON text, as Jackson writes it.
   *
   * @return the text; {@code []} for none
   */
  public String json() {
    return functions().toString();
  }

  /**
   * The catalog's size in tokens of the counter: the count of {@link #json()}, an estimate of what
   * a server's chat template adds for the tools (each template renders them its own way).
   *
   * @return tokens, 0 for no tools
   */
  public int tokens() {
    return tokens;
  }

  /**
   * The catalog's digest: 16 hex digits of the SHA-256 of {@link #json()}.
   *
   * @return 16 hex digits
   */
  public String digest() {
    return Hashing.hex16(Hashing.digest16(json()));
  }

  /**
   * The seed.
   *
   * @return the seed
   */
  public long seed() {
    return seed;
  }

  /**
   * The case id.
   *
   * @return never null
   */
  public String caseId() {
    return caseId;
  }

  /**
   * Each description's size aimed for.
   *
   * @return tokens
   */
  public int descriptionTokens() {
    return descriptionTokens;
  }

  @Override
  public String toString() {
    return "ToolCatalog[" + tools.size() + " tools, seed " + seed + ", case " + caseId + "]";
  }
}
