package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The tool calls of one reply, put together from its streamed deltas as OpenAI's client libraries
 * do: entries with the same {@code index} are one call; its {@code id} and {@code function.name}
 * are the first ones received (later deltas normally carry none; one that does is kept only if none
 * came before); its {@code function.arguments} is every piece concatenated in arrival order, kept
 * as received. An entry without {@code index} (a whole response's calls, a legacy {@code
 * function_call}, some servers' streams) starts a new call when it carries an id no call has yet,
 * else continues the call with its id, else the last call touched.
 *
 * <p>Calls come out in {@code index} order. A call's arguments are well-formed when they are one
 * JSON object; the others are still threaded back as received, and counted ({@link #malformed()}).
 *
 * <p>One instance per reply; not thread-safe. Holds only the reply's calls, in memory until the
 * reply is threaded into the next turn.
 */
public final class ToolCallAssembly {

  private static final class Builder {
    private String id;
    private String name;
    private final StringBuilder arguments = new StringBuilder();
  }

  private final TreeMap<Integer, Builder> calls = new TreeMap<>();
  private Builder last;

  /**
   * Takes in one event's tool-call entries, in the order received.
   *
   * @param deltas the entries ({@link StreamEvent#toolCalls()}); null or empty adds nothing
   */
  public void add(List<ToolCallDelta> deltas) {
    if (deltas == null) {
      return;
    }
    for (ToolCallDelta delta : deltas) {
      add(delta);
    }
  }

  /**
   * Takes in one tool-call entry.
   *
   * @param delta the entry, never null
   * @throws NullPointerException if {@code delta} is null
   */
  public void add(ToolCallDelta delta) {
    Objects.requireNonNull(delta, "delta");
    Builder call = target(delta);
    if (call.id == null && delta.id() != null && !delta.id().isEmpty()) {
      call.id = delta.id();
    }
    if (call.name == null && delta.name() != null && !delta.name().isEmpty()) {
      call.name = delta.name();
    }
    if (delta.arguments() != null) {
      call.arguments.append(delta.arguments());
    }
    last = call;
  }

  private Builder target(ToolCallDelta delta) {
    if (delta.index() != null) {
      return calls.computeIfAbsent(delta.index(), i -> new Builder());
    }
    if (delta.id() != null && !delta.id().isEmpty()) {
      for (Builder b : calls.values()) {
        if (delta.id().equals(b.id)) {
          return b;
        }
      }
      return fresh();
    }
    return last != null ? last : fresh();
  }

  private Builder fresh() {
    Builder b = new Builder();
    calls.put(calls.isEmpty() ? 0 : calls.lastKey() + 1, b);
    return b;
  }

  /**
   * Adds one whole call, as an API that sends each call complete gives it (a Responses {@code
   * function_call} item, a Messages {@code tool_use} block), after every call added before.
   *
   * @param id the call's id, or null when none was sent
   * @param name the function's name, never null
   * @param arguments the arguments as received, never null
   * @throws NullPointerException if name or arguments is null
   */
  public void addWhole(String id, String name, String arguments) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(arguments, "arguments");
    Builder b = new Builder();
    b.id = id;
    b.name = name;
    b.arguments.append(arguments);
    calls.put(calls.isEmpty() ? 0 : calls.lastKey() + 1, b);
  }

  /**
   * Whether any tool-call entry was received.
   *
   * @return true once one was
   */
  public boolean isEmpty() {
    return calls.isEmpty();
  }

  /**
   * The calls, in {@code index} order.
   *
   * @return a new unmodifiable list; empty when the reply called no tool
   */
  public List<ToolCall> calls() {
    List<ToolCall> out = new ArrayList<>(calls.size());
    for (Map.Entry<Integer, Builder> e : calls.entrySet()) {
      Builder b = e.getValue();
      String arguments = b.arguments.toString();
      out.add(new ToolCall(b.id, b.name == null ? "" : b.name, arguments, isJsonObject(arguments)));
    }
    return List.copyOf(out);
  }

  /**
   * How many calls' arguments are not one JSON object.
   *
   * @return the count, at least 0
   */
  public int malformed() {
    int n = 0;
    for (Builder b : calls.values()) {
      if (!isJsonObject(b.arguments.toString())) {
        n++;
      }
    }
    return n;
  }

  /**
   * Whether a text is exactly one JSON object, whitespace around it allowed.
   *
   * @param text the text, never null
   * @return true for one JSON object
   */
  static boolean isJsonObject(String text) {
    try (JsonParser p = Json.FACTORY.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
