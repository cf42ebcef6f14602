package io.github.gatlingllm.prompt;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How the prompts of a run share their prefixes, and so what a server's prefix cache can reuse. */
public enum PromptMode {
  /**
   * One prompt for every request of a case, warmup included. After the first request, most of each
   * prompt can come from the prefix cache.
   */
  REPEAT("repeat"),
  /**
   * Every request starts with its own nonce, so no two requests share a prefix beyond what the
   * server's chat template adds.
   */
  UNIQUE("unique"),
  /**
   * Each request gets one of N seeded group prefixes covering a set share of its tokens, then its
   * own nonce and filler.
   */
  SHARED_PREFIX("shared-prefix"),
  /**
   * Each request replays a row of a trace ({@code trace(path)}): its prompt is one block per hash
   * id, so requests share exactly the leading blocks whose ids they share. Not a value of {@code
   * llm.promptMode}: the trace decides.
   */
  TRACE("trace");

  private final String wireName;

  PromptMode(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name used in settings, on the command line and in records: {@code repeat}, {@code unique}
   * or {@code shared-prefix}.
   *
   * @return the name, never null
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The mode of a name.
   *
   * @param name {@code repeat}, {@code unique} or {@code shared-prefix} ({@code trace} is not a
   *     mode one picks: {@code trace(path)} makes it)
   * @return the mode
   * @throws IllegalArgumentException if the name is none of those; the message lists them
   */
  public static PromptMode fromWireName(String name) {
    for (PromptMode mode : values()) {
      if (mode != TRACE && mode.wireName.equals(name)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "prompt mode must be one of " + allowed() + ", got \"" + name + "\"");
  }

  /**
   * The names of all modes, comma-separated, for error messages.
   *
   * @return {@code "repeat, unique, shared-prefix"}
   */
  public static String allowed() {
    return Arrays.stream(values())
        .filter(m -> m != TRACE)
        .map(PromptMode::wireName)
        .collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return wireName;
  }
}
