package io.github.gatlingllm.api;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A one-line description of an HTTP error answer's body, for the run record. Stateless and
 * thread-safe.
 *
 * <p>A JSON body in one of the shapes {@link ApiError} reads gives {@link ApiError#describe()}
 * (e.g. {@code invalid_request_error (400): max_tokens is too large}); an HTML page gives its
 * {@code <title>}, or without one its text; any other body (plain text, JSON without an error)
 * gives its text; markup, scripts and styles are removed and white space collapsed, cut to {@link
 * #MAX_EXCERPT_CHARS} chars with {@code ...}.
 */
public final class ErrorBody {

  /** The longest excerpt of a non-JSON body, in chars. */
  public static final int MAX_EXCERPT_CHARS = 160;

  private static final Pattern SCRIPT_OR_STYLE =
      Pattern.compile("(?is)<(script|style)\\b.*?</\\1\\s*>");
  private static final Pattern TITLE = Pattern.compile("(?is)<title[^>]*>(.*?)</title\\s*>");
  private static final Pattern TAG = Pattern.compile("(?s)<[^>]*>");
  private static final Pattern SPACE = Pattern.compile("\\s+");

  private ErrorBody() {}

  /**
   * Describes a response body.
   *
   * @param body the body, or null
   * @param contentType the {@code Content-Type} header value, or null; only decides whether HTML
   *     markup is removed (also done for bodies that start with {@code <})
   * @return the description, or null for a null or blank body
   */
  public static String describe(String body, String contentType) {
    if (body == null || body.isBlank()) {
      return null;
    }
    StreamEvent parsed = StreamEvent.parseResponse(body);
    if (parsed.kind() == StreamEvent.Kind.ERROR && !parsed.error().message().isEmpty()) {
      return parsed.error().describe();
    }
    String text = body;
    boolean html =
        contentType != null && contentType.toLowerCase(Locale.ROOT).contains("html")
            || text.stripLeading().startsWith("<");
    if (html) {
      Matcher title = TITLE.matcher(text);
      if (title.find() && !title.group(1).isBlank()) {
        // Proxies' error pages (nginx, HAProxy, cloud load balancers) say it all in the title.
        text = title.group(1);
      }
      text = SCRIPT_OR_STYLE.matcher(text).replaceAll(" ");
      text = TAG.matcher(text).replaceAll(" ");
      text = text.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">");
      text = text.replace("&quot;", "\"").replace("&amp;", "&");
    }
    text = SPACE.matcher(text).replaceAll(" ").strip();
    if (text.isEmpty()) {
      return null;
    }
    return text.length() <= MAX_EXCERPT_CHARS
        ? text
        : text.substring(0, MAX_EXCERPT_CHARS - 3) + "...";
  }
}
