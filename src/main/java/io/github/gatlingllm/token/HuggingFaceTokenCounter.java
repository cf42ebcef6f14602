package io.github.gatlingllm.token;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Exact token counts from a Hugging Face {@code tokenizer.json}, through DJL's binding of the Rust
 * {@code tokenizers} library.
 *
 * <p>Counts are {@code len(tokenizer.encode(text, add_special_tokens=False))} as the reference
 * generator's transformers counter makes them: no special tokens, no truncation, no padding. The
 * file is read from a local path only; DJL runs in offline mode and no network call is ever made.
 * For the Qwen3 vocabulary these counts equal the token ids a llama.cpp server gives the same text.
 *
 * <p>Thread-safe. Holds a native tokenizer: {@link #close()} it when done; counting after close
 * throws {@link IllegalStateException}.
 */
public final class HuggingFaceTokenCounter implements TokenCounter, AutoCloseable {

  /** The {@link TokenCount#source()} of every count. */
  public static final String SOURCE = "huggingface";

  /** The library named in the identity. */
  public static final String LIBRARY = "ai.djl.huggingface:tokenizers";

  private static final String TOKENIZER_FILE = "tokenizer.json";
  private static final String CONFIG_FILE = "tokenizer_config.json";
  private static final String TEMPLATE_FILE = "chat_template.jinja";

  private final HuggingFaceTokenizer tokenizer;
  private final long handle;
  private final Path file;
  private final Map<String, Object> identity;
  private final String chatTemplate;

  /** Counting holds the read lock, closing the write lock: no count runs on a freed tokenizer. */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private boolean closed;

  private HuggingFaceTokenCounter(
      HuggingFaceTokenizer tokenizer,
      Path file,
      Map<String, Object> identity,
      String chatTemplate) {
    this.tokenizer = tokenizer;
    this.handle = tokenizer.getHandle();
    this.file = file;
    this.identity = identity;
    this.chatTemplate = chatTemplate;
  }

  /**
   * Loads a tokenizer from a local {@code tokenizer.json}, or from a folder that holds one.
   *
   * <p>A {@code tokenizer_config.json} (or {@code chat_template.jinja}) beside it supplies the chat
   * template whose digest goes into the identity; neither is needed.
   *
   * @param path a {@code tokenizer.json} file or a folder holding one, never null
   * @return a counter over that tokenizer; close it when done
   * @throws IllegalArgumentException if the path does not exist, cannot be read, or is not a
   *     Hugging Face tokenizer; the message names the path and what was expected
   */
  public static HuggingFaceTokenCounter load(Path path) {
    Objects.requireNonNull(path, "tokenizer path");
    Path file = path;
    if (Files.isDirectory(path)) {
      file = path.resolve(TOKENIZER_FILE);
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException(
            "tokenizer folder "
                + path
                + " holds no "
                + TOKENIZER_FILE
                + ": expected a Hugging Face tokenizer.json file, or a folder holding one");
      }
    } else if (!Files.exists(path)) {
      throw new IllegalArgumentException(
          "tokenizer "
              + path
              + " does not exist: expected a Hugging Face tokenizer.json file, or a folder"
              + " holding one");
    }
    file = file.toAbsolutePath().normalize();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException | OutOfMemoryError e) {
      throw new IllegalArgumentException(
          "tokenizer " + file + " cannot be read (" + e + "): expected a readable tokenizer.json",
          e);
    }
    checkLooksLikeTokenizer(file, bytes);
    DjlOffline.ensure();
    HuggingFaceTokenizer tokenizer;
    try {
      Map<String, String> options = new LinkedHashMap<>();
      options.put("addSpecialTokens", "false");
      options.put("truncation", "false");
      options.put("padding", "false");
      tokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(bytes), options);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "tokenizer "
              + file
              + " is not a Hugging Face tokenizer.json the tokenizers library can load: "
              + e.getMessage(),
          e);
    }
    Map<String, Object> identity = new LinkedHashMap<>();
    identity.put("source", SOURCE);
    identity.put("exact", true);
    Path parent = file.getParent();
    identity.put(
        "name",
        parent == null || parent.getFileName() == null
            ? file.getFileName().toString()
            : parent.getFileName() + "/" + file.getFileName());
    identity.put("path", file.toString());
    identity.put("sha256", HexFormat.of().formatHex(sha256(bytes)));
    identity.put("library", LIBRARY);
    identity.put("library_version", libraryVersion());
    String template = chatTemplate(parent);
    identity.put("chat_template_digest", chatTemplateDigest(template));
    return new HuggingFaceTokenCounter(
        tokenizer, file, Collections.unmodifiableMap(identity), template);
  }

  private static void checkLooksLikeTokenizer(Path file, byte[] bytes) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(bytes);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "tokenizer "
              + file
              + " is not JSON ("
              + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                  ? j.getOriginalMessage()
                  : e.getMessage())
              + "): expected a Hugging Face tokenizer.json",
          e);
    }
    if (root == null || !root.isObject() || !root.path("model").isObject()) {
      throw new IllegalArgumentException(
          "tokenizer " + file + " has no \"model\" object: expected a Hugging Face tokenizer.json");
    }
  }

  /**
   * The chat template's digest: 16 hex digits of the SHA-256 of its UTF-8 text, as the reference's
   * transformers counter gives it; null when no template lies beside the tokenizer.
   */
  private static String chatTemplateDigest(String template) {
    if (template == null || template.isEmpty()) {
      return null;
    }
    return HexFormat.of()
        .formatHex(sha256(template.getBytes(StandardCharsets.UTF_8)))
        .substring(0, 16);
  }

  /**
   * The chat template beside the tokenizer ({@code chat_template.jinja}, else {@code
   * tokenizer_config.json}'s {@code chat_template} string), or null.
   */
  private static String chatTemplate(Path folder) {
    if (folder == null) {
      return null;
    }
    String template = null;
    try {
      Path jinja = folder.resolve(TEMPLATE_FILE);
      Path config = folder.resolve(CONFIG_FILE);
      if (Files.isRegularFile(jinja)) {
        template = Files.readString(jinja, StandardCharsets.UTF_8);
      } else if (Files.isRegularFile(config)) {
        JsonNode node = new ObjectMapper().readTree(config.toFile()).path("chat_template");
        if (node.isTextual()) {
          template = node.textValue();
        }
      }
    } catch (IOException e) {
      return null;
    }
    return template == null || template.isEmpty() ? null : template;
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static String libraryVersion() {
    Package p = HuggingFaceTokenizer.class.getPackage();
    String version = p == null ? null : p.getSpecificationVersion();
    return version == null ? "unknown" : version;
  }

  @Override
  public TokenCount countText(String text) {
    return new TokenCount(count(text), SOURCE, true);
  }

  @Override
  public int count(String text) {
    return tokenIds(text).length;
  }

  /**
   * Counts several texts in one call to the tokenizer: cheaper than one call each for short texts,
   * where the fixed cost of a call dominates.
   *
   * @param texts the texts, none null
   * @return the number of tokens of each text, in order
   * @throws IllegalStateException if the counter is closed
   */
  @Override
  public int[] countAll(String[] texts) {
    for (String text : texts) {
      Objects.requireNonNull(text, "text");
    }
    lifecycle.readLock().lock();
    try {
      checkOpen();
      long[] encodings = TokenizersLibrary.LIB.batchEncode(handle, texts, false);
      int[] counts = new int[encodings.length];
      try {
        for (int i = 0; i < encodings.length; i++) {
          counts[i] = TokenizersLibrary.LIB.getTokenIds(encodings[i]).length;
        }
      } finally {
        for (long encoding : encodings) {
          TokenizersLibrary.LIB.deleteEncoding(encoding);
        }
      }
      return counts;
    } finally {
      Reference.reachabilityFence(this);
      lifecycle.readLock().unlock();
    }
  }

  /**
   * The token ids of a text, without special tokens.
   *
   * @param text the text, never null
   * @return the ids, in order, never null
   * @throws IllegalStateException if the counter is closed
   */
  public long[] tokenIds(String text) {
    Objects.requireNonNull(text, "text");
    lifecycle.readLock().lock();
    // One encode and one id read: DJL's Encoding would also copy tokens, masks and offsets.
    try {
      checkOpen();
      long encoding = TokenizersLibrary.LIB.encode(handle, text, false);
      try {
        return TokenizersLibrary.LIB.getTokenIds(encoding);
      } finally {
        TokenizersLibrary.LIB.deleteEncoding(encoding);
      }
    } finally {
      // DJL frees the native tokenizer when its Java object is finalized: keep it alive
      // until the native call that uses its handle has returned.
      Reference.reachabilityFence(this);
      lifecycle.readLock().unlock();
    }
  }

  /**
   * The text of a sequence of token ids, special tokens kept.
   *
   * @param ids token ids, never null
   * @return the decoded text, never null
   * @throws IllegalStateException if the counter is closed
   */
  public String decode(long[] ids) {
    Objects.requireNonNull(ids, "ids");
    lifecycle.readLock().lock();
    try {
      checkOpen();
      return tokenizer.decode(ids, false);
    } finally {
      Reference.reachabilityFence(this);
      lifecycle.readLock().unlock();
    }
  }

  /**
   * The chat template found beside the tokenizer when it was loaded: {@code chat_template.jinja},
   * else the {@code chat_template} string of {@code tokenizer_config.json}.
   *
   * @return the Jinja template text, or null when there is none
   */
  public String chatTemplate() {
    return chatTemplate;
  }

  /**
   * The {@code tokenizer.json} this counter was loaded from.
   *
   * @return an absolute, normalized path
   */
  public Path file() {
    return file;
  }

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public boolean exact() {
    return true;
  }

  @Override
  public Map<String, Object> identity() {
    return identity;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("tokenizer " + file + " is closed");
    }
  }

  /** Frees the native tokenizer once no count is running. Idempotent. */
  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (!closed) {
        closed = true;
        tokenizer.close();
      }
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "HuggingFaceTokenCounter[" + file + "]";
  }
}
