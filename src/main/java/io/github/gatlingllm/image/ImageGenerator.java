package io.github.gatlingllm.image;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Iterator;
import java.util.Objects;
import java.util.SplittableRandom;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Seeded images: the image of a label is a pure function of the label and the {@link ImageSpec}'s
 * sizes and format, the same bytes on every run and every JVM of the same Java version.
 *
 * <p>The label's SHA-256 (UTF-8) seeds a {@link SplittableRandom} (its first 8 bytes, big-endian),
 * whose draws in order are: the width in {@code [minWidth, maxWidth]} and the height in {@code
 * [minHeight, maxHeight]} (no draw when the range is one value), two background colours (a diagonal
 * gradient between them), then 6 to 12 shapes (rectangles and ellipses of random colour, position
 * and size). The label's 64 seed bits are then painted as an 8x8 grid of black and white cells in
 * the top-left corner (cells of {@code max(1, min(w, h) / 32)} pixels), so two labels never give
 * the same pixels; a JPEG image also gets a seeded noise of up to 4 levels a channel (the grain of
 * a photograph). Pixels are written into the raster directly (no Java2D drawing, whose
 * anti-aliasing may vary), then encoded with the JDK's ImageIO writers at fixed settings: PNG at
 * compression quality 0.5, JPEG baseline (not progressive) at quality 0.85 with the standard
 * Huffman tables and the default JFIF header, through an in-memory stream (no cache file).
 *
 * <p>Cost on one core (see {@code docs/images.md}): a few milliseconds a 512x512 image; prompts are
 * built ahead of use ({@code prompt.PromptLookahead}), their images with them.
 */
public final class ImageGenerator {

  /** JPEG quality, fixed so the bytes are. */
  static final float JPEG_QUALITY = 0.85f;

  /** PNG compression quality (the deflate level follows from it), fixed so the bytes are. */
  static final float PNG_COMPRESSION_QUALITY = 0.5f;

  private ImageGenerator() {}

  /**
   * The image of a label.
   *
   * @param label what the image is a function of, e.g. {@code 42:case:measured:image:7:1}, never
   *     null
   * @param spec the sizes and format, never null
   * @return the image, never null
   * @throws UncheckedIOException if the JDK's encoder fails
   */
  public static Image generate(String label, ImageSpec spec) {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(spec, "spec");
    long seed = seed(label);
    SplittableRandom r = new SplittableRandom(seed);
    int w = draw(r, spec.minWidth(), spec.maxWidth());
    int h = draw(r, spec.minHeight(), spec.maxHeight());
    BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    int[] px = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
    paint(px, w, h, r, seed, spec.format() == ImageFormat.JPEG);
    return Image.of(spec.format(), w, h, encode(image, spec.format()));
  }

  /** The first 8 bytes of the label's SHA-256, big-endian. */
  static long seed(String label) {
    byte[] d;
    try {
      d = MessageDigest.getInstance("SHA-256").digest(label.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xFF);
    }
    return v;
  }

  private static int draw(SplittableRandom r, int min, int max) {
    return min == max ? min : min + r.nextInt(max - min + 1);
  }

  private static void paint(int[] px, int w, int h, SplittableRandom r, long seed, boolean grain) {
    int c0 = r.nextInt(0x1000000);
    int c1 = r.nextInt(0x1000000);
    int span = Math.max(1, w + h - 2);
    for (int y = 0; y < h; y++) {
      int row = y * w;
      for (int x = 0; x < w; x++) {
        px[row + x] = mix(c0, c1, (x + y) * 256 / (span + 1));
      }
    }
    int shapes = 6 + r.nextInt(7);
    for (int s = 0; s < shapes; s++) {
      int colour = r.nextInt(0x1000000);
      boolean ellipse = r.nextBoolean();
      int x0 = r.nextInt(w);
      int y0 = r.nextInt(h);
      int sw = 1 + r.nextInt(Math.max(1, w / 2));
      int sh = 1 + r.nextInt(Math.max(1, h / 2));
      int x1 = Math.min(w, x0 + sw);
      int y1 = Math.min(h, y0 + sh);
      long cx2 = 2L * x0 + sw;
      long cy2 = 2L * y0 + sh;
      for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
          if (ellipse) {
            // inside when ((2x+1-cx2)/sw)^2 + ((2y+1-cy2)/sh)^2 <= 1, in integers
            long dx = 2L * x + 1 - cx2;
            long dy = 2L * y + 1 - cy2;
            if (dx * dx * sh * sh + dy * dy * sw * sw > (long) sw * sw * sh * sh) {
              continue;
            }
          }
          px[y * w + x] = colour;
        }
      }
    }
    int cell = Math.max(1, Math.min(w, h) / 32);
    for (int bit = 0; bit < 64; bit++) {
      int colour = ((seed >>> (63 - bit)) & 1) == 1 ? 0xFFFFFF : 0x000000;
      int cx = (bit % 8) * cell;
      int cy = (bit / 8) * cell;
      for (int y = cy; y < Math.min(h, cy + cell); y++) {
        for (int x = cx; x < Math.min(w, cx + cell); x++) {
          px[y * w + x] = colour;
        }
      }
    }
    if (grain) {
      long state = seed | 1;
      for (int i = 0; i < px.length; i++) {
        state ^= state << 13;
        state ^= state >>> 7;
        state ^= state << 17;
        px[i] =
            shift(
                px[i],
                (int) (state & 7) - 4,
                (int) ((state >>> 3) & 7) - 4,
                (int) ((state >>> 6) & 7) - 4);
      }
    }
  }

  private static int mix(int a, int b, int t) {
    int rr = (((a >> 16) & 0xFF) * (256 - t) + ((b >> 16) & 0xFF) * t) >> 8;
    int gg = (((a >> 8) & 0xFF) * (256 - t) + ((b >> 8) & 0xFF) * t) >> 8;
    int bb = ((a & 0xFF) * (256 - t) + (b & 0xFF) * t) >> 8;
    return (rr << 16) | (gg << 8) | bb;
  }

  private static int shift(int rgb, int dr, int dg, int db) {
    int rr = clamp(((rgb >> 16) & 0xFF) + dr);
    int gg = clamp(((rgb >> 8) & 0xFF) + dg);
    int bb = clamp((rgb & 0xFF) + db);
    return (rr << 16) | (gg << 8) | bb;
  }

  private static int clamp(int v) {
    return v < 0 ? 0 : Math.min(255, v);
  }

  private static byte[] encode(BufferedImage image, ImageFormat format) {
    Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName(format.wireName());
    if (!writers.hasNext()) {
      throw new IllegalStateException("this JVM has no ImageIO writer for " + format.wireName());
    }
    ImageWriter writer = writers.next();
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(image.getWidth() * image.getHeight() / 2 + 1024);
    try (MemoryCacheImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
      ImageWriteParam param = writer.getDefaultWriteParam();
      if (param.canWriteCompressed()) {
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(
            format == ImageFormat.JPEG ? JPEG_QUALITY : PNG_COMPRESSION_QUALITY);
      }
      if (param.canWriteProgressive()) {
        param.setProgressiveMode(ImageWriteParam.MODE_DISABLED);
      }
      writer.setOutput(stream);
      writer.write(null, new IIOImage(image, null, null), param);
    } catch (IOException e) {
      throw new UncheckedIOException("encoding a " + format.wireName() + " image failed", e);
    } finally {
      writer.dispose();
    }
    return out.toByteArray();
  }
}
