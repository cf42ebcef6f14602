package io.github.gatlingllm.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ImageGeneratorTest {

  private static final ImageSpec PNG_64x48 = new ImageSpec(1, 0, 64, 64, 48, 48, ImageFormat.PNG);
  private static final ImageSpec JPEG_64x48 = new ImageSpec(1, 0, 64, 64, 48, 48, ImageFormat.JPEG);

  @Test
  void aLabelGivesTheSameBytesTwice() {
    Image a = ImageGenerator.generate("0:case:measured:image:7:0", PNG_64x48);
    Image b = ImageGenerator.generate("0:case:measured:image:7:0", PNG_64x48);
    assertArrayEquals(a.encoded(), b.encoded());
    assertEquals(a.sha256(), b.sha256());
  }

  @Test
  void aJpegLabelGivesTheSameBytesTwice() {
    Image a = ImageGenerator.generate("0:case:measured:image:7:0", JPEG_64x48);
    Image b = ImageGenerator.generate("0:case:measured:image:7:0", JPEG_64x48);
    assertArrayEquals(a.encoded(), b.encoded());
  }

  /** The bytes of every JVM of this Java version: a digest written down once, on another run. */
  @Test
  void aPngIsTheSameOnEveryRun() {
    assertEquals(
        "79c93107b11e6f7c8f522b3be75912e0316a6d2c5b564d16e15c0c60e6f7329d",
        ImageGenerator.generate("42:c1:measured:image:0:0", PNG_64x48).sha256());
  }

  @Test
  void aJpegIsTheSameOnEveryRun() {
    assertEquals(
        "2cd0328ba12a30b0a95ff007a307c7e2d83db1ecc17ec59420c09fd9c721122a",
        ImageGenerator.generate("42:c1:measured:image:0:0", JPEG_64x48).sha256());
  }

  @Test
  void anotherLabelGivesOtherBytes() {
    assertNotEquals(
        ImageGenerator.generate("0:case:measured:image:7:0", PNG_64x48).sha256(),
        ImageGenerator.generate("0:case:measured:image:7:1", PNG_64x48).sha256());
  }

  @Test
  void aPngReadsBackAtItsSize() throws IOException {
    Image image = ImageGenerator.generate("x", PNG_64x48);
    BufferedImage read = ImageIO.read(new ByteArrayInputStream(image.encoded()));
    assertNotNull(read);
    assertEquals(64, read.getWidth());
    assertEquals(48, read.getHeight());
    assertEquals(64, image.width());
    assertEquals(48, image.height());
  }

  @Test
  void aJpegReadsBackAtItsSize() throws IOException {
    Image image = ImageGenerator.generate("x", JPEG_64x48);
    BufferedImage read = ImageIO.read(new ByteArrayInputStream(image.encoded()));
    assertNotNull(read);
    assertEquals(64, read.getWidth());
    assertEquals(48, read.getHeight());
  }

  @Test
  void theDataUriIsTheMediaTypeAndTheBase64OfTheBytes() {
    Image image = ImageGenerator.generate("x", JPEG_64x48);
    String uri = image.dataUri();
    assertTrue(uri.startsWith("data:image/jpeg;base64,/9j/"), uri.substring(0, 30));
    assertEquals("data:image/jpeg;base64,".length(), image.dataOffset());
    assertEquals(
        java.util.Base64.getEncoder().encodeToString(image.encoded()),
        uri.substring(image.dataOffset()));
    assertEquals(image.encoded().length, image.bytes());
    assertEquals(Image.sha256Hex(image.encoded()), image.sha256());
  }

  @Test
  void aRangeDrawsTheSizeFromTheLabel() {
    ImageSpec range = new ImageSpec(1, 0, 32, 96, 40, 41, ImageFormat.PNG);
    Image a = ImageGenerator.generate("r:1", range);
    Image again = ImageGenerator.generate("r:1", range);
    assertEquals(a.width() + "x" + a.height(), again.width() + "x" + again.height());
    java.util.Set<Integer> widths = new java.util.HashSet<>();
    for (int i = 0; i < 20; i++) {
      Image image = ImageGenerator.generate("r:" + i, range);
      assertTrue(image.width() >= 32 && image.width() <= 96, "width " + image.width());
      assertTrue(image.height() >= 40 && image.height() <= 41, "height " + image.height());
      widths.add(image.width());
    }
    assertTrue(widths.size() > 5, "widths drawn: " + widths);
  }

  @Test
  void theSeedIsTheFirst8BytesOfTheLabelsSha256() throws Exception {
    byte[] d =
        java.security.MessageDigest.getInstance("SHA-256")
            .digest("abc".getBytes(StandardCharsets.UTF_8));
    // sha256("abc") = ba7816bf8f01cfea...
    assertEquals(0xba7816bf8f01cfeaL, ImageGenerator.seed("abc"));
    assertEquals((byte) 0xba, d[0]);
  }
}
