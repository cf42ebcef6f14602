package io.github.gatlingllm.feeder;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.zip.GZIPInputStream;

/**
 * Not API. Reads a {@link Trace} file and checks it row by row, as {@link Trace#read} documents:
 * the file's bytes (plain or gzip, a byte order mark skipped) into its SHA-256 and its rows, each
 * row's fields checked in turn (the first bad one refused with the file, the line, the field, the
 * value and what is allowed), the sessions' rows linked; then the compact arrays a {@link Trace}
 * holds. What the trace is once read, and what the replay asks of it, is {@link Trace}'s.
 */
final class TraceReader {

  /** Refuses a field given twice in a row (which value would count?). */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private TraceReader() {}

  /**
   * Reads and checks a trace file (see {@link Trace#read}).
   *
   * @param path the file, plain or gzip JSONL, never null
   * @param blockTokens the tokens of one hash id's block, at least 1
   * @return the trace, never empty
   * @throws IllegalArgumentException on the first bad row, or when the file cannot be read or holds
   *     no row
   */
  static Trace read(Path path, int blockTokens) {
    Objects.requireNonNull(path, "path");
    if (blockTokens < 1) {
      throw new IllegalArgumentException(
          "llm.trace.blockTokens: got " + blockTokens + ", expected a whole number >= 1");
    }
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(
          "llm.trace: " + path + " is not a readable file (expected Mooncake-format JSONL)");
    }
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    Builder b = new Builder(path, blockTokens);
    try (InputStream raw = new DigestInputStream(Files.newInputStream(path), sha);
        BufferedInputStream buffered = new BufferedInputStream(raw, 1 << 16)) {
      buffered.mark(2);
      int b0 = buffered.read();
      int b1 = buffered.read();
      buffered.reset();
      InputStream in = b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(buffered, 1 << 16) : buffered;
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
          number++;
          if (number == 1 && line.startsWith("\uFEFF")) {
            line = line.substring(1); // a byte order mark, as Windows tools write
          }
          if (!line.isBlank()) {
            b.row(number, line);
          }
        }
        // what gzip left unread (its trailer, trailing bytes): into the digest too
        byte[] rest = new byte[8192];
        while (raw.read(rest) >= 0) {
          // digesting
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "llm.trace: cannot read " + path + ": " + e.getMessage(), e);
    }
    if (b.rows == 0) {
      throw new IllegalArgumentException(
          "llm.trace: "
              + path
              + " holds no row: expected one JSON object a line with timestamp, input_length,"
              + " output_length and hash_ids");
    }
    return b.build(HexFormat.of().formatHex(sha.digest()));
  }

  /** Rows as they are read, checked one by one. */
  private static final class Builder {
    private final Path path;
    private final int block;
    private long[] timestamps = new long[1024];
    private int[] inputs = new int[1024];
    private int[] outputs = new int[1024];
    private int[] idStarts = new int[1025];
    private long[] ids = new long[8192];
    private int[] lines = new int[1024];
    private int[] sessionOf = new int[1024];
    private long[] delays = new long[1024];
    private boolean[] stated = new boolean[1024];
    // A row's images, packed (Trace#images): null until a row has some.
    private long[] imageShapes;
    private final java.util.Map<String, Integer> sessionIndex = new java.util.HashMap<>();
    private final java.util.List<String> sessionNames = new java.util.ArrayList<>();
    private final java.util.List<Integer> lastRowOfSession = new java.util.ArrayList<>();
    private boolean anySession;
    private boolean anyDelay;
    private long lastAnchorTimestamp = -1;
    private int rows;
    private int idCount;
    private Boolean timed;
    private int firstLine;

    Builder(Path path, int block) {
      this.path = path;
      this.block = block;
    }

    private IllegalArgumentException bad(int line, String field, String got, String expected) {
      return new IllegalArgumentException(
          "llm.trace: "
              + path
              + " line "
              + line
              + ": "
              + field
              + ": got "
              + got
              + ", expected "
              + expected);
    }

    void row(int line, String text) {
      JsonNode node;
      String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
      try (JsonParser parser = JSON.createParser(text)) {
        node = JSON.readTree(parser);
        boolean more;
        try {
          more = parser.nextToken() != null;
        } catch (JsonProcessingException e) {
          more = true;
        }
        if (more) {
          // a second object on the line would be a row lost without a word
          throw bad(
              line,
              "row",
              "\"" + shown + "\" (not JSON: more after the row's object)",
              "one JSON object a line");
        }
      } catch (JsonProcessingException e) {
        throw bad(
            line,
            "row",
            "\"" + shown + "\" (not JSON: " + e.getOriginalMessage() + ")",
            "one JSON object a line");
      } catch (IOException e) {
        throw new IllegalStateException("reading a String cannot fail", e);
      }
      if (node == null || !node.isObject()) {
        throw bad(line, "row", text.strip(), "one JSON object a line");
      }
      JsonNode sid = node.get("session_id");
      String sessionName = null;
      if (sid != null && !sid.isNull()) {
        if (sid.isTextual() && !sid.textValue().isEmpty()) {
          sessionName = sid.textValue();
        } else if (sid.isIntegralNumber()) {
          sessionName = sid.asText();
        } else {
          throw bad(line, "session_id", sid.toString(), "a non-empty string or a whole number");
        }
      }
      int session = -1;
      int previous = -1;
      if (sessionName != null) {
        anySession = true;
        Integer known = sessionIndex.get(sessionName);
        if (known == null) {
          session = sessionNames.size();
          sessionIndex.put(sessionName, session);
          sessionNames.add(sessionName);
          lastRowOfSession.add(rows);
        } else {
          session = known;
          previous = lastRowOfSession.get(session);
          lastRowOfSession.set(session, rows);
        }
      }
      long delay = -1;
      JsonNode d = node.get("delay");
      if (sessionName != null && d != null && !d.isNull()) {
        delay =
            whole(
                line,
                "delay",
                d,
                0,
                Trace.MAX_TIMESTAMP_MS,
                "milliseconds from 0 to " + Trace.MAX_TIMESTAMP_MS);
        if (previous < 0) {
          throw bad(
              line,
              "delay",
              d.toString(),
              "none on session "
                  + sessionName
                  + "'s first row (a delay counts from the session's previous row; the first"
                  + " row starts at its timestamp)");
        }
        anyDelay = true;
      }
      JsonNode ts = node.get("timestamp");
      boolean hasTs = ts != null && !ts.isNull();
      if (previous >= 0) {
        // A session's later row: sent after its previous row ended, plus its delay.
        long timestamp = -1;
        if (hasTs && Boolean.TRUE.equals(timed)) {
          timestamp = timestamp(line, ts);
        } else if (hasTs) {
          throw bad(
              line,
              "timestamp",
              ts.toString(),
              "none, as the row of line " + firstLine + " has none (every row has one, or none)");
        } else if (Boolean.TRUE.equals(timed)) {
          timestamp = Math.min(Trace.MAX_TIMESTAMP_MS, timestamps[previous] + Math.max(0, delay));
        }
        finishRow(line, node, timestamp, hasTs, session, delay);
        return;
      }
      if (timed == null) {
        timed = hasTs;
        firstLine = line;
      } else if (timed != hasTs) {
        throw bad(
            line,
            "timestamp",
            hasTs ? ts.toString() : "none",
            (timed ? "a timestamp, as every row from line " : "none, as the row of line ")
                + firstLine
                + (timed ? " has" : " has none")
                + " (every row has one, or none)");
      }
      long timestamp = -1;
      if (hasTs) {
        timestamp = timestamp(line, ts);
        if (lastAnchorTimestamp >= 0 && timestamp < lastAnchorTimestamp) {
          throw bad(
              line,
              "timestamp",
              Long.toString(timestamp),
              "at least the row before's "
                  + lastAnchorTimestamp
                  + " (rows in the order they are sent)");
        }
        lastAnchorTimestamp = timestamp;
      }
      finishRow(line, node, timestamp, hasTs, session, delay);
    }

    private void finishRow(
        int line, JsonNode node, long timestamp, boolean hasTs, int session, long delay) {
      int input =
          (int)
              whole(
                  line,
                  "input_length",
                  node.get("input_length"),
                  1,
                  Trace.MAX_INPUT_TOKENS,
                  "tokens from 1 to " + Trace.MAX_INPUT_TOKENS);
      int output =
          (int)
              whole(
                  line,
                  "output_length",
                  node.get("output_length"),
                  1,
                  Trace.MAX_OUTPUT_TOKENS,
                  "tokens from 1 to " + Trace.MAX_OUTPUT_TOKENS);
      JsonNode hash = node.get("hash_ids");
      int blocks = (int) ((input + (long) block - 1) / block);
      if (hash == null || !hash.isArray()) {
        throw bad(
            line,
            "hash_ids",
            hash == null ? "none" : hash.toString(),
            "an array of " + blocks + " whole numbers (ceil(input_length / " + block + "))");
      }
      if (hash.size() != blocks) {
        throw bad(
            line,
            "hash_ids",
            hash.size() + " ids",
            blocks
                + " for input_length "
                + input
                + " at "
                + block
                + " tokens a block (ceil(input_length / block tokens); is llm.trace.blockTokens"
                + " the trace's?)");
      }
      grow(blocks);
      for (JsonNode id : hash) {
        ids[idCount++] = whole(line, "hash_ids", id, 0, Long.MAX_VALUE, "whole numbers >= 0");
      }
      long shape = imageShape(line, node);
      if (shape != 0 && imageShapes == null) {
        imageShapes = new long[inputs.length];
      }
      if (imageShapes != null) {
        if (imageShapes.length < inputs.length) {
          imageShapes = Arrays.copyOf(imageShapes, inputs.length);
        }
        imageShapes[rows] = shape;
      }
      timestamps[rows] = timestamp;
      sessionOf[rows] = session;
      delays[rows] = delay;
      stated[rows] = hasTs;
      inputs[rows] = input;
      outputs[rows] = output;
      lines[rows] = line;
      rows++;
      idStarts[rows] = idCount;
    }

    /**
     * A row's images ({@code images}, 0 to {@value Trace#MAX_IMAGES}; {@code image_width} and
     * {@code image_height}, pixels from 1 to 8192, default 512), packed as {@link Trace#images}
     * reads them; 0 for none.
     */
    private long imageShape(int line, JsonNode node) {
      JsonNode count = node.get("images");
      if (count == null || count.isNull()) {
        return 0;
      }
      int images =
          (int) whole(line, "images", count, 0, Trace.MAX_IMAGES, "0 to " + Trace.MAX_IMAGES);
      if (images == 0) {
        return 0;
      }
      int width = side(line, node, "image_width");
      int height = side(line, node, "image_height");
      return Trace.imageShape(images, width, height);
    }

    private int side(int line, JsonNode node, String field) {
      JsonNode v = node.get(field);
      if (v == null || v.isNull()) {
        return Trace.DEFAULT_IMAGE_SIDE;
      }
      return (int) whole(line, field, v, 1, Trace.MAX_IMAGE_SIDE, "pixels from 1 to 8192");
    }

    /** A row's {@code timestamp}: whole milliseconds from 0 to {@link Trace#MAX_TIMESTAMP_MS}. */
    private long timestamp(int line, JsonNode ts) {
      return whole(
          line,
          "timestamp",
          ts,
          0,
          Trace.MAX_TIMESTAMP_MS,
          "milliseconds from 0 to " + Trace.MAX_TIMESTAMP_MS);
    }

    private long whole(int line, String field, JsonNode v, long min, long max, String expected) {
      if (v == null || v.isNull()) {
        throw bad(line, field, "none", expected);
      }
      if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
        throw bad(line, field, v.toString(), expected);
      }
      if (!v.canConvertToLong() && v.isIntegralNumber()) {
        throw bad(line, field, v.toString(), expected);
      }
      if (!v.isIntegralNumber() && (v.asDouble() < min || v.asDouble() > max)) {
        // beyond a long, the cast below would clamp: two ids would become one
        throw bad(line, field, v.toString(), expected);
      }
      long value = v.isIntegralNumber() ? v.asLong() : (long) v.asDouble();
      if (value < min || value > max) {
        throw bad(line, field, v.toString(), expected);
      }
      return value;
    }

    private void grow(int blocks) {
      if (rows + 1 >= inputs.length) {
        int n = inputs.length * 2;
        timestamps = Arrays.copyOf(timestamps, n);
        inputs = Arrays.copyOf(inputs, n);
        outputs = Arrays.copyOf(outputs, n);
        lines = Arrays.copyOf(lines, n);
        sessionOf = Arrays.copyOf(sessionOf, n);
        delays = Arrays.copyOf(delays, n);
        stated = Arrays.copyOf(stated, n);
        idStarts = Arrays.copyOf(idStarts, n + 1);
      }
      while (idCount + blocks > ids.length) {
        ids = Arrays.copyOf(ids, ids.length * 2);
      }
    }

    Trace build(String sha256) {
      Trace trace = build0(sha256);
      if (imageShapes != null) {
        trace.imageShapes = Arrays.copyOf(imageShapes, rows);
      }
      return trace;
    }

    private Trace build0(String sha256) {
      return new Trace(
          path,
          block,
          sha256,
          Boolean.TRUE.equals(timed) ? Arrays.copyOf(timestamps, rows) : null,
          Arrays.copyOf(inputs, rows),
          Arrays.copyOf(outputs, rows),
          Arrays.copyOf(idStarts, rows + 1),
          Arrays.copyOf(ids, idCount),
          Arrays.copyOf(lines, rows),
          anySession ? Arrays.copyOf(sessionOf, rows) : null,
          anySession ? sessionNames.toArray(new String[0]) : null,
          anyDelay ? Arrays.copyOf(delays, rows) : null,
          anySession && Boolean.TRUE.equals(timed) ? Arrays.copyOf(stated, rows) : null);
    }
  }
}
