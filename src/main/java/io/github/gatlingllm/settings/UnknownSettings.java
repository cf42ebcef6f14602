package io.github.gatlingllm.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Not API. Refuses an {@code llm.*} system property that names no setting, with the closest known
 * names: a misspelt setting would otherwise be ignored, and the run would measure something other
 * than what was asked.
 */
final class UnknownSettings {

  private UnknownSettings() {}

  /**
   * Checks every {@code llm.*} property name: a name of {@link LlmSettings#KNOWN}, a DSL name of
   * {@link SettingNames#ALIASES}, or {@code simulator.} followed by one of {@link
   * SimulatorSettings#NAMES}.
   *
   * @param properties the properties, never null; those without the {@code llm.} prefix are passed
   *     over
   * @throws IllegalArgumentException with {@link #message} for the first unknown one
   */
  static void check(Properties properties) {
    for (String name : properties.stringPropertyNames()) {
      String bare =
          name.startsWith(LlmSettings.PREFIX) ? name.substring(LlmSettings.PREFIX.length()) : null;
      if (bare != null
          && !LlmSettings.KNOWN.contains(bare)
          && !SettingNames.ALIASES.containsKey(bare)
          && !(bare.startsWith("simulator.")
              && SimulatorSettings.NAMES.contains(bare.substring("simulator.".length())))) {
        throw new IllegalArgumentException(message(name, bare));
      }
    }
  }

  /**
   * The line for an {@code llm.*} property that names no setting: for a DSL method's name that is
   * not a setting as it is ({@link SettingNames#DSL_HINTS}), the settings to use; else the closest
   * known names or DSL names (by edit distance, case ignored, at most a third of the name's length
   * and at least 2), a DSL name given as the setting it stands for; else where the list of settings
   * is.
   *
   * @param property the property's name, e.g. {@code llm.concurency}
   * @param bare the name without {@code llm.}
   * @return one line naming the property
   */
  static String message(String property, String bare) {
    List<String> hinted = SettingNames.DSL_HINTS.get(bare);
    if (hinted != null) {
      return property
          + ": unknown setting; did you mean "
          + hinted.stream().map(h -> LlmSettings.PREFIX + h).collect(Collectors.joining(" or "))
          + "? (every setting: docs/settings.md)";
    }
    List<String> names = new ArrayList<>(LlmSettings.KNOWN);
    for (String s : SimulatorSettings.NAMES) {
      names.add("simulator." + s);
    }
    names.addAll(new TreeSet<>(SettingNames.ALIASES.keySet()));
    names.addAll(new TreeSet<>(SettingNames.DSL_HINTS.keySet()));
    int best = Integer.MAX_VALUE;
    List<String> closest = new ArrayList<>();
    for (String known : names) {
      int d = editDistance(bare.toLowerCase(Locale.ROOT), known.toLowerCase(Locale.ROOT));
      if (d < best) {
        best = d;
        closest.clear();
      }
      List<String> meant =
          SettingNames.DSL_HINTS.getOrDefault(
              known, List.of(SettingNames.ALIASES.getOrDefault(known, known)));
      for (String m : meant) {
        if (d == best && !closest.contains(LlmSettings.PREFIX + m)) {
          closest.add(LlmSettings.PREFIX + m);
        }
      }
    }
    if (best <= Math.max(2, bare.length() / 3)) {
      return property
          + ": unknown setting; did you mean "
          + String.join(" or ", closest)
          + "? (every setting: docs/settings.md)";
    }
    return property
        + ": unknown setting; every llm.* setting is listed in docs/settings.md (e.g. llm.baseUrl,"
        + " llm.requests, llm.concurrency, llm.promptMode)";
  }

  /** Levenshtein's distance: the fewest one-character insertions, deletions and substitutions. */
  private static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] swap = prev;
      prev = cur;
      cur = swap;
    }
    return prev[b.length()];
  }
}
