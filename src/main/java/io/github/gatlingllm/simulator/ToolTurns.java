package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulator's tool-calling mode (issue 32): reads a chat request's {@code tools}, {@code
 * tool_choice} and the tool calls and results in its {@code messages}, renders them into the chat
 * template as Qwen's template does, and decides whether this reply calls tools, which and with what
 * arguments. Stateless: everything follows from the request, so that a session's replies are the
 * same in every run.
 *
 * <p>The rule:
 *
 * <ul>
 *   <li>no {@code tools} (or an empty array), or {@code tool_choice} {@code none}: a text answer;
 *   <li>{@code tool_choice} {@code auto} (or absent): tool calls while the conversation holds fewer
 *       than {@value #AUTO_TOOL_TURNS} assistant messages with tool calls, then a text answer;
 *   <li>{@code required}: tool calls on every turn; a named function ({@code {"type": "function",
 *       "function": {"name": ...}}}): one call of it on every turn;
 *   <li>loop {@code k} (the number of assistant messages with tool calls before, from 0) makes
 *       {@code 1 + k % 2} calls (parallel calls on odd loops), at most one a tool; call {@code c}
 *       calls tool {@code (k + c) % tools}; its id is {@code call_} and 16 hex digits of a hash of
 *       the prompt's tokens and {@code c}; its arguments are a JSON object with one value for each
 *       property of the tool's {@code parameters} schema, in order: a string of 3 words of the
 *       simulator's word cycle, an integer within {@code minimum}/{@code maximum}, a number, a
 *       boolean, an {@code enum}'s value, an empty array or object, by the property's {@code type}.
 * </ul>
 *
 * <p>Template (Qwen2.5/Qwen3's, so that a Qwen tokenizer counts what a Qwen server would): the
 * tools go at the end of the first system message (or in a system message of their own) as {@code
 * "# Tools\n\n<tools>\n" + one JSON object a line + "\n</tools>"}; an assistant message's tool
 * calls follow its content as {@code <tool_call>\n{"name": "N", "arguments": A}\n</tool_call>}
 * (separated by a newline, {@code A} the arguments string as sent); consecutive {@code tool}
 * messages make one {@code user} message of {@code <tool_response>\n{content}\n</tool_response>}
 * parts joined by a newline. A reply's tool calls are that assistant rendering, so the next turn,
 * sending them back, finds them in the prefix cache.
 */
final class ToolTurns {

  /** Tool-call turns a conversation gets under {@code tool_choice: auto} before its answer. */
  static final int AUTO_TOOL_TURNS = 2;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** One tool call the reply makes. */
  record Call(String id, String name, String arguments) {

    /** The call as the chat template renders it, after its assistant message's content. */
    String rendered() {
      return render(name, arguments);
    }
  }

  private ToolTurns() {}

  static String render(String name, String arguments) {
    return "<tool_call>\n{\"name\": \""
        + name
        + "\", \"arguments\": "
        + arguments
        + "}\n</tool_call>";
  }

  /** Reads one tool of a request's {@code tools}, checked, in chat's shape. */
  private interface ToolReader {
    JsonNode read(JsonNode tool, String where);
  }

  /** A request's {@code tools}, each read; empty when it has none. */
  private static List<JsonNode> eachTool(JsonNode root, ToolReader reader) {
    JsonNode tools = root.get("tools");
    if (tools == null || tools.isNull()) {
      return List.of();
    }
    if (!tools.isArray()) {
      throw ErrorReply.badRequest(
          "'tools' must be an array of tools, got " + RequestParser.kind(tools), "tools");
    }
    List<JsonNode> out = new ArrayList<>(tools.size());
    for (int i = 0; i < tools.size(); i++) {
      out.add(reader.read(tools.get(i), "tools[" + i + "]"));
    }
    return out;
  }

  /** The tools of a request, checked; empty when it has none. */
  static List<JsonNode> tools(JsonNode root) {
    return eachTool(
        root,
        (tool, where) -> {
          JsonNode type = tool.get("type");
          JsonNode function = tool.get("function");
          if (!tool.isObject()
              || type == null
              || !"function".equals(type.asText())
              || function == null
              || !function.isObject()) {
            throw ErrorReply.badRequest(
                "'" + where + "' must be {\"type\": \"function\", \"function\": {...}}", where);
          }
          JsonNode name = function.get("name");
          if (name == null || !name.isTextual() || name.textValue().isEmpty()) {
            throw ErrorReply.badRequest(
                "'"
                    + where
                    + ".function.name' must be a non-empty string, got "
                    + RequestParser.kind(name),
                where + ".function.name");
          }
          JsonNode parameters = function.get("parameters");
          if (parameters != null && !parameters.isNull() && !parameters.isObject()) {
            throw ErrorReply.badRequest(
                "'"
                    + where
                    + ".function.parameters' must be a JSON schema object, got "
                    + RequestParser.kind(parameters),
                where + ".function.parameters");
          }
          return tool;
        });
  }

  /**
   * The request's {@code tool_choice}: {@code none}, {@code auto}, {@code required}, or the name of
   * the function it names.
   */
  static String choice(JsonNode root, List<JsonNode> tools) {
    JsonNode choice = root.get("tool_choice");
    if (choice == null || choice.isNull()) {
      return "auto";
    }
    if (choice.isTextual()
        && (choice.textValue().equals("none")
            || choice.textValue().equals("auto")
            || choice.textValue().equals("required"))) {
      if (choice.textValue().equals("required") && tools.isEmpty()) {
        throw ErrorReply.badRequest(
            "'tool_choice' is 'required' but no 'tools' are given", "tool_choice");
      }
      return choice.textValue();
    }
    JsonNode name = choice.isObject() ? choice.path("function").get("name") : null;
    if (name == null || !name.isTextual() || !"function".equals(choice.path("type").asText())) {
      throw ErrorReply.badRequest(
          "'tool_choice' must be \"none\", \"auto\", \"required\" or {\"type\": \"function\","
              + " \"function\": {\"name\": ...}}, got "
              + choice,
          "tool_choice");
    }
    for (JsonNode tool : tools) {
      if (name.textValue().equals(tool.get("function").get("name").textValue())) {
        return name.textValue();
      }
    }
    throw ErrorReply.badRequest(
        "'tool_choice' names function '" + name.textValue() + "', which is not in 'tools'",
        "tool_choice");
  }

  /** The tools block the template adds to the system message. */
  static String toolsBlock(List<JsonNode> tools) {
    StringBuilder text = new StringBuilder("# Tools\n\n<tools>");
    for (JsonNode tool : tools) {
      text.append('\n').append(tool.toString());
    }
    return text.append("\n</tools>").toString();
  }

  /**
   * The content an assistant message renders to: its text, then its tool calls; checks them.
   *
   * @param ids collects the calls' ids, for the tool messages after it
   */
  static String assistantContent(JsonNode message, String content, String where, Set<String> ids) {
    JsonNode calls = message.get("tool_calls");
    if (calls == null || calls.isNull()) {
      return content;
    }
    if (!calls.isArray()) {
      throw ErrorReply.badRequest(
          "'" + where + ".tool_calls' must be an array, got " + RequestParser.kind(calls),
          where + ".tool_calls");
    }
    StringBuilder text = new StringBuilder(content);
    for (int j = 0; j < calls.size(); j++) {
      String at = where + ".tool_calls[" + j + "]";
      JsonNode call = calls.get(j);
      JsonNode function = call.get("function");
      JsonNode name = function == null ? null : function.get("name");
      JsonNode arguments = function == null ? null : function.get("arguments");
      JsonNode id = call.get("id");
      if (!call.isObject()
          || id == null
          || !id.isTextual()
          || name == null
          || !name.isTextual()
          || arguments == null
          || !arguments.isTextual()) {
        throw ErrorReply.badRequest(
            "'"
                + at
                + "' must be {\"id\": string, \"type\": \"function\", \"function\": {\"name\":"
                + " string, \"arguments\": string}}",
            at);
      }
      ids.add(id.textValue());
      if (j > 0 || !content.isEmpty()) {
        text.append('\n');
      }
      text.append(render(name.textValue(), arguments.textValue()));
    }
    return text.toString();
  }

  /** A tool message's part of the {@code user} message it is grouped into; checks its id. */
  static String toolResponse(JsonNode message, String content, String where, Set<String> ids) {
    JsonNode id = message.get("tool_call_id");
    if (id == null || !id.isTextual()) {
      throw ErrorReply.badRequest(
          "'" + where + ".tool_call_id' must be a string, got " + RequestParser.kind(id),
          where + ".tool_call_id");
    }
    if (!ids.contains(id.textValue())) {
      throw ErrorReply.badRequest(
          "'"
              + where
              + ".tool_call_id' is '"
              + id.textValue()
              + "', which answers no tool call of the assistant message before it",
          where + ".tool_call_id");
    }
    return "<tool_response>\n" + content + "\n</tool_response>";
  }

  /** Assistant messages with at least one tool call. */
  static int loops(JsonNode messages) {
    int loops = 0;
    for (JsonNode m : messages) {
      JsonNode calls = m.get("tool_calls");
      if ("assistant".equals(m.path("role").asText()) && calls != null && calls.size() > 0) {
        loops++;
      }
    }
    return loops;
  }

  /**
   * The calls this reply makes under the rule above; empty for a text answer.
   *
   * @param promptHash a hash of the prompt's tokens, for the calls' ids
   */
  static List<Call> calls(List<JsonNode> tools, String choice, int loops, long promptHash) {
    if (tools.isEmpty() || choice.equals("none")) {
      return List.of();
    }
    if (choice.equals("auto") && loops >= AUTO_TOOL_TURNS) {
      return List.of();
    }
    List<JsonNode> callable = tools;
    if (!choice.equals("auto") && !choice.equals("required")) {
      callable = new ArrayList<>();
      for (JsonNode tool : tools) {
        if (choice.equals(tool.get("function").get("name").textValue())) {
          callable.add(tool);
          break;
        }
      }
    }
    int count = Math.min(1 + loops % 2, callable.size());
    List<Call> calls = new ArrayList<>(count);
    for (int c = 0; c < count; c++) {
      JsonNode function = callable.get((loops + c) % callable.size()).get("function");
      String id = "call_" + String.format("%016x", Hashes.mix(promptHash * 31 + c));
      calls.add(
          new Call(
              id,
              function.get("name").textValue(),
              arguments(function.get("parameters"), loops + c).toString()));
    }
    return List.copyOf(calls);
  }

  /** Arguments matching a parameters schema: one value a property, by its type. */
  static ObjectNode arguments(JsonNode parameters, int seed) {
    ObjectNode args = NODES.objectNode();
    JsonNode properties = parameters == null ? null : parameters.get("properties");
    if (properties == null || !properties.isObject()) {
      return args;
    }
    int k = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); k++) {
      Map.Entry<String, JsonNode> p = it.next();
      JsonNode schema = p.getValue();
      JsonNode values = schema.get("enum");
      int draw = seed + k;
      if (values != null && values.isArray() && !values.isEmpty()) {
        args.set(p.getKey(), values.get(draw % values.size()).deepCopy());
        continue;
      }
      switch (schema.path("type").asText()) {
        case "integer" -> {
          long min = schema.path("minimum").asLong(0);
          long max = schema.path("maximum").asLong(min + 100);
          args.put(p.getKey(), max <= min ? min : min + draw % (max - min + 1));
        }
        case "number" -> args.put(p.getKey(), 0.5 + draw);
        case "boolean" -> args.put(p.getKey(), draw % 2 == 0);
        case "array" -> args.putArray(p.getKey());
        case "object" -> args.putObject(p.getKey());
        default -> args.put(p.getKey(), WordCycle.text(draw, draw + 3).strip());
      }
    }
    return args;
  }

  /** A hash of a prompt's tokens (their ids, else their count). */
  static long promptHash(PromptTokenizer.Tokens tokens) {
    long hash = Hashes.ROOT;
    if (tokens.ids() == null) {
      return Hashes.mix(hash + tokens.count());
    }
    for (long id : tokens.ids()) {
      hash = Hashes.mix(hash * 0x9E3779B97F4A7C15L + id);
    }
    return hash;
  }

  /**
   * Which call a planned chunk belongs to, and whether it is the call's head (id and name, empty
   * arguments) rather than a piece of its arguments.
   */
  record Piece(int call, boolean head) {}

  /** A tool-call reply's chunks, with the call each belongs to, and its whole text. */
  record Plan(List<PlannedChunk> chunks, List<Piece> pieces, String text, boolean truncated) {}

  /**
   * Plans a reply of tool calls on the simulator's timing model: call {@code i}'s text (its
   * rendering, after a newline from the second call on) is {@code n_i} tokens of the tokenizer (at
   * least 2); its head (id, name, empty arguments) carries 1 token, then its arguments go out in
   * pieces of about {@code tokensPerChunk} tokens, cut evenly by chars (never more pieces than
   * chars). Token {@code k} of the reply (from 0) exists at {@code first + k * decode}, as in the
   * standard strategy; a chunk leaves with its last token. A reply longer than {@code maxTokens} is
   * cut there, mid-arguments if need be, as a server cuts a reply at its length: the client then
   * holds malformed arguments.
   */
  static Plan plan(
      List<Call> calls,
      GenerationRequest request,
      SimulatorConfig config,
      PromptTokenizer tokenizer) {
    long first = config.baseTtftNanos() + config.prefillNanos(request.uncachedTokens());
    long decode = config.decodeNanos();
    int perChunk = config.tokensPerChunk();
    int budget = request.maxTokens();
    List<PlannedChunk> chunks = new ArrayList<>();
    List<Piece> pieces = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int used = 0;
    boolean truncated = false;
    for (int i = 0; i < calls.size() && !truncated; i++) {
      Call call = calls.get(i);
      String rendered = (i == 0 ? "" : "\n") + call.rendered();
      text.append(rendered);
      int tokens = Math.max(2, tokenizer.tokens(rendered).count());
      if (used >= budget) {
        truncated = true;
        break;
      }
      chunks.add(new PlannedChunk(first + used * decode, 1, ""));
      pieces.add(new Piece(i, true));
      used++;
      String args = call.arguments();
      int argTokens = tokens - 1;
      int count = Math.max(1, Math.min((argTokens + perChunk - 1) / perChunk, args.length()));
      for (int j = 0; j < count; j++) {
        int from = (int) ((long) j * args.length() / count);
        int to = (int) ((long) (j + 1) * args.length() / count);
        int n = (int) ((long) (j + 1) * argTokens / count - (long) j * argTokens / count);
        if (used + n > budget) {
          // Cut at the length limit: the tokens that fit, and as many chars.
          int fit = budget - used;
          if (fit > 0) {
            int cut = from + (int) ((long) (to - from) * fit / n);
            chunks.add(
                new PlannedChunk(
                    first + (used + fit - 1) * decode, fit, args.substring(from, cut)));
            pieces.add(new Piece(i, false));
            used += fit;
          }
          truncated = true;
          break;
        }
        chunks.add(new PlannedChunk(first + (used + n - 1) * decode, n, args.substring(from, to)));
        pieces.add(new Piece(i, false));
        used += n;
      }
    }
    return new Plan(List.copyOf(chunks), List.copyOf(pieces), text.toString(), truncated);
  }

  /**
   * The function tools of a Responses request ({@code {"type":"function","name","description",
   * "parameters"}}), checked, in chat's shape, so that they template and call as chat's do; empty
   * when it has none.
   */
  static List<JsonNode> responsesTools(JsonNode root) {
    return eachTool(
        root,
        (tool, where) -> {
          if (!tool.isObject() || !"function".equals(tool.path("type").asText())) {
            throw ErrorReply.badRequest(
                "'"
                    + where
                    + "' must be {\"type\": \"function\", \"name\": ...} (the simulator takes no"
                    + " other tool)",
                where);
          }
          return chatShape(tool, tool.get("parameters"), where, "parameters");
        });
  }

  /**
   * The tools of a Messages request ({@code {"name","description","input_schema"}}), checked, in
   * chat's shape; empty when it has none.
   */
  static List<JsonNode> messagesTools(JsonNode root) {
    return eachTool(
        root,
        (tool, where) -> {
          if (!tool.isObject()) {
            throw ErrorReply.badRequest(
                "'" + where + "' must be {\"name\": ..., \"input_schema\": {...}}", where);
          }
          JsonNode schema = tool.get("input_schema");
          if (schema == null || !schema.isObject()) {
            throw ErrorReply.badRequest(
                "'"
                    + where
                    + ".input_schema' must be a JSON schema object, got "
                    + RequestParser.kind(schema),
                where + ".input_schema");
          }
          return chatShape(tool, schema, where, "input_schema");
        });
  }

  private static JsonNode chatShape(
      JsonNode tool, JsonNode parameters, String where, String schemaField) {
    JsonNode name = tool.get("name");
    if (name == null || !name.isTextual() || name.textValue().isEmpty()) {
      throw ErrorReply.badRequest(
          "'" + where + ".name' must be a non-empty string, got " + RequestParser.kind(name),
          where + ".name");
    }
    if (parameters != null && !parameters.isNull() && !parameters.isObject()) {
      throw ErrorReply.badRequest(
          "'"
              + where
              + "."
              + schemaField
              + "' must be a JSON schema object, got "
              + RequestParser.kind(parameters),
          where + "." + schemaField);
    }
    ObjectNode chat = NODES.objectNode().put("type", "function");
    ObjectNode function = chat.putObject("function").put("name", name.textValue());
    JsonNode description = tool.get("description");
    if (description != null && description.isTextual()) {
      function.put("description", description.textValue());
    }
    if (parameters != null && !parameters.isNull()) {
      function.set("parameters", parameters);
    }
    return chat;
  }

  /**
   * A Responses request's {@code tool_choice} as chat's: {@code none}, {@code auto}, {@code
   * required}, or {@code {"type":"function","name":N}} as {@code N}.
   */
  static String responsesChoice(JsonNode root, List<JsonNode> tools) {
    JsonNode choice = root.get("tool_choice");
    if (choice != null && choice.isObject()) {
      if ("function".equals(choice.path("type").asText()) && choice.path("name").isTextual()) {
        return named(choice.get("name").textValue(), tools);
      }
      throw ErrorReply.badRequest(
          "'tool_choice' must be none, auto, required or {\"type\": \"function\", \"name\":"
              + " ...}",
          "tool_choice");
    }
    return choice(root, tools);
  }

  /**
   * A Messages request's {@code tool_choice} as chat's: {@code {"type":"auto"}}, {@code
   * {"type":"any"}} as {@code required}, {@code {"type":"none"}}, {@code {"type":"tool","name":N}}
   * as {@code N}; {@code auto} when absent.
   */
  static String messagesChoice(JsonNode root, List<JsonNode> tools) {
    JsonNode choice = root.get("tool_choice");
    if (choice == null || choice.isNull()) {
      return "auto";
    }
    String type = choice.path("type").asText("");
    switch (type) {
      case "auto", "none" -> {
        return type;
      }
      case "any" -> {
        if (tools.isEmpty()) {
          throw ErrorReply.badRequest(
              "'tool_choice' is {\"type\": \"any\"} but no 'tools' are given", "tool_choice");
        }
        return "required";
      }
      case "tool" -> {
        if (choice.path("name").isTextual()) {
          return named(choice.get("name").textValue(), tools);
        }
      }
      default -> {
        // refused below
      }
    }
    throw ErrorReply.badRequest(
        "'tool_choice' must be {\"type\": auto, any, none or tool (with a name)}, got " + choice,
        "tool_choice");
  }

  private static String named(String name, List<JsonNode> tools) {
    for (JsonNode tool : tools) {
      if (name.equals(tool.get("function").get("name").textValue())) {
        return name;
      }
    }
    throw ErrorReply.badRequest(
        "'tool_choice' names the function '" + name + "', which is not in 'tools'", "tool_choice");
  }

  /**
   * A Responses or Messages history as Qwen's chat template renders it, as chat's is: a tool call
   * follows the assistant text before it on a new line in one assistant message; consecutive tool
   * results make one {@code user} message of {@code <tool_response>} parts; the tools block ends
   * the system message (or is one).
   *
   * @param messages the history, with calls as {@link #render} and results as role {@code tool}
   * @param tools the tools in chat's shape
   * @param calls which messages are tool calls, by identity
   */
  static List<PromptTokenizer.Message> qwen(
      List<PromptTokenizer.Message> messages,
      List<JsonNode> tools,
      java.util.Set<PromptTokenizer.Message> calls) {
    List<PromptTokenizer.Message> out = new ArrayList<>(messages.size() + 1);
    PromptTokenizer.Message previous = null;
    for (PromptTokenizer.Message m : messages) {
      PromptTokenizer.Message last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (m.role().equals("tool")) {
        String part = "<tool_response>\n" + m.content() + "\n</tool_response>";
        if (previous != null && previous.role().equals("tool")) {
          out.set(
              out.size() - 1, new PromptTokenizer.Message("user", last.content() + "\n" + part));
        } else {
          out.add(new PromptTokenizer.Message("user", part));
        }
      } else if (calls.contains(m)
          && previous != null
          && previous.role().equals("assistant")
          && last != null
          && last.role().equals("assistant")) {
        String head = last.content().isEmpty() ? "" : last.content() + "\n";
        out.set(out.size() - 1, new PromptTokenizer.Message("assistant", head + m.content()));
      } else {
        out.add(m);
      }
      previous = m;
    }
    if (!tools.isEmpty()) {
      String block = toolsBlock(tools);
      if (!out.isEmpty() && out.get(0).role().equals("system")) {
        PromptTokenizer.Message system = out.get(0);
        String head = system.content().isEmpty() ? "" : system.content() + "\n\n";
        out.set(0, new PromptTokenizer.Message("system", head + block));
      } else {
        out.add(0, new PromptTokenizer.Message("system", block));
      }
    }
    return out;
  }

  /** Assistant messages of a templated history that hold a tool call. */
  static int loops(List<PromptTokenizer.Message> messages) {
    int loops = 0;
    for (PromptTokenizer.Message m : messages) {
      if (m.role().equals("assistant") && m.content().contains("<tool_call>\n")) {
        loops++;
      }
    }
    return loops;
  }

  /** Calls with their ids as Anthropic names them ({@code toolu_...}). */
  static List<Call> anthropicIds(List<Call> calls) {
    List<Call> out = new ArrayList<>(calls.size());
    for (Call c : calls) {
      out.add(new Call("toolu_" + c.id().substring("call_".length()), c.name(), c.arguments()));
    }
    return List.copyOf(out);
  }

  /** Empty, for callers that need a fresh id set. */
  static Set<String> newIds() {
    return new HashSet<>();
  }
}
