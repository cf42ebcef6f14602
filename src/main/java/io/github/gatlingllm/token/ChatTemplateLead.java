package io.github.gatlingllm.token;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tokens a chat template puts before a user's message, as a server tokenizes the templated
 * text: every chat prompt starts with them, so a prefix cache can serve them to any request.
 *
 * <p>Known for ChatML templates (Qwen's and others': {@code <|im_start|>user\n} before the message,
 * after a default system message when the template adds one as a literal), counted with a Hugging
 * Face tokenizer as the tokens that stay the same whatever message follows; and for the embedded
 * simulator, which always renders ChatML ({@link #chatMl(TokenCounter)}). Rendering other Jinja
 * templates is not attempted: their lead is unknown ({@link #known()} false), and the cache plan
 * then tolerates a lead of up to {@code CachePlan.UNKNOWN_TEMPLATE_TOKENS} tokens.
 *
 * @param tokens the leading tokens, at least 0 (0 when unknown)
 * @param known whether the count is known
 * @param text the leading text, or null when unknown
 */
public record ChatTemplateLead(int tokens, boolean known, String text) {

  /** What ChatML puts before a user message. */
  public static final String CHATML_USER = "<|im_start|>user\n";

  /** No lead: a completions prompt is sent as it is. */
  public static final ChatTemplateLead NONE = new ChatTemplateLead(0, true, "");

  /** An unknown lead. */
  public static final ChatTemplateLead UNKNOWN = new ChatTemplateLead(0, false, null);

  /** Texts a prompt may start with: a nonce bracket (unique, shared-prefix) or words (repeat). */
  private static final String[] PROBES = {
    "[0a1b2c3d4e5f] the", "[f9e8d7c6b5a4] a", "[5a] x", "the model is", "Hello", "7 days", " x"
  };

  /** A default system message written as a literal in a ChatML template (Qwen2.5's). */
  private static final Pattern DEFAULT_SYSTEM =
      Pattern.compile("'<\\|im_start\\|>system\\\\n([^'{}]+?)<\\|im_end\\|>\\\\n'");

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException if {@code tokens} is negative
   */
  public ChatTemplateLead {
    if (tokens < 0) {
      throw new IllegalArgumentException("tokens: got " + tokens + ", expected >= 0");
    }
  }

  /**
   * The lead of the embedded simulator's ChatML ({@code <|im_start|>user\n}) in a counter's tokens:
   * the words before the message under the {@code estimate} (1), the tokens that stay the same
   * whatever follows under a Hugging Face tokenizer.
   *
   * @param counter the counter the simulator counts with, never null
   * @return the lead; unknown for another kind of counter
   */
  public static ChatTemplateLead chatMl(TokenCounter counter) {
    return lead(counter, CHATML_USER);
  }

  /**
   * The lead of the chat template found beside a tokenizer ({@link
   * HuggingFaceTokenCounter#chatTemplate()}), as a server with that template and tokenizer
   * tokenizes it.
   *
   * @param counter the run's counter, never null
   * @return the lead; unknown for a template other than ChatML, no template, or a counter other
   *     than a Hugging Face one
   */
  public static ChatTemplateLead ofTemplate(TokenCounter counter) {
    if (!(counter instanceof HuggingFaceTokenCounter hf)) {
      return UNKNOWN;
    }
    String template = hf.chatTemplate();
    if (template == null || !template.contains("<|im_start|>")) {
      return UNKNOWN;
    }
    return lead(counter, defaultSystem(template) + CHATML_USER);
  }

  /** The default system message of a ChatML template, templated, or the empty text. */
  static String defaultSystem(String template) {
    Matcher m = DEFAULT_SYSTEM.matcher(template);
    if (!m.find()) {
      return "";
    }
    String content = m.group(1).replace("\\n", "\n");
    return "<|im_start|>system\n" + content + "<|im_end|>\n";
  }

  private static ChatTemplateLead lead(TokenCounter counter, String text) {
    if (counter instanceof EstimatedTokenCounter) {
      // The lead ends in a newline, a separator: its words never join the message's.
      return new ChatTemplateLead(words(text), true, text);
    }
    if (counter instanceof HuggingFaceTokenCounter hf) {
      long[] lead = hf.tokenIds(text);
      int stable = lead.length;
      for (String probe : PROBES) {
        stable = Math.min(stable, commonPrefix(lead, hf.tokenIds(text + probe)));
      }
      return new ChatTemplateLead(stable, true, text);
    }
    return UNKNOWN;
  }

  private static int words(String text) {
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean separator = c == ' ' || c == '\n';
      if (!separator && !inWord) {
        words++;
      }
      inWord = !separator;
    }
    return words;
  }

  private static int commonPrefix(long[] a, long[] b) {
    int n = Math.min(a.length, b.length);
    int i = 0;
    while (i < n && a[i] == b[i]) {
      i++;
    }
    return i;
  }
}
