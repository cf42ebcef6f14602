package io.github.gatlingllm.api;

import java.util.List;
import java.util.Objects;

/**
 * A request body as the parts it is sent from, in order: the JSON text around each image, and each
 * image's data (base64) as the array it was built in when the image was made, shared by every
 * request that carries the image and never copied per request. The HTTP client sends the parts one
 * after another as one body ({@code internal.GatlingHttp.withBody}).
 *
 * @param parts the parts, never null nor empty
 * @param length their bytes, summed
 */
public record BodyParts(List<Part> parts, int length) {

  /**
   * One part: {@code length} bytes of {@code array} from {@code offset}.
   *
   * @param array the bytes, shared: never written into
   * @param offset where the part starts
   * @param length its bytes
   */
  public record Part(byte[] array, int offset, int length) {

    /**
     * Checks the range.
     *
     * @throws IllegalArgumentException if the range is outside the array
     */
    public Part {
      Objects.requireNonNull(array, "array");
      if (offset < 0 || length < 0 || offset + length > array.length) {
        throw new IllegalArgumentException(
            "body part: offset " + offset + " and length " + length + " outside " + array.length);
      }
    }
  }

  /**
   * Checks the parts and their length.
   *
   * @throws IllegalArgumentException if there is no part or the length is not their sum
   */
  public BodyParts {
    parts = List.copyOf(Objects.requireNonNull(parts, "parts"));
    long sum = 0;
    for (Part p : parts) {
      sum += p.length();
    }
    if (parts.isEmpty() || sum != length) {
      throw new IllegalArgumentException(
          "body parts: " + parts.size() + " parts of " + sum + " bytes, length " + length);
    }
  }

  /**
   * A body of one array.
   *
   * @param bytes the body, never null
   * @return one part, the whole array
   */
  public static BodyParts of(byte[] bytes) {
    return new BodyParts(List.of(new Part(bytes, 0, bytes.length)), bytes.length);
  }

  /**
   * The body as one array when it is one whole array, else null (send the parts).
   *
   * @return the array, or null
   */
  public byte[] whole() {
    Part p = parts.get(0);
    return parts.size() == 1 && p.offset() == 0 && p.length() == p.array().length
        ? p.array()
        : null;
  }

  /**
   * The body in one array (a copy: for checks and tests; a request sends the parts).
   *
   * @return the body's bytes
   */
  public byte[] joined() {
    byte[] all = new byte[length];
    int at = 0;
    for (Part p : parts) {
      System.arraycopy(p.array(), p.offset(), all, at, p.length());
      at += p.length();
    }
    return all;
  }
}
