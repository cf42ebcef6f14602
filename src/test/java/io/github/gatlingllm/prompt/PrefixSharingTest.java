package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the product promises a server's prefix cache, checked on Qwen3 token ids.
 *
 * <ul>
 *   <li>Two prompts of one shared-prefix group share the group prefix's {@code
 *       shared_prefix_tokens} ids, then the {@code " ["} that opens the request nonce, and their
 *       common ids never reach past the first character where the nonces differ.
 *   <li>Two prompts of different groups, and two unique prompts, share at most the opening bracket
 *       and the nonces' common leading characters.
 * </ul>
 */
class PrefixSharingTest {

  private static final int PROMPTS = 120;

  @Test
  void sameGroupSharesThePrefixTokensThenTheBracket() {
    HuggingFaceTokenCounter qwen3 = TestTokenizers.qwen3();
    for (int input : new int[] {64, 512}) {
      PromptSource source =
          new PromptSource(
              PromptSpec.sharedPrefix(0.5, 4), qwen3, 0, "c8_in512_out128", "measured", input);
      List<Prompt> prompts = take(source);
      List<long[]> ids = prompts.stream().map(p -> qwen3.tokenIds(p.text())).toList();
      int pairs = 0;
      for (int i = 0; i < prompts.size(); i++) {
        for (int j = i + 1; j < prompts.size(); j++) {
          Prompt a = prompts.get(i);
          Prompt b = prompts.get(j);
          if (!a.prefixGroup().equals(b.prefixGroup())) {
            continue;
          }
          pairs++;
          long[] idsA = ids.get(i);
          long[] idsB = ids.get(j);
          int shared = a.sharedPrefixTokens();
          String prefixText = a.text().substring(0, a.text().indexOf(" [" + nonce(a)));
          assertArrayEquals(qwen3.tokenIds(prefixText), Arrays.copyOf(idsA, shared), "prefix ids");
          int common = commonPrefix(idsA, idsB);
          assertTrue(common >= shared + 1, "common " + common + " < " + (shared + 1));
          assertEquals(" [", qwen3.decode(new long[] {idsA[shared]}));
          String covered = qwen3.decode(Arrays.copyOf(idsA, common));
          assertTrue(a.text().startsWith(covered) && b.text().startsWith(covered));
          int limit = prefixText.length() + 2 + commonLeading(nonce(a), nonce(b));
          assertTrue(
              covered.length() <= limit,
              "common ids cover "
                  + covered.length()
                  + " chars, past the nonces' split at "
                  + limit);
        }
      }
      assertTrue(pairs > 100, "only " + pairs + " same-group pairs");
    }
  }

  @Test
  void differentGroupsShareAtMostTheBracketAndCommonNonceCharacters() {
    HuggingFaceTokenCounter qwen3 = TestTokenizers.qwen3();
    PromptSource source =
        new PromptSource(
            PromptSpec.sharedPrefix(0.5, 4), qwen3, 0, "c8_in512_out128", "measured", 256);
    List<Prompt> prompts = take(source);
    List<long[]> ids = prompts.stream().map(p -> qwen3.tokenIds(p.text())).toList();
    for (int i = 0; i < prompts.size(); i++) {
      for (int j = i + 1; j < prompts.size(); j++) {
        Prompt a = prompts.get(i);
        Prompt b = prompts.get(j);
        if (a.prefixGroup().equals(b.prefixGroup())) {
          continue;
        }
        String groupNonceA = a.text().substring(1, 13);
        String groupNonceB = b.text().substring(1, 13);
        checkSharesAtMost(
            qwen3, a, ids.get(i), b, ids.get(j), 1 + commonLeading(groupNonceA, groupNonceB));
      }
    }
  }

  @Test
  void uniquePromptsShareAtMostTheBracketAndCommonNonceCharacters() {
    HuggingFaceTokenCounter qwen3 = TestTokenizers.qwen3();
    PromptSource source =
        new PromptSource(PromptSpec.unique(), qwen3, 0, "c8_in512_out128", "measured", 256);
    List<Prompt> prompts = take(source);
    List<long[]> ids = prompts.stream().map(p -> qwen3.tokenIds(p.text())).toList();
    int sharedSomething = 0;
    for (int i = 0; i < prompts.size(); i++) {
      for (int j = i + 1; j < prompts.size(); j++) {
        Prompt a = prompts.get(i);
        Prompt b = prompts.get(j);
        int limit = 1 + commonLeading(nonce(a), nonce(b));
        if (checkSharesAtMost(qwen3, a, ids.get(i), b, ids.get(j), limit) > 0) {
          sharedSomething++;
        }
      }
    }
    // The bracket alone is shared when the nonces start with a digit: some pairs do.
    assertTrue(sharedSomething > 0);
  }

  /** Checks that the common ids of two prompts cover at most {@code limit} characters. */
  private static int checkSharesAtMost(
      HuggingFaceTokenCounter qwen3, Prompt a, long[] idsA, Prompt b, long[] idsB, int limit) {
    int common = commonPrefix(idsA, idsB);
    String covered = qwen3.decode(Arrays.copyOf(idsA, common));
    assertTrue(a.text().startsWith(covered) && b.text().startsWith(covered));
    assertTrue(
        covered.length() <= limit,
        a.promptId()
            + " and "
            + b.promptId()
            + " share \""
            + covered
            + "\", more than "
            + limit
            + " chars");
    return common;
  }

  private static List<Prompt> take(PromptSource source) {
    return java.util.stream.LongStream.range(0, PROMPTS).mapToObj(source::take).toList();
  }

  private static String nonce(Prompt prompt) {
    String id = prompt.promptId();
    return id.substring(id.indexOf('-') + 1);
  }

  private static int commonPrefix(long[] a, long[] b) {
    int n = 0;
    while (n < a.length && n < b.length && a[n] == b[n]) {
      n++;
    }
    return n;
  }

  private static int commonLeading(String a, String b) {
    int n = 0;
    while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
      n++;
    }
    return n;
  }
}
