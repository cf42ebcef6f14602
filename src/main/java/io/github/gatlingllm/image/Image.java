package io.github.gatlingllm.image;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One encoded image as a request sends it: its data URI's ASCII bytes ({@code
 * data:<media-type>;base64,<data>}), built once so that every request that carries it copies the
 * bytes into its body without encoding them again, and the SHA-256 of the encoded image's bytes
 * (what the prompt's digest covers). The raw bytes are not kept: only their length.
 *
 * <p>Immutable; safe to share between threads.
 */
public final class Image {

  private final ImageFormat format;
  private final int width;
  private final int height;
  private final int bytes;
  private final String sha256;
  private final byte[] dataUri;
  private final int dataOffset;

  private Image(
      ImageFormat format,
      int width,
      int height,
      int bytes,
      String sha256,
      byte[] dataUri,
      int dataOffset) {
    this.format = format;
    this.width = width;
    this.height = height;
    this.bytes = bytes;
    this.sha256 = sha256;
    this.dataUri = dataUri;
    this.dataOffset = dataOffset;
  }

  /**
   * An image from its encoded bytes.
   *
   * @param format the encoding, never null
   * @param width its width, in pixels, at least 1
   * @param height its height, in pixels, at least 1
   * @param encoded the PNG or JPEG bytes, never null; not kept
   * @return the image, its digest and data URI computed
   * @throws IllegalArgumentException if a side is below 1
   */
  public static Image of(ImageFormat format, int width, int height, byte[] encoded) {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(encoded, "encoded");
    if (width < 1 || height < 1) {
      throw new IllegalArgumentException(
          "image size: got " + width + "x" + height + ", expected at least 1x1 pixels");
    }
    byte[] prefix = ("data:" + format.mediaType() + ";base64,").getBytes(StandardCharsets.US_ASCII);
    byte[] base64 = Base64.getEncoder().encode(encoded);
    byte[] uri = new byte[prefix.length + base64.length];
    System.arraycopy(prefix, 0, uri, 0, prefix.length);
    System.arraycopy(base64, 0, uri, prefix.length, base64.length);
    return new Image(format, width, height, encoded.length, sha256Hex(encoded), uri, prefix.length);
  }

  /**
   * An image from a PNG's or a JPEG's bytes, its size read from its header (ImageIO's readers, in
   * memory).
   *
   * @param encoded the bytes, never null; not kept
   * @return the image
   * @throws IllegalArgumentException if the bytes are not a PNG or JPEG image whose header reads
   */
  public static Image read(byte[] encoded) {
    Objects.requireNonNull(encoded, "encoded");
    ImageFormat format = null;
    if (encoded.length > 8
        && (encoded[0] & 0xFF) == 0x89
        && encoded[1] == 'P'
        && encoded[2] == 'N'
        && encoded[3] == 'G') {
      format = ImageFormat.PNG;
    } else if (encoded.length > 3 && (encoded[0] & 0xFF) == 0xFF && (encoded[1] & 0xFF) == 0xD8) {
      format = ImageFormat.JPEG;
    }
    if (format == null) {
      throw new IllegalArgumentException("not a PNG or JPEG image (" + encoded.length + " bytes)");
    }
    try (javax.imageio.stream.ImageInputStream in =
        new javax.imageio.stream.MemoryCacheImageInputStream(
            new java.io.ByteArrayInputStream(encoded))) {
      java.util.Iterator<javax.imageio.ImageReader> readers =
          javax.imageio.ImageIO.getImageReadersByFormatName(format.wireName());
      javax.imageio.ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        return of(format, reader.getWidth(0), reader.getHeight(0), encoded);
      } finally {
        reader.dispose();
      }
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "a " + format.wireName() + " image whose header does not read: " + e.getMessage(), e);
    }
  }

  /**
   * The hex SHA-256 of bytes.
   *
   * @param bytes the bytes, never null
   * @return 64 lower-case hex digits
   */
  public static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * The encoding.
   *
   * @return never null
   */
  public ImageFormat format() {
    return format;
  }

  /**
   * The width.
   *
   * @return pixels, at least 1
   */
  public int width() {
    return width;
  }

  /**
   * The height.
   *
   * @return pixels, at least 1
   */
  public int height() {
    return height;
  }

  /**
   * The encoded image's size (before base64).
   *
   * @return bytes
   */
  public int bytes() {
    return bytes;
  }

  /**
   * The SHA-256 of the encoded image's bytes.
   *
   * @return 64 lower-case hex digits
   */
  public String sha256() {
    return sha256;
  }

  /**
   * The data URI's ASCII bytes, shared: never write into the array.
   *
   * @return {@code data:<media-type>;base64,<data>}
   */
  public byte[] dataUriBytes() {
    return dataUri;
  }

  /**
   * Where the base64 data starts in {@link #dataUriBytes()}.
   *
   * @return the length of {@code data:<media-type>;base64,}
   */
  public int dataOffset() {
    return dataOffset;
  }

  /**
   * The data URI as text (a copy; the body writers copy the bytes instead).
   *
   * @return {@code data:<media-type>;base64,<data>}
   */
  public String dataUri() {
    return new String(dataUri, StandardCharsets.US_ASCII);
  }

  /**
   * The encoded bytes again, decoded from the data URI (for checks and tests).
   *
   * @return a new array
   */
  public byte[] encoded() {
    return Base64.getDecoder()
        .decode(java.util.Arrays.copyOfRange(dataUri, dataOffset, dataUri.length));
  }

  @Override
  public String toString() {
    return "Image["
        + format.wireName()
        + " "
        + width
        + "x"
        + height
        + ", "
        + bytes
        + " bytes, sha256 "
        + sha256.substring(0, 16)
        + "]";
  }
}
