package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.PromptImages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the JSON body of one request, with Jackson's streaming generator.
 *
 * <p>Chat ({@link WireApi#CHAT}):
 *
 * <pre>{@code
 * {"model":M,"messages":[{"role":"user","content":PROMPT}],"stream":S,
 *  "stream_options":{"include_usage":true},   (only when stream and includeUsage)
 *  "max_tokens":N,                             (or "max_completion_tokens")
 *  "ignore_eos":B,                             (only when set)
 *  "temperature":T,                            (only when set)
 *  ...extraBody}
 * }</pre>
 *
 * <p>Completions ({@link WireApi#COMPLETIONS}): the same with {@code "prompt":PROMPT} in place of
 * {@code messages}.
 *
 * <p>Runs once per request, so it writes into a buffer kept per thread and allocates little beyond
 * the returned string. Thread-safe.
 */
public final class RequestBodies {

  /** Buffers that grew past this many chars are dropped after use rather than kept per thread. */
  private static final int MAX_KEPT_CHARS = 1 << 20;

  private static final String PLACED_ONLY_IN_BYTES =
      "a prepared prompt is placed only in RequestBodies.bytes";

  private static final ThreadLocal<BuilderWriter> BUFFERS =
      ThreadLocal.withInitial(() -> new BuilderWriter(4096));

  private static final ThreadLocal<ByteArrayBuilder> BYTE_BUFFERS =
      ThreadLocal.withInitial(() -> new ByteArrayBuilder(16 * 1024));

  private RequestBodies() {}

  /**
   * The JSON body of one request.
   *
   * @param settings the request settings, never null
   * @param prompt the prompt text, never null: the user message's content for chat, the raw prompt
   *     for completions
   * @return the body, a JSON object in the field order shown on this class
   * @throws NullPointerException if an argument is null
   */
  public static String body(RequestSettings settings, String prompt) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(prompt, "prompt");
    return build(g -> write(g, settings, prompt, null, null));
  }

  /**
   * The UTF-8 bytes of {@link #body(RequestSettings, String)}, copied around the prompt's JSON
   * string when it was prepared ahead: the same bytes as {@code body(settings,
   * prompt).getBytes(UTF_8)}, the prompt neither escaped nor encoded here.
   *
   * @param settings the request settings, never null
   * @param prompt the prompt text, never null
   * @param promptJson {@code prompt} as a JSON string literal, quotes included, escaped as Jackson
   *     escapes it and encoded in UTF-8 ({@code Prompt.jsonBytes}); or null to escape {@code
   *     prompt} here
   * @return the body's bytes, a new array
   * @throws NullPointerException if {@code settings} or {@code prompt} is null
   */
  public static byte[] bodyBytes(RequestSettings settings, String prompt, byte[] promptJson) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(prompt, "prompt");
    return bytes(g -> write(g, settings, prompt, promptJson, null), promptJson);
  }

  /**
   * The JSON body of one turn of a conversation: for chat, {@code messages} holds every message in
   * order; for completions, {@code prompt} is their {@link ChatMessage#transcript}. The other
   * fields are {@link #body(RequestSettings, String)}'s.
   *
   * @param settings the request settings, never null
   * @param messages the conversation so far, ending with the new user message, never null
   * @return the body
   * @throws NullPointerException if an argument is null
   */
  public static String body(RequestSettings settings, List<ChatMessage> messages) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(messages, "messages");
    String transcript =
        settings.endpoint() == WireApi.CHAT ? null : ChatMessage.transcript(messages);
    return build(g -> write(g, settings, transcript, null, messages));
  }

  /** Writes one JSON value with a generator; see {@link #build(BodyWriter)}. */
  @FunctionalInterface
  public interface BodyWriter {
    /**
     * Writes the value.
     *
     * @param g the generator, never null; not flushed or closed here
     * @throws IOException if the generator fails
     */
    void write(JsonGenerator g) throws IOException;
  }

  /**
   * A request body written by {@code writer} into this class's per-thread buffer (the way every
   * body here is built, so that a body a request allocates little beyond its string).
   *
   * @param writer writes exactly one JSON value, never null; places no prepared prompt
   * @return the JSON text
   * @throws IllegalStateException if {@code writer} placed a prepared prompt ({@link #bytes} does)
   * @throws UncheckedIOException if writing fails
   */
  public static String build(BodyWriter writer) {
    BuilderWriter out = generate(writer);
    if (out.mark >= 0) {
      // A mark and no prompt: the body would go out without its prompt.
      throw new IllegalStateException(PLACED_ONLY_IN_BYTES);
    }
    String body = out.toString();
    if (out.capacity() > MAX_KEPT_CHARS) {
      BUFFERS.remove();
    }
    return body;
  }

  /**
   * A request body's UTF-8 bytes: with no prepared prompt, {@code build(writer)}'s; with one, the
   * body written by {@code writer} with only a mark where the prompt goes ({@code
   * Bodies.writePromptField}), encoded, and the prompt's bytes copied in at the mark. The
   * per-thread buffer then holds the body without its prompt, and no char of the prompt is escaped
   * or encoded here: the copy is {@link System#arraycopy}'s. UTF-8 encodes the parts as it encodes
   * the whole, since the mark falls between two ASCII chars.
   *
   * @param writer writes exactly one JSON value, placing the prompt with {@code
   *     Bodies.writePromptField} when {@code promptJson} is not null; never null
   * @param promptJson the prompt's JSON string in UTF-8, or null
   * @return the body's bytes, a new array
   * @throws IllegalStateException if {@code promptJson} is given and {@code writer} placed no
   *     prompt
   * @throws UncheckedIOException if writing fails
   */
  public static byte[] bytes(BodyWriter writer, byte[] promptJson) {
    if (promptJson == null) {
      return build(writer).getBytes(StandardCharsets.UTF_8);
    }
    BuilderWriter out = generate(writer);
    int mark = out.mark;
    if (mark < 0) {
      throw new IllegalStateException("the body's writer placed no prompt");
    }
    byte[] head = out.sb.substring(0, mark).getBytes(StandardCharsets.UTF_8);
    byte[] tail = out.sb.substring(mark).getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + promptJson.length + tail.length];
    System.arraycopy(head, 0, body, 0, head.length);
    System.arraycopy(promptJson, 0, body, head.length, promptJson.length);
    System.arraycopy(tail, 0, body, head.length + promptJson.length, tail.length);
    return body;
  }

  private static BuilderWriter generate(BodyWriter writer) {
    BuilderWriter out = BUFFERS.get();
    out.reset();
    try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
      writer.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a request body in memory failed", e);
    }
    return out;
  }

  /**
   * Marks where a prepared prompt goes in the body being written: the generator's output so far,
   * flushed.
   *
   * @throws IllegalStateException if {@code g} is not one of {@link #bytes}'s generators
   */
  static void markPrompt(JsonGenerator g) {
    if (!(g.getOutputTarget() instanceof BuilderWriter out)) {
      throw new IllegalStateException(PLACED_ONLY_IN_BYTES);
    }
    out.mark = out.sb.length();
  }

  /**
   * Writes the body of one request as the next value of a generator.
   *
   * @param g the generator, never null; not flushed or closed here
   * @param settings the request settings, never null
   * @param prompt the prompt text, never null
   * @throws IOException if the generator's target fails
   */
  public static void write(JsonGenerator g, RequestSettings settings, String prompt)
      throws IOException {
    write(g, settings, prompt, null, null);
  }

  private static void write(
      JsonGenerator g,
      RequestSettings settings,
      String prompt,
      byte[] promptJson,
      List<ChatMessage> messages)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("model", settings.model());
    if (settings.endpoint() == WireApi.CHAT) {
      g.writeArrayFieldStart("messages");
      if (messages == null) {
        g.writeStartObject();
        g.writeStringField("role", "user");
        Bodies.writePromptField(g, "content", prompt, promptJson);
        g.writeEndObject();
      } else {
        for (ChatMessage m : messages) {
          g.writeStartObject();
          g.writeStringField("role", m.role());
          g.writeStringField("content", m.content());
          g.writeEndObject();
        }
      }
      g.writeEndArray();
    } else {
      Bodies.writePromptField(g, "prompt", prompt, promptJson);
    }
    writeChatTail(g, settings);
  }

  /**
   * The fields after chat's {@code messages} (or completions' {@code prompt}), and the object's
   * end: {@code stream}, {@code stream_options}, the token limit, {@code ignore_eos}, {@code
   * temperature}, the extra body.
   */
  private static void writeChatTail(JsonGenerator g, RequestSettings settings) throws IOException {
    g.writeBooleanField("stream", settings.stream());
    if (settings.sendsStreamOptions()) {
      g.writeObjectFieldStart("stream_options");
      g.writeBooleanField("include_usage", true);
      g.writeEndObject();
    }
    g.writeNumberField(settings.maxTokensField(), settings.maxTokens());
    if (settings.ignoreEos() != null) {
      g.writeBooleanField("ignore_eos", settings.ignoreEos());
    }
    if (settings.temperature() != null) {
      g.writeNumberField("temperature", settings.temperature());
    }
    writeExtraBody(g, settings);
    g.writeEndObject();
  }

  /**
   * The JSON body of one chat request whose user message carries images: {@code content} is an
   * array of parts, the images before the text ({@link PromptImages#before()}) as {@code
   * {"type":"image_url","image_url":{"url":"data:<media type>;base64,<data>"}}}, then {@code
   * {"type":"text","text":PROMPT}}, then the images after it. The other fields are {@link
   * #body(RequestSettings, String)}'s. Written as UTF-8 parts ({@link #buildParts}): each data URI
   * is the array it was built in ({@link Image#dataUriBytes()}), neither encoded nor copied again.
   *
   * @param settings the request settings (chat), never null
   * @param prompt the prompt text, never null
   * @param images the images, never null
   * @return the body's parts
   * @throws NullPointerException if an argument is null
   */
  public static BodyParts imageBody(RequestSettings settings, String prompt, PromptImages images) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(images, "images");
    return buildParts(
        (g, splice) -> {
          g.writeStartObject();
          g.writeStringField("model", settings.model());
          g.writeArrayFieldStart("messages");
          g.writeStartObject();
          g.writeStringField("role", "user");
          g.writeArrayFieldStart("content");
          for (Image image : images.before()) {
            writeImageUrlPart(g, splice, image);
          }
          g.writeStartObject();
          g.writeStringField("type", "text");
          g.writeStringField("text", prompt);
          g.writeEndObject();
          for (Image image : images.after()) {
            writeImageUrlPart(g, splice, image);
          }
          g.writeEndArray();
          g.writeEndObject();
          g.writeEndArray();
          writeChatTail(g, settings);
        });
  }

  /** {@code {"type":"image_url","image_url":{"url":"data:..."}}}. */
  private static void writeImageUrlPart(JsonGenerator g, Splice splice, Image image)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("type", "image_url");
    g.writeObjectFieldStart("image_url");
    g.writeFieldName("url");
    splice.dataUri(g, image);
    g.writeEndObject();
    g.writeEndObject();
  }

  /** Writes one JSON value with a generator, its images as spliced parts ({@link #buildParts}). */
  @FunctionalInterface
  public interface PartsWriter {
    /**
     * Writes the value.
     *
     * @param g the generator, never null; not flushed or closed here
     * @param splice puts an image's bytes in the body as a part of their own
     * @throws IOException if the generator fails
     */
    void write(JsonGenerator g, Splice splice) throws IOException;
  }

  /**
   * Where a body's images go ({@link #buildParts}): each call writes an empty JSON string and marks
   * the place between its quotes, where the image's bytes are sent as a part of their own.
   */
  public static final class Splice {
    private final ByteArrayBuilder out;
    private final java.util.List<int[]> at = new java.util.ArrayList<>(4);
    private final java.util.List<Image> images = new java.util.ArrayList<>(4);

    private Splice(ByteArrayBuilder out) {
      this.out = out;
    }

    /**
     * An image's data URI as a JSON string value (base64 and its {@code data:} prefix need no
     * escaping).
     *
     * @param g the generator, after a field name or in an array
     * @param image the image, never null
     * @throws IOException if the generator fails
     */
    public void dataUri(JsonGenerator g, Image image) throws IOException {
      mark(g, image, 0);
    }

    /**
     * An image's base64 data (without the {@code data:} prefix) as a JSON string value.
     *
     * @param g the generator, after a field name
     * @param image the image, never null
     * @throws IOException if the generator fails
     */
    public void base64(JsonGenerator g, Image image) throws IOException {
      mark(g, image, image.dataOffset());
    }

    private void mark(JsonGenerator g, Image image, int offset) throws IOException {
      g.writeString("");
      g.flush();
      // between the two quotes just written
      at.add(new int[] {out.size() - 1, offset});
      images.add(image);
    }
  }

  /**
   * A request body written by {@code writer} as UTF-8 parts: the JSON text (written into a buffer
   * kept per thread) cut where {@code writer} spliced an image, each image's bytes the array it was
   * built in, so that a body with images costs its text and no copy of the images.
   *
   * @param writer writes exactly one JSON value, never null
   * @return the body's parts
   * @throws UncheckedIOException if writing fails
   */
  public static BodyParts buildParts(PartsWriter writer) {
    ByteArrayBuilder out = BYTE_BUFFERS.get();
    out.reset();
    Splice splice = new Splice(out);
    try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
      writer.write(g, splice);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a request body in memory failed", e);
    }
    byte[] text = out.toByteArray();
    out.reset();
    if (text.length > MAX_KEPT_CHARS) {
      BYTE_BUFFERS.remove();
    }
    java.util.List<BodyParts.Part> parts = new java.util.ArrayList<>(2 * splice.at.size() + 1);
    int from = 0;
    int length = text.length;
    for (int i = 0; i < splice.at.size(); i++) {
      int cut = splice.at.get(i)[0];
      int offset = splice.at.get(i)[1];
      byte[] uri = splice.images.get(i).dataUriBytes();
      parts.add(new BodyParts.Part(text, from, cut - from));
      parts.add(new BodyParts.Part(uri, offset, uri.length - offset));
      length += uri.length - offset;
      from = cut;
    }
    parts.add(new BodyParts.Part(text, from, text.length - from));
    return new BodyParts(parts, length);
  }

  /**
   * Writes {@link RequestSettings#extraBody()}'s fields, in their order, into the object being
   * written.
   *
   * @param g the generator, inside an object; not flushed or closed here
   * @param settings the settings, never null
   * @throws IOException if the generator fails
   */
  public static void writeExtraBody(JsonGenerator g, RequestSettings settings) throws IOException {
    for (Map.Entry<String, Object> e : settings.extraBody().entrySet()) {
      g.writeFieldName(e.getKey());
      writeValue(g, e.getValue());
    }
  }

  /** Writes a frozen extra value: null, string, boolean, number, map or list of those. */
  private static void writeValue(JsonGenerator g, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof String s) {
      g.writeString(s);
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Integer i) {
      g.writeNumber(i);
    } else if (value instanceof Long l) {
      g.writeNumber(l);
    } else if (value instanceof Double d) {
      g.writeNumber(d);
    } else if (value instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (value instanceof BigDecimal b) {
      g.writeNumber(b);
    } else if (value instanceof Number n) {
      g.writeNumber(n.doubleValue());
    } else if (value instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        writeValue(g, e.getValue());
      }
      g.writeEndObject();
    } else if (value instanceof List<?> list) {
      g.writeStartArray();
      for (Object v : list) {
        writeValue(g, v);
      }
      g.writeEndArray();
    } else {
      // RequestSettings freezes values into the shapes above; anything else goes through Jackson.
      Json.MAPPER.writeValue(g, value);
    }
  }

  /** A Writer into a reusable StringBuilder; not thread-safe (one per thread). */
  private static final class BuilderWriter extends Writer {
    private final StringBuilder sb;
    // Where a prepared prompt goes ({@link #markPrompt}), or -1.
    private int mark = -1;

    BuilderWriter(int capacity) {
      this.sb = new StringBuilder(capacity);
    }

    void reset() {
      sb.setLength(0);
      mark = -1;
    }

    int capacity() {
      return sb.capacity();
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
      sb.append(cbuf, off, len);
    }

    @Override
    public void write(String str, int off, int len) {
      sb.append(str, off, off + len);
    }

    @Override
    public void write(int c) {
      sb.append((char) c);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    @Override
    public String toString() {
      return sb.toString();
    }
  }
}
