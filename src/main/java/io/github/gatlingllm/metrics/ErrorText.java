package io.github.gatlingllm.metrics;

import java.util.regex.Pattern;

/**
 * Makes error texts safe and short enough for the run record. Stateless and thread-safe.
 *
 * <p>Run records get shared; an error text built from an exception or a server message can carry
 * the request's credentials. {@link #scrub(String)} masks the usual forms; callers should still
 * avoid putting headers or URLs with secrets into error texts in the first place.
 */
public final class ErrorText {

  /** The longest error text {@link #forRecord(String)} keeps, in chars. */
  public static final int MAX_CHARS = 300;

  private static final String MASK = "***";

  private static final Pattern AUTH_SCHEME =
      Pattern.compile("(?i)\\b(Bearer|Basic)(\\s+)[A-Za-z0-9._~+/=:-]+");
  private static final Pattern URL_CREDENTIALS =
      Pattern.compile("\\b([A-Za-z][A-Za-z0-9+.-]*://)[^/\\s@?#]+@");
  private static final Pattern SECRET_PARAM =
      Pattern.compile(
          "(?i)\\b(api[_-]?key|access[_-]?token|token|key|password|secret)=[^&\\s\"']+");
  private static final Pattern SECRET_HEADER =
      Pattern.compile("(?i)\\b(x-api-key|api-key|authorization)(\\s*[:=]\\s*)(?!Bearer|Basic)\\S+");
  private static final Pattern OPENAI_KEY = Pattern.compile("\\bsk-[A-Za-z0-9_-]{8,}");

  private ErrorText() {}

  /**
   * Masks credentials in a text: {@code Bearer xyz} and {@code Basic xyz} become {@code Bearer ***}
   * and {@code Basic ***}; {@code scheme://user:pass@host} and {@code scheme://user@host} become
   * {@code scheme://***@host}; {@code api_key=}, {@code access_token=}, {@code token=}, {@code
   * key=}, {@code password=} and {@code secret=} values become {@code ***}; {@code x-api-key:},
   * {@code api-key:} and {@code authorization:} header values become {@code ***}; OpenAI-style
   * {@code sk-...} keys become {@code sk-***}.
   *
   * @param text the text, or null
   * @return the masked text, or null for null
   */
  public static String scrub(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String s = AUTH_SCHEME.matcher(text).replaceAll("$1$2" + MASK);
    s = URL_CREDENTIALS.matcher(s).replaceAll("$1" + MASK + "@");
    s = SECRET_PARAM.matcher(s).replaceAll("$1=" + MASK);
    s = SECRET_HEADER.matcher(s).replaceAll("$1$2" + MASK);
    return OPENAI_KEY.matcher(s).replaceAll("sk-" + MASK);
  }

  /**
   * Shortens a text to one line of at most {@code maxChars} chars: line breaks and tabs become
   * spaces, runs of spaces one space, and a cut text ends with {@code ...}.
   *
   * @param text the text, or null
   * @param maxChars the longest result, at least 4
   * @return the shortened text, or null for null
   * @throws IllegalArgumentException if {@code maxChars} is below 4
   */
  public static String shorten(String text, int maxChars) {
    if (maxChars < 4) {
      throw new IllegalArgumentException("maxChars must be >= 4, got " + maxChars);
    }
    if (text == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder(Math.min(text.length(), maxChars + 3));
    boolean space = false;
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        space = sb.length() > 0;
        continue;
      }
      if (space) {
        sb.append(' ');
        space = false;
      }
      sb.append(c);
      if (sb.length() > maxChars) {
        break;
      }
    }
    if (sb.length() > maxChars) {
      sb.setLength(maxChars - 3);
      sb.append("...");
    }
    return sb.toString();
  }

  /**
   * The form of an error text for the run record: {@link #scrub(String)}, then {@link
   * #shorten(String, int)} to {@link #MAX_CHARS}.
   *
   * @param text the text, or null
   * @return the text for the record, or null for null
   */
  public static String forRecord(String text) {
    return shorten(scrub(text), MAX_CHARS);
  }
}
