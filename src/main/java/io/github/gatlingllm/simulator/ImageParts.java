package io.github.gatlingllm.simulator;

import io.github.gatlingllm.image.ImageTokens;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * The images of one request as the simulator reads them: each image part (a chat {@code image_url},
 * a Responses {@code input_image}, a Messages {@code image} block) is decoded from its base64, its
 * size read from its header (PNG, JPEG, GIF or BMP, through ImageIO) and stands in the prompt's
 * text as a marker; {@link #tokens} then counts the templated prompt as its text's tokens with each
 * image's {@link ImageTokens} tokens in its place, as a vision-language server does. An image's
 * tokens are ids drawn from the SHA-256 of its bytes, so the prefix cache holds an image by its
 * hash (as llama.cpp's server and vLLM do): the same image in the same place is a hit, another one
 * a miss. One per request; not thread-safe.
 */
final class ImageParts {

  /** What stands around an image's marker in the text: a character no prompt sends. */
  static final char MARK = '\u0000';

  /** The rule the simulator counts with: Qwen2-VL's, {@code ceil(h/28) * ceil(w/28)}. */
  static final ImageTokens RULE = ImageTokens.QWEN2_VL;

  private record Part(int tokens, long hash) {}

  private final List<Part> parts = new ArrayList<>(2);
  private long bytes;

  /**
   * A data URI's image, as a marker to put in the text.
   *
   * @param uri the URI, {@code data:image/<type>;base64,<data>}
   * @param field the request's field, for the refusal
   * @return the marker
   * @throws ErrorReply HTTP 400 for another URL or an image that cannot be read
   */
  String dataUri(String uri, String field) {
    int comma = uri.indexOf(',');
    if (!uri.startsWith("data:image/")
        || comma < 0
        || !uri.substring(0, comma).endsWith(";base64")) {
      throw ErrorReply.badRequest(
          "'"
              + field
              + "' must be a data URI, data:image/<type>;base64,<data> (the simulator fetches no"
              + " URL), got '"
              + (uri.length() > 40 ? uri.substring(0, 40) + "..." : uri)
              + "'",
          field);
    }
    return base64(uri.substring(comma + 1), field);
  }

  /**
   * A base64 image's marker.
   *
   * @param data the base64 data
   * @param field the request's field, for the refusal
   * @return the marker
   * @throws ErrorReply HTTP 400 for data that is not a readable image
   */
  String base64(String data, String field) {
    byte[] encoded;
    try {
      encoded = Base64.getDecoder().decode(data);
    } catch (IllegalArgumentException e) {
      throw ErrorReply.badRequest("'" + field + "' is not valid base64: " + e.getMessage(), field);
    }
    int[] size = size(encoded);
    if (size == null) {
      throw ErrorReply.badRequest(
          "'" + field + "' is not a PNG, JPEG, GIF or BMP image the simulator can read", field);
    }
    bytes += encoded.length;
    Part part = new Part(RULE.tokens(size[0], size[1]), sha256First8(encoded));
    parts.add(part);
    // The marker holds the image's tokens and hash: a stored response's context (the Responses
    // API's previous_response_id) brings it back in a later request as it is.
    return MARK + Integer.toString(part.tokens()) + ":" + Long.toHexString(part.hash()) + MARK;
  }

  /**
   * How many images were read.
   *
   * @return the count
   */
  int count() {
    return parts.size();
  }

  /**
   * Their decoded bytes, summed.
   *
   * @return bytes
   */
  long bytes() {
    return bytes;
  }

  /**
   * The tokens of a templated prompt: its text's, with each marker replaced by its image's ids.
   * Without images, the tokenizer's count of the text as it is.
   *
   * @param tokenizer the prompt tokenizer
   * @param templated the templated prompt, its images as markers
   * @return the tokens
   */
  PromptTokenizer.Tokens tokens(PromptTokenizer tokenizer, String templated) {
    if (templated.indexOf(MARK) < 0) {
      return tokenizer.tokens(templated);
    }
    long[] ids = new long[64];
    int n = 0;
    int count = 0;
    boolean withIds = true;
    int from = 0;
    while (from <= templated.length()) {
      int mark = templated.indexOf(MARK, from);
      String text = templated.substring(from, mark < 0 ? templated.length() : mark);
      if (!text.isEmpty()) {
        PromptTokenizer.Tokens t = tokenizer.tokens(text);
        count += t.count();
        if (t.ids() == null) {
          withIds = false;
        } else if (withIds) {
          ids = grow(ids, n + t.ids().length);
          System.arraycopy(t.ids(), 0, ids, n, t.ids().length);
          n += t.ids().length;
        }
      }
      if (mark < 0) {
        break;
      }
      int end = templated.indexOf(MARK, mark + 1);
      Part part;
      try {
        String marker = templated.substring(mark + 1, end);
        int colon = marker.indexOf(':');
        part =
            new Part(
                Integer.parseInt(marker.substring(0, colon)),
                Long.parseUnsignedLong(marker.substring(colon + 1), 16));
      } catch (RuntimeException e) {
        // A NUL the client sent itself, not a marker of ours: the text as it is.
        return tokenizer.tokens(templated);
      }
      count += part.tokens();
      if (withIds) {
        ids = grow(ids, n + part.tokens());
        for (int i = 0; i < part.tokens(); i++) {
          ids[n++] = Hashes.mix(part.hash() + i);
        }
      }
      from = end + 1;
    }
    return new PromptTokenizer.Tokens(count, withIds ? Arrays.copyOf(ids, n) : null);
  }

  private static long[] grow(long[] ids, int needed) {
    return needed <= ids.length ? ids : Arrays.copyOf(ids, Math.max(needed, ids.length * 2));
  }

  /** An image's width and height from its header, or null when ImageIO cannot read it. */
  static int[] size(byte[] encoded) {
    try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(encoded))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        return null;
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        return new int[] {reader.getWidth(0), reader.getHeight(0)};
      } finally {
        reader.dispose();
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static long sha256First8(byte[] bytes) {
    byte[] d;
    try {
      d = MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xFF);
    }
    return v;
  }
}
