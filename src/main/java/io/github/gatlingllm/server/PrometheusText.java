package io.github.gatlingllm.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A parser of Prometheus' text exposition format (version 0.0.4, as vLLM, SGLang, llama.cpp and the
 * embedded simulator serve on {@code /metrics}), after the format's reference: lines end in {@code
 * \n} (a {@code \r} before it is dropped); blank lines and comments ({@code #} as the first
 * non-blank character) are skipped, except {@code # HELP name text} (text escapes {@code \\} and
 * {@code \n}) and {@code # TYPE name type}; a sample is {@code name[{labels}] value [timestamp]},
 * blanks and tabs between tokens, label values in double quotes with the escapes {@code \\}, {@code
 * \"} and {@code \n}, a trailing comma allowed after the last label. A value is a Go float: decimal
 * or exponent notation, {@code NaN}, {@code +Inf}, {@code -Inf} (any case; {@code Inf} and {@code
 * Infinity} too). A timestamp is whole milliseconds since the epoch.
 *
 * <p>Also read: UTF-8 names in quotes ({@code {"name.with.dots", "label.x"="v"}}, text format of
 * Prometheus 3), an OpenMetrics exemplar after the value ({@code # {trace_id="a"} 1}, dropped) and
 * a timestamp with a fraction (OpenMetrics seconds, turned into milliseconds).
 *
 * <p>Never throws on input: a line that does not parse is left out and named in {@link
 * Exposition#errors()} with its line number. Stateless and thread-safe.
 */
public final class PrometheusText {

  private PrometheusText() {}

  /**
   * One sample: one line of the exposition.
   *
   * @param name the metric name as written, e.g. {@code vllm:prefix_cache_hits_total}
   * @param labels label name to value, in the order written; unmodifiable, never null
   * @param value the value; may be NaN or infinite
   * @param timestampMs the sample's timestamp in epoch milliseconds, or null when none was given
   */
  public record Sample(String name, Map<String, String> labels, double value, Long timestampMs) {

    /**
     * Copies the labels.
     *
     * @throws NullPointerException if {@code name} or {@code labels} is null
     */
    public Sample {
      Objects.requireNonNull(name, "name");
      labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }
  }

  /**
   * What one exposition holds.
   *
   * @param samples the samples, in the order written; unmodifiable
   * @param types metric family name to its {@code # TYPE} ({@code counter}, {@code gauge}, ...);
   *     unmodifiable
   * @param help metric family name to its {@code # HELP} text, unescaped; unmodifiable
   * @param errors one line per line that did not parse: {@code line N: why}; unmodifiable
   */
  public record Exposition(
      List<Sample> samples,
      Map<String, String> types,
      Map<String, String> help,
      List<String> errors) {

    /** Copies every collection. */
    public Exposition {
      samples = List.copyOf(samples);
      types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
      help = Collections.unmodifiableMap(new LinkedHashMap<>(help));
      errors = List.copyOf(errors);
    }

    /**
     * The distinct sample names, in the order first written.
     *
     * @return the names; unmodifiable
     */
    public Set<String> names() {
      Set<String> names = new LinkedHashSet<>();
      for (Sample s : samples) {
        names.add(s.name());
      }
      return Collections.unmodifiableSet(names);
    }

    /**
     * The samples of one name, whatever their labels.
     *
     * @param name a sample name
     * @return the samples, in the order written; empty when there are none
     */
    public List<Sample> samples(String name) {
      List<Sample> out = new ArrayList<>();
      for (Sample s : samples) {
        if (s.name().equals(name)) {
          out.add(s);
        }
      }
      return out;
    }

    /**
     * The sum of the samples of one name over all their label sets (e.g. the engines of a
     * data-parallel vLLM).
     *
     * @param name a sample name
     * @return the sum, or null when there is no such sample
     */
    public Double sum(String name) {
      double sum = 0;
      boolean any = false;
      for (Sample s : samples) {
        if (s.name().equals(name)) {
          sum += s.value();
          any = true;
        }
      }
      return any ? sum : null;
    }

    /**
     * The mean of the samples of one name over all their label sets.
     *
     * @param name a sample name
     * @return the mean, or null when there is no such sample
     */
    public Double mean(String name) {
      double sum = 0;
      int n = 0;
      for (Sample s : samples) {
        if (s.name().equals(name)) {
          sum += s.value();
          n++;
        }
      }
      return n == 0 ? null : sum / n;
    }
  }

  /**
   * Parses an exposition.
   *
   * @param text the body of a {@code /metrics} answer, never null
   * @return the samples, types, help texts and the lines that did not parse
   */
  public static Exposition parse(String text) {
    List<Sample> samples = new ArrayList<>();
    Map<String, String> types = new LinkedHashMap<>();
    Map<String, String> help = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    int lineNumber = 0;
    int start = 0;
    int length = text.length();
    while (start < length) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = length;
      }
      lineNumber++;
      String line = text.substring(start, end);
      start = end + 1;
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      try {
        parseLine(line, samples, types, help);
      } catch (IllegalArgumentException e) {
        errors.add("line " + lineNumber + ": " + e.getMessage());
      }
    }
    return new Exposition(samples, types, help, errors);
  }

  private static void parseLine(
      String line, List<Sample> samples, Map<String, String> types, Map<String, String> help) {
    Cursor c = new Cursor(line);
    c.blanks();
    if (c.atEnd()) {
      return;
    }
    if (c.peek() == '#') {
      comment(c, types, help);
      return;
    }
    samples.add(sample(c));
  }

  /** {@code # HELP name text}, {@code # TYPE name type}; any other comment is skipped. */
  private static void comment(Cursor c, Map<String, String> types, Map<String, String> help) {
    c.next();
    c.blanks();
    int keywordStart = c.pos;
    while (!c.atEnd() && !isBlank(c.peek())) {
      c.next();
    }
    String keyword = c.text.substring(keywordStart, c.pos);
    if (!keyword.equals("HELP") && !keyword.equals("TYPE")) {
      return;
    }
    if (!c.atEnd()) {
      c.blanks();
    }
    if (c.atEnd()) {
      // "# HELP" alone is a plain comment.
      return;
    }
    String name = c.peek() == '"' ? c.quoted() : c.name(true);
    if (keyword.equals("TYPE")) {
      c.blanks();
      int typeStart = c.pos;
      while (!c.atEnd() && !isBlank(c.peek())) {
        c.next();
      }
      String type = c.text.substring(typeStart, c.pos);
      c.blanks();
      if (type.isEmpty() || !c.atEnd()) {
        throw new IllegalArgumentException(
            "# TYPE " + name + ": expected one of counter, gauge, histogram, summary, untyped");
      }
      types.put(name, type.toLowerCase(Locale.ROOT));
    } else {
      // The text starts after the one blank that follows the name.
      if (!c.atEnd()) {
        c.next();
      }
      help.put(name, unescapeHelp(c.text.substring(c.pos)));
    }
  }

  private static Sample sample(Cursor c) {
    String name = c.peek() == '{' ? null : c.name(true);
    Map<String, String> labels = new LinkedHashMap<>();
    int before = c.pos;
    c.blanks();
    boolean blank = c.pos > before;
    if (!c.atEnd() && c.peek() == '{') {
      c.next();
      name = labels(c, labels, name);
      before = c.pos;
      c.blanks();
      blank = c.pos > before;
    }
    if (name == null) {
      throw new IllegalArgumentException("a sample without a metric name");
    }
    if (c.atEnd()) {
      throw new IllegalArgumentException(name + ": no value");
    }
    if (!blank) {
      throw new IllegalArgumentException(
          name + ": unexpected '" + c.peek() + "' at column " + (c.pos + 1));
    }
    double value = value(c.token(), name);
    Long timestamp = null;
    c.blanks();
    if (!c.atEnd() && c.peek() != '#') {
      timestamp = timestamp(c.token(), name);
      c.blanks();
    }
    // Anything left must be an OpenMetrics exemplar ("# {...} value"): dropped.
    if (!c.atEnd() && c.peek() != '#') {
      throw new IllegalArgumentException(
          name + ": unexpected text after the value and timestamp: " + c.text.substring(c.pos));
    }
    return new Sample(name, labels, value, timestamp);
  }

  /**
   * The labels after {@code {}, up to and including {@code }}. A quoted string not followed by
   * {@code =} is the metric's name (Prometheus 3's UTF-8 names).
   *
   * @return the metric name: the one given, or the quoted one inside the braces
   */
  private static String labels(Cursor c, Map<String, String> labels, String name) {
    while (true) {
      c.blanks();
      if (c.atEnd()) {
        throw new IllegalArgumentException("labels not closed with }");
      }
      if (c.peek() == '}') {
        c.next();
        return name;
      }
      String label;
      if (c.peek() == '"') {
        label = c.quoted();
        c.blanks();
        if (c.atEnd() || c.peek() != '=') {
          if (name != null) {
            throw new IllegalArgumentException(
                name + ": a quoted metric name \"" + label + "\" after the name " + name);
          }
          name = label;
          separator(c, name);
          continue;
        }
      } else {
        label = c.name(false);
      }
      c.blanks();
      if (c.atEnd() || c.peek() != '=') {
        throw new IllegalArgumentException(
            (name == null ? "" : name + ": ") + "label " + label + ": expected =");
      }
      c.next();
      c.blanks();
      if (c.atEnd() || c.peek() != '"') {
        throw new IllegalArgumentException(
            (name == null ? "" : name + ": ") + "label " + label + ": expected a quoted value");
      }
      String value = c.quoted();
      if (labels.put(label, value) != null) {
        throw new IllegalArgumentException(
            (name == null ? "" : name + ": ") + "label " + label + " given twice");
      }
      separator(c, name);
    }
  }

  /** After a label: {@code ,} (then maybe {@code }}) or {@code }}. */
  private static void separator(Cursor c, String name) {
    c.blanks();
    if (c.atEnd()) {
      throw new IllegalArgumentException("labels not closed with }");
    }
    if (c.peek() == ',') {
      c.next();
    } else if (c.peek() != '}') {
      throw new IllegalArgumentException(
          (name == null ? "" : name + ": ") + "expected , or } between labels");
    }
  }

  private static double value(String token, String name) {
    switch (token.toLowerCase(Locale.ROOT)) {
      case "nan", "+nan", "-nan":
        return Double.NaN;
      case "inf", "+inf", "infinity", "+infinity":
        return Double.POSITIVE_INFINITY;
      case "-inf", "-infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        break;
    }
    // Java reads "1f", "1d" and "0x1p3" too; Prometheus' writers never write them.
    if (token.isEmpty() || !isNumberText(token)) {
      throw new IllegalArgumentException(name + ": value \"" + token + "\" is not a number");
    }
    try {
      return Double.parseDouble(token);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": value \"" + token + "\" is not a number");
    }
  }

  private static Long timestamp(String token, String name) {
    try {
      return Long.parseLong(token);
    } catch (NumberFormatException e) {
      // OpenMetrics: seconds with a fraction.
      if (isNumberText(token)) {
        try {
          double seconds = Double.parseDouble(token);
          if (Double.isFinite(seconds)) {
            return Math.round(seconds * 1000);
          }
        } catch (NumberFormatException ignored) {
          // Reported below.
        }
      }
      throw new IllegalArgumentException(name + ": timestamp \"" + token + "\" is not a number");
    }
  }

  private static boolean isNumberText(String token) {
    for (int i = 0; i < token.length(); i++) {
      char ch = token.charAt(i);
      boolean ok =
          ch >= '0' && ch <= '9' || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static String unescapeHelp(String text) {
    if (text.indexOf('\\') < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == '\\' && i + 1 < text.length()) {
        char escaped = text.charAt(i + 1);
        if (escaped == 'n') {
          out.append('\n');
          i++;
          continue;
        }
        if (escaped == '\\') {
          out.append('\\');
          i++;
          continue;
        }
      }
      out.append(ch);
    }
    return out.toString();
  }

  private static boolean isBlank(char ch) {
    return ch == ' ' || ch == '\t';
  }

  /** A position in one line. */
  private static final class Cursor {
    final String text;
    int pos;

    Cursor(String text) {
      this.text = text;
    }

    boolean atEnd() {
      return pos >= text.length();
    }

    char peek() {
      return text.charAt(pos);
    }

    void next() {
      pos++;
    }

    void blanks() {
      while (!atEnd() && isBlank(peek())) {
        pos++;
      }
    }

    /** Up to the next blank or the end. */
    String token() {
      int start = pos;
      while (!atEnd() && !isBlank(peek())) {
        pos++;
      }
      return text.substring(start, pos);
    }

    /**
     * A metric name ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}) or a label name (the same without colons).
     */
    String name(boolean metric) {
      int start = pos;
      while (!atEnd()) {
        char ch = peek();
        boolean letter = ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch == '_';
        boolean ok = letter || (metric && ch == ':') || (pos > start && ch >= '0' && ch <= '9');
        if (!ok) {
          break;
        }
        pos++;
      }
      if (pos == start) {
        throw new IllegalArgumentException(
            "expected a "
                + (metric ? "metric" : "label")
                + " name at column "
                + (start + 1)
                + ", found "
                + (atEnd() ? "the end of the line" : "'" + peek() + "'"));
      }
      return text.substring(start, pos);
    }

    /** A double-quoted string with the escapes {@code \\}, {@code \"} and {@code \n}. */
    String quoted() {
      int open = pos;
      pos++;
      StringBuilder out = new StringBuilder();
      while (!atEnd()) {
        char ch = peek();
        pos++;
        if (ch == '"') {
          return out.toString();
        }
        if (ch == '\\' && !atEnd()) {
          char escaped = peek();
          pos++;
          switch (escaped) {
            case 'n' -> out.append('\n');
            case '\\' -> out.append('\\');
            case '"' -> out.append('"');
            default -> out.append('\\').append(escaped);
          }
          continue;
        }
        out.append(ch);
      }
      throw new IllegalArgumentException(
          "a quoted string opened at column " + (open + 1) + " is not closed");
    }
  }
}
