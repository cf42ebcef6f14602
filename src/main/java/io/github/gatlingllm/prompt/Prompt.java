package io.github.gatlingllm.prompt;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.PromptImages;
import io.github.gatlingllm.token.TokenCount;
import io.github.gatlingllm.token.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One request's prompt and what it shares with others: the reference generator's {@code Prompt}.
 *
 * <p>{@link #planned()} is the size the generator aimed for, known without tokenizing the prompt.
 * The exact {@link #count()} is only worked out when something reads it, since most servers report
 * the prompt's tokens themselves. The text is assembled from its parts on first read; the digest is
 * computed when the prompt is built.
 *
 * <p>A prompt built ahead ({@code PromptLookahead}) also carries its text as a JSON string in UTF-8
 * ({@link #prepareJson}), so that the request body's bytes are copied around it rather than
 * escaping and encoding the text at the request's due time; the body's writer takes it once ({@link
 * #takeJson}) and it is dropped then.
 *
 * <p>Immutable apart from those lazily computed values; safe to share between threads.
 */
public final class Prompt {

  private final String head;
  private final Filler filler;
  private final String promptId;
  private final TokenCounter counter;
  private final TokenCount planned;
  private final Integer prefixGroup;
  private final Integer sharedPrefixTokens;
  private final long digest;
  private final PromptImages images;
  private volatile String text;
  private volatile TokenCount count;
  private volatile byte[] json;
  private List<PromptFile.Message> messages;
  private Integer maxTokens;

  Prompt(
      String head,
      Filler filler,
      String promptId,
      TokenCounter counter,
      TokenCount planned,
      Integer prefixGroup,
      Integer sharedPrefixTokens,
      long digest) {
    this(head, filler, promptId, counter, planned, prefixGroup, sharedPrefixTokens, digest, null);
  }

  private Prompt(
      String head,
      Filler filler,
      String promptId,
      TokenCounter counter,
      TokenCount planned,
      Integer prefixGroup,
      Integer sharedPrefixTokens,
      long digest,
      PromptImages images) {
    this.images = images;
    this.head = head;
    this.filler = filler;
    this.promptId = promptId;
    this.counter = counter;
    this.planned = planned;
    this.prefixGroup = prefixGroup;
    this.sharedPrefixTokens = sharedPrefixTokens;
    this.digest = digest;
    if (filler == null || filler.isEmpty()) {
      this.text = head;
    }
  }

  /**
   * A prompt from its whole text.
   *
   * @param text the prompt text, never null
   * @param promptId the prompt's id, never null
   * @param counter counts {@link #count()} when it is read, never null
   * @param planned the planned count, or null to use the exact count
   * @param prefixGroup the shared-prefix group, or null
   * @param sharedPrefixTokens the group prefix's tokens, or null
   * @return the prompt, its digest computed
   */
  public static Prompt of(
      String text,
      String promptId,
      TokenCounter counter,
      TokenCount planned,
      Integer prefixGroup,
      Integer sharedPrefixTokens) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(promptId, "promptId");
    Objects.requireNonNull(counter, "counter");
    return new Prompt(
        text,
        null,
        promptId,
        counter,
        planned,
        prefixGroup,
        sharedPrefixTokens,
        Hashing.digest16(text));
  }

  /**
   * A prompt from a prompts file's row: its text (for a {@code messages} row the messages as
   * compact JSON), its messages and its own {@code max_tokens}.
   *
   * @param row the row, never null
   * @param promptId the prompt's id, never null
   * @param counter counts {@link #count()} when it is read, never null
   * @param planned the planned count, or null to use the exact count of the text
   * @return the prompt, its digest computed
   */
  static Prompt ofRow(
      PromptFile.Row row, String promptId, TokenCounter counter, TokenCount planned) {
    Prompt prompt = of(row.text(), promptId, counter, planned, null, null);
    prompt.messages = row.messages();
    prompt.maxTokens = row.maxTokens();
    return prompt;
  }

  /**
   * This prompt with images: the same text, id and group, its digest then covering the images
   * ({@link #digest()}), its planned count and group prefix their tokens ({@link #plannedCount()},
   * {@link #sharedPrefixTokens()}).
   *
   * @param images the images, or null for this prompt as it is
   * @return a new prompt, or this one when {@code images} is null
   */
  public Prompt withImages(PromptImages images) {
    if (images == null) {
      return this;
    }
    Prompt p =
        new Prompt(
            head,
            filler,
            promptId,
            counter,
            planned,
            prefixGroup,
            sharedPrefixTokens,
            withImagesDigest(digest, images),
            images);
    p.text = text;
    p.count = count;
    p.messages = messages;
    p.maxTokens = maxTokens;
    return p;
  }

  /**
   * The digest of a text's digest with images: the first 16 hex digits of the SHA-256 of the text's
   * digest (16 hex digits) followed, for each image in the order sent, by a newline and the image's
   * SHA-256 (64 hex digits), in ASCII. A text-only prompt's digest is its text's.
   */
  static long withImagesDigest(long textDigest, PromptImages images) {
    StringBuilder sb = new StringBuilder(16 + 65 * images.count());
    sb.append(Hashing.hex16(textDigest));
    for (Image image : images.images()) {
      sb.append('\n').append(image.sha256());
    }
    return Hashing.digest16(sb.toString());
  }

  /**
   * The images the prompt carries.
   *
   * @return the images, or null for a text-only prompt
   */
  public PromptImages images() {
    return images;
  }

  /**
   * How many images the prompt carries.
   *
   * @return 0 for a text-only prompt
   */
  public int imageCount() {
    return images == null ? 0 : images.count();
  }

  /**
   * The chat messages to send instead of the text as one user message.
   *
   * @return the messages of a prompts file's {@code messages} row, else null
   */
  public List<PromptFile.Message> messages() {
    return messages;
  }

  /**
   * The request's own {@code max_tokens}.
   *
   * @return a prompts file row's {@code output_tokens} or {@code max_tokens}, else null
   */
  public Integer maxTokens() {
    return maxTokens;
  }

  /**
   * The prompt text.
   *
   * @return the text, never null
   */
  public String text() {
    String t = text;
    if (t == null) {
      t = head + " " + filler.text();
      text = t;
    }
    return t;
  }

  /**
   * Works out the text as a JSON string in UTF-8 ({@link #jsonBytes}) and keeps it until {@link
   * #takeJson}. Called on the thread that builds prompts ahead, right after the build; does nothing
   * for a prompts file's {@code messages} row (its body is its messages, not the text) or when the
   * form is already kept. Thread-safe: two racing calls work out the same bytes.
   */
  void prepareJson() {
    if (json == null && (messages == null || messages.isEmpty())) {
      json = jsonBytes(text());
    }
  }

  /**
   * The text as a JSON string in UTF-8 if it was prepared ahead ({@link #prepareJson}), and forgets
   * it: a request body takes it once, and nothing of it is kept after the body is written. A second
   * request of the same prompt gets null and has its body escape the text itself.
   *
   * @return {@link #jsonBytes} of {@link #text()}, or null when it was not prepared or was taken;
   *     not to be modified
   */
  public byte[] takeJson() {
    byte[] j = json;
    if (j != null) {
      json = null;
    }
    return j;
  }

  /**
   * Any text as a JSON string literal, quotes included, escaped by Jackson's {@link
   * JsonStringEncoder} (what Jackson's generator writes for {@code writeString(text)} with the
   * factory's default features: no non-ASCII escaping, character for character), then encoded as
   * {@link String#getBytes} encodes a body to UTF-8 (a lone surrogate becomes {@code ?}).
   *
   * @param text the text, never null
   * @return the UTF-8 bytes of {@code "} the escaped text {@code "}
   */
  public static byte[] jsonBytes(String text) {
    Objects.requireNonNull(text, "text");
    StringBuilder sb = new StringBuilder(text.length() + 16);
    sb.append('"');
    JsonStringEncoder.getInstance().quoteAsString(text, sb);
    sb.append('"');
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The prompt's id: {@code repeat}, {@code r-<nonce>} (unique) or {@code g<group>-<nonce>}
   * (shared-prefix), the nonce being 12 hex digits; {@code row-<n>} for a prompts file's row {@code
   * n} (0-based).
   *
   * @return the id, never null
   */
  public String promptId() {
    return promptId;
  }

  /**
   * The planned token count: the size the generator aimed for, counted from the parts it joined
   * ({@code exact} false), or for repeat prompts the exact count of the text.
   *
   * @return the planned count, or null when none was recorded
   */
  public TokenCount planned() {
    return planned;
  }

  /**
   * The planned count if there is one, else the exact count; with images, plus their tokens by the
   * images' rule when it knows them (a {@code server} rule before it learnt: the text's only).
   *
   * @return the count, never null
   */
  public TokenCount plannedCount() {
    TokenCount text = planned != null ? planned : count();
    Integer imageTokens = images == null ? null : images.planned();
    if (imageTokens == null || imageTokens == 0) {
      return text;
    }
    return new TokenCount(text.value() + imageTokens, text.source(), false);
  }

  /**
   * The exact token count of the text with the source's counter, computed on first read.
   *
   * @return the count, never null
   */
  public TokenCount count() {
    TokenCount c = count;
    if (c == null) {
      c = counter.countText(text());
      count = c;
    }
    return c;
  }

  /**
   * The shared-prefix group, 0-based.
   *
   * @return the group, or null outside shared-prefix mode
   */
  public Integer prefixGroup() {
    return prefixGroup;
  }

  /**
   * The tokens of the group prefix this prompt starts with: its shared images' (when their rule
   * knows them) and its text's.
   *
   * @return the group prefix's token count, or null outside shared-prefix mode
   */
  public Integer sharedPrefixTokens() {
    if (images == null || images.shared() == 0 || sharedPrefixTokens == null) {
      return sharedPrefixTokens;
    }
    Integer imageTokens = images.sharedPlanned();
    return imageTokens == null ? sharedPrefixTokens : sharedPrefixTokens + imageTokens;
  }

  /**
   * The text's tokens of the group prefix, without its images.
   *
   * @return the group prefix's text tokens, or null outside shared-prefix mode
   */
  public Integer sharedPrefixTextTokens() {
    return sharedPrefixTokens;
  }

  /**
   * The prompt's digest: the first 16 hex digits of the SHA-256 of the text's UTF-8 bytes; with
   * images, that digest combined with each image's SHA-256 ({@link #withImages}).
   *
   * @return 16 lower-case hex digits
   */
  public String digest() {
    return Hashing.hex16(digest);
  }

  /**
   * The digest of any text, as a prompt's: the first 16 hex digits of the SHA-256 of its UTF-8
   * bytes (the reference generator's {@code _digest}).
   *
   * @param text the text, never null
   * @return 16 lower-case hex digits
   */
  public static String digestOf(String text) {
    return Hashing.hex16(Hashing.digest16(Objects.requireNonNull(text, "text")));
  }

  long digestBits() {
    return digest;
  }

  @Override
  public String toString() {
    return "Prompt[" + promptId + ", digest " + digest() + ", planned " + planned + "]";
  }
}
