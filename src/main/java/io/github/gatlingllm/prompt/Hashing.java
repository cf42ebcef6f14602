package io.github.gatlingllm.prompt;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as the reference generator uses it: 16 hex digits of the digest of UTF-8 bytes. */
final class Hashing {

  private static final HexFormat HEX = HexFormat.of();

  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(Hashing::newSha256);

  private Hashing() {}

  static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** This thread's SHA-256, reset. */
  static MessageDigest sha256() {
    MessageDigest digest = SHA256.get();
    digest.reset();
    return digest;
  }

  /** The first 8 bytes of a digest, big-endian: the value of its first 16 hex digits. */
  static long first8(byte[] digest) {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (digest[i] & 0xFF);
    }
    return value;
  }

  /** {@code sha256(text.encode("utf-8")).hexdigest()[:16]} as a long. */
  static long digest16(String text) {
    return first8(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** 16 lower-case hex digits. */
  static String hex16(long value) {
    return HEX.toHexDigits(value);
  }
}
