package io.github.gatlingllm.image;

import java.util.Locale;

/** The encodings the generator writes, with their media types. */
public enum ImageFormat {
  /** PNG (lossless, larger), {@code image/png}. */
  PNG("png", "image/png"),
  /** JPEG (baseline, quality 0.85), {@code image/jpeg}. */
  JPEG("jpeg", "image/jpeg");

  private final String wireName;
  private final String mediaType;

  ImageFormat(String wireName, String mediaType) {
    this.wireName = wireName;
    this.mediaType = mediaType;
  }

  /**
   * The name in settings and records.
   *
   * @return {@code png} or {@code jpeg}
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The media type, as a data URI and Anthropic's {@code media_type} write it.
   *
   * @return {@code image/png} or {@code image/jpeg}
   */
  public String mediaType() {
    return mediaType;
  }

  /**
   * The format of a name ({@code jpg} is taken for {@code jpeg}), any case.
   *
   * @param name the name, never null
   * @return the format
   * @throws IllegalArgumentException naming {@code llm.images.format}, the value and what is
   *     allowed
   */
  public static ImageFormat fromWireName(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    if (n.equals("jpg")) {
      return JPEG;
    }
    for (ImageFormat f : values()) {
      if (f.wireName.equals(n)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "llm.images.format: got \"" + name + "\", expected png or jpeg");
  }

  /**
   * The format of a media type.
   *
   * @param mediaType e.g. {@code image/png}, never null
   * @return the format, or null for another type
   */
  public static ImageFormat ofMediaType(String mediaType) {
    String t = mediaType.strip().toLowerCase(Locale.ROOT);
    if (t.equals("image/jpg")) {
      return JPEG;
    }
    for (ImageFormat f : values()) {
      if (f.mediaType.equals(t)) {
        return f;
      }
    }
    return null;
  }
}
