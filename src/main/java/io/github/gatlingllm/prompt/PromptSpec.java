package io.github.gatlingllm.prompt;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How the prompts of a run share their prefixes: the reference generator's {@code PromptSpec}.
 *
 * <p>The shared-prefix ratio and the prefix groups go with {@link PromptMode#SHARED_PREFIX} only;
 * the ratio is required there and the groups default to 1.
 *
 * @param mode the prompt mode, never null
 * @param sharedPrefixRatio the share of each prompt's tokens covered by its group prefix, strictly
 *     between 0 and 1; non-null exactly when the mode is shared-prefix
 * @param prefixGroups the number of group prefixes, at least 1; null means 1; only with
 *     shared-prefix
 */
public record PromptSpec(PromptMode mode, Double sharedPrefixRatio, Integer prefixGroups) {

  /**
   * Checks the spec with the reference generator's rules.
   *
   * @throws IllegalArgumentException if a rule is broken; the message names the field, the value
   *     and what is allowed
   */
  public PromptSpec {
    if (mode == null) {
      throw new IllegalArgumentException(
          "prompt mode must be one of " + PromptMode.allowed() + ", got null");
    }
    boolean shared = mode == PromptMode.SHARED_PREFIX;
    if (shared && sharedPrefixRatio == null) {
      throw new IllegalArgumentException(
          "shared-prefix prompts need a shared-prefix ratio (between 0 and 1, exclusive)");
    }
    if (!shared && sharedPrefixRatio != null) {
      throw new IllegalArgumentException(
          "a shared-prefix ratio ("
              + sharedPrefixRatio
              + ") goes with shared-prefix prompts only, not with mode "
              + mode.wireName());
    }
    if (prefixGroups != null && !shared) {
      throw new IllegalArgumentException(
          "prefix groups ("
              + prefixGroups
              + ") go with shared-prefix prompts only, not with mode "
              + mode.wireName());
    }
    if (sharedPrefixRatio != null && !(sharedPrefixRatio > 0 && sharedPrefixRatio < 1)) {
      throw new IllegalArgumentException(
          "shared-prefix ratio must be between 0 and 1 (exclusive), got " + sharedPrefixRatio);
    }
    if (prefixGroups != null && prefixGroups < 1) {
      throw new IllegalArgumentException("prefix groups must be >= 1, got " + prefixGroups);
    }
  }

  /**
   * Repeat mode: one prompt for every request.
   *
   * @return the spec
   */
  public static PromptSpec repeat() {
    return new PromptSpec(PromptMode.REPEAT, null, null);
  }

  /**
   * Unique mode: every request has its own nonce first.
   *
   * @return the spec
   */
  public static PromptSpec unique() {
    return new PromptSpec(PromptMode.UNIQUE, null, null);
  }

  /**
   * Trace mode: the prompts of a trace's rows ({@code TraceBlocks}).
   *
   * @return the spec
   */
  public static PromptSpec trace() {
    return new PromptSpec(PromptMode.TRACE, null, null);
  }

  /**
   * Shared-prefix mode.
   *
   * @param ratio the share of each prompt's tokens covered by its group's prefix, in (0, 1)
   * @param groups the number of group prefixes, at least 1
   * @return the spec
   * @throws IllegalArgumentException if a value is out of range
   */
  public static PromptSpec sharedPrefix(double ratio, int groups) {
    return new PromptSpec(PromptMode.SHARED_PREFIX, ratio, groups);
  }

  /**
   * The number of prefix groups in effect: {@code prefixGroups}, or 1 when unset.
   *
   * @return at least 1
   */
  public int groups() {
    return prefixGroups == null ? 1 : prefixGroups;
  }

  /**
   * The record form, as the reference's {@code to_record()}: {@code mode}, and for shared-prefix
   * also {@code shared_prefix_ratio} and {@code prefix_groups} (the groups in effect).
   *
   * @return an ordered, unmodifiable map of JSON-ready values
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("mode", mode.wireName());
    if (mode == PromptMode.SHARED_PREFIX) {
      record.put("shared_prefix_ratio", sharedPrefixRatio);
      record.put("prefix_groups", groups());
    }
    return Collections.unmodifiableMap(record);
  }

  @Override
  public String toString() {
    return Objects.toString(toRecord());
  }
}
