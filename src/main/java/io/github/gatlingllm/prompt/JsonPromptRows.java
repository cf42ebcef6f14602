package io.github.gatlingllm.prompt;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.prompt.PromptFile.Message;
import io.github.gatlingllm.prompt.PromptFile.Row;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of a JSONL or JSON prompts file ({@link PromptFile.Format#JSONL}, {@link
 * PromptFile.Format#JSON}): {@code prompt} (or the named field) or {@code messages} objects, and
 * ShareGPT conversations in a JSON array. Each bad row is a one-line {@link
 * IllegalArgumentException} naming the file, the line and what is expected. Stateless.
 */
final class JsonPromptRows {

  /** Refuses a field given twice (which value would be sent?). */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private static final String EXPECTED_ROW =
      "expected {\"prompt\": \"text\"} or {\"messages\": [{\"role\": \"user\", \"content\":"
          + " \"text\"}]}";

  static List<Row> jsonl(Path file, String text, String column) {
    List<Row> rows = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      JsonNode node;
      try (JsonParser parser = JSON.createParser(line)) {
        node = JSON.readTree(parser);
        if (more(parser)) {
          // a second object on the line would be a prompt lost without a word
          throw new IllegalArgumentException(
              PromptFile.where(file, i + 1)
                  + "more after the line's object, expected one JSON object a line");
        }
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            PromptFile.where(file, i + 1)
                + "not JSON ("
                + e.getOriginalMessage()
                + "), "
                + EXPECTED_ROW,
            e);
      } catch (IOException e) {
        throw new IllegalStateException("reading a String cannot fail", e);
      }
      rows.add(row(file, i + 1, node, column));
    }
    return rows;
  }

  static List<Row> json(Path file, String text, String column) {
    List<Row> rows = new ArrayList<>();
    try (JsonParser parser = JSON.getFactory().createParser(text)) {
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        throw new IllegalArgumentException(
            PromptFile.where(file, parser.currentTokenLocation().getLineNr())
                + "not a JSON array, expected [{\"prompt\": ...}, ...] or ShareGPT's"
                + " [{\"conversations\": [{\"from\": \"human\", \"value\": ...}]}, ...]");
      }
      JsonToken token;
      while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
        JsonLocation at = parser.currentTokenLocation();
        int line = at.getLineNr();
        if (token != JsonToken.START_OBJECT) {
          throw new IllegalArgumentException(
              PromptFile.where(file, line)
                  + "an array element that is not an object, "
                  + EXPECTED_ROW);
        }
        JsonNode node = JSON.readTree(parser);
        if (node.has("conversations")) {
          rows.add(shareGpt(file, line, node));
        } else {
          rows.add(row(file, line, node, column));
        }
      }
      if (more(parser)) {
        throw new IllegalArgumentException(
            PromptFile.where(file, parser.currentTokenLocation().getLineNr())
                + "more after the array, expected one JSON array");
      }
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 1 : e.getLocation().getLineNr();
      throw new IllegalArgumentException(
          PromptFile.where(file, line)
              + "not JSON ("
              + e.getOriginalMessage()
              + "), expected a JSON array",
          e);
    } catch (IOException e) {
      throw new IllegalArgumentException("prompts file " + file + ": cannot be read (" + e + ")");
    }
    return rows;
  }

  /** Whether anything but white space follows the value the parser has read. */
  private static boolean more(JsonParser parser) throws IOException {
    try {
      return parser.nextToken() != null;
    } catch (JsonProcessingException e) {
      return true;
    }
  }

  private static Row shareGpt(Path file, int line, JsonNode node) {
    JsonNode turns = node.get("conversations");
    if (!turns.isArray()) {
      throw new IllegalArgumentException(
          PromptFile.where(file, line)
              + "\"conversations\" is not an array, expected [{\"from\": \"human\", \"value\":"
              + " \"text\"}, ...]");
    }
    for (JsonNode turn : turns) {
      String from = turn.path("from").asText("");
      if ((from.equals("human") || from.equals("user")) && turn.path("value").isTextual()) {
        if (turn.get("value").asText().isBlank()) {
          throw new IllegalArgumentException(
              PromptFile.where(file, line) + "the human turn is empty, expected a prompt");
        }
        return new Row(line, turn.get("value").asText(), null, maxTokens(file, line, node));
      }
    }
    throw new IllegalArgumentException(
        PromptFile.where(file, line)
            + "no human turn in \"conversations\", expected one {\"from\": \"human\", \"value\":"
            + " \"text\"}");
  }

  /** One object row; {@code field} names its text prompt ({@code prompt}, or the column given). */
  private static Row row(Path file, int line, JsonNode node, String field) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          PromptFile.where(file, line) + "not a JSON object, " + expectedRow(field));
    }
    Integer maxTokens = maxTokens(file, line, node);
    JsonNode prompt = node.get(field);
    JsonNode given = node.get("messages");
    if (prompt != null && !prompt.isNull() && given != null && !given.isNull()) {
      throw new IllegalArgumentException(
          PromptFile.where(file, line)
              + "both \""
              + field
              + "\" and \"messages\", expected one of them (which would be sent?)");
    }
    if (prompt != null && !prompt.isNull()) {
      if (!prompt.isTextual()) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line) + "\"" + field + "\" is not text, " + expectedRow(field));
      }
      if (prompt.asText().isBlank()) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line) + "\"" + field + "\" is empty, expected a prompt");
      }
      return new Row(line, prompt.asText(), null, maxTokens, images(file, line, node));
    }
    JsonNode messages = node.get("messages");
    if (messages != null && !messages.isNull()) {
      if (node.hasNonNull("images")) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line)
                + "\"images\" with \"messages\", expected them with a \""
                + field
                + "\" row (its images are sent after its text)");
      }
      return messagesRow(file, line, messages, maxTokens);
    }
    throw new IllegalArgumentException(
        PromptFile.where(file, line)
            + "no \""
            + field
            + "\" (text) or \"messages\" (chat), "
            + expectedRow(field)
            + (field.equals(PromptFile.DEFAULT_COLUMN)
                ? ""
                : " (llm.promptsColumn names the text field)"));
  }

  /**
   * A row's {@code images}: an array of data URIs or paths of PNG or JPEG files relative to the
   * prompts file's folder; each path must name a readable file now (its bytes are read when its
   * prompt is built), each data URI must be one of an image.
   */
  private static List<String> images(Path file, int line, JsonNode node) {
    JsonNode images = node.get("images");
    if (images == null || images.isNull()) {
      return null;
    }
    String expected =
        ", expected \"images\": [\"picture.png\", \"data:image/jpeg;base64,...\", ...] (paths"
            + " relative to the prompts file, or data URIs)";
    if (!images.isArray()) {
      throw new IllegalArgumentException(
          PromptFile.where(file, line) + "\"images\" is not an array" + expected);
    }
    List<String> refs = new java.util.ArrayList<>(images.size());
    for (JsonNode image : images) {
      if (!image.isTextual() || image.asText().isBlank()) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line) + "an image is not a path or data URI" + expected);
      }
      String ref = image.asText();
      try {
        RowImages.check(file, ref);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line) + "image " + quote(ref) + ": " + e.getMessage(), e);
      }
      refs.add(ref);
    }
    return refs;
  }

  private static String quote(String ref) {
    return "\"" + (ref.length() > 48 ? ref.substring(0, 48) + "..." : ref) + "\"";
  }

  /** EXPECTED_ROW, with the text field the file is read with. */
  private static String expectedRow(String field) {
    return field.equals(PromptFile.DEFAULT_COLUMN)
        ? EXPECTED_ROW
        : EXPECTED_ROW.replace("{\"prompt\": \"text\"}", "{\"" + field + "\": \"text\"}");
  }

  private static Row messagesRow(Path file, int line, JsonNode messages, Integer maxTokens) {
    String expected =
        ", expected \"messages\": [{\"role\": \"user\", \"content\": \"text\"}, ...] (text"
            + " content)";
    if (!messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException(
          PromptFile.where(file, line) + "\"messages\" is not a non-empty array" + expected);
    }
    List<Message> list = new ArrayList<>();
    List<Map<String, String>> json = new ArrayList<>();
    int n = 0;
    for (JsonNode m : messages) {
      if (!m.isObject() || !m.path("role").isTextual() || !m.path("content").isTextual()) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line)
                + "message "
                + n
                + " has no text \"role\" and \"content\""
                + expected);
      }
      String role = m.get("role").asText();
      if (!PromptFile.ROLES.contains(role)) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line)
                + "message "
                + n
                + " has role \""
                + role
                + "\", expected one of "
                + String.join(", ", PromptFile.ROLES));
      }
      Message message = new Message(role, m.get("content").asText());
      list.add(message);
      Map<String, String> entry = new LinkedHashMap<>();
      entry.put("role", message.role());
      entry.put("content", message.content());
      json.add(entry);
      n++;
    }
    try {
      return new Row(line, JSON.writeValueAsString(json), list, maxTokens);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("messages cannot be written as JSON", e);
    }
  }

  private static Integer maxTokens(Path file, int line, JsonNode node) {
    for (String key : List.of("output_tokens", "max_tokens")) {
      JsonNode value = node.get(key);
      if (value == null || value.isNull()) {
        continue;
      }
      if (!value.canConvertToInt() || !value.isIntegralNumber() || value.asInt() < 1) {
        throw new IllegalArgumentException(
            PromptFile.where(file, line)
                + "\""
                + key
                + "\": got "
                + value
                + ", expected a whole number >= 1 (the request's max_tokens)");
      }
      return value.asInt();
    }
    return null;
  }

  private JsonPromptRows() {}
}
