package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/** What the dialects' bodies share. */
final class Bodies {

  private Bodies() {}

  /**
   * The body of one prompt on the Responses or Messages API: {@code model}, the prompt as {@code
   * promptFields} writes it, then {@link #writeTail}.
   *
   * @param limitField {@code max_output_tokens} or {@code max_tokens}
   * @throws NullPointerException if {@code settings} or {@code prompt} is null
   */
  static String promptBody(
      RequestSettings settings,
      String prompt,
      String limitField,
      RequestBodies.BodyWriter promptFields) {
    return RequestBodies.build(promptWriter(settings, prompt, limitField, promptFields));
  }

  /**
   * {@link #promptBody}'s UTF-8 bytes, copied around the prompt's JSON string when it was prepared
   * ahead ({@link RequestBodies#bytes}).
   *
   * @param promptJson the prompt's JSON string in UTF-8, which {@code promptFields} places with
   *     {@link #writePromptField}, or null
   * @throws NullPointerException if {@code settings} or {@code prompt} is null
   */
  static byte[] promptBodyBytes(
      RequestSettings settings,
      String prompt,
      String limitField,
      RequestBodies.BodyWriter promptFields,
      byte[] promptJson) {
    return RequestBodies.bytes(
        promptWriter(settings, prompt, limitField, promptFields), promptJson);
  }

  private static RequestBodies.BodyWriter promptWriter(
      RequestSettings settings,
      String prompt,
      String limitField,
      RequestBodies.BodyWriter promptFields) {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(prompt, "prompt");
    return g -> {
      g.writeStartObject();
      g.writeStringField("model", settings.model());
      promptFields.write(g);
      writeTail(g, settings, limitField);
    };
  }

  /**
   * Writes a prompt's field: the text escaped by the generator, or, when its JSON string was
   * prepared ahead, the field's name and a mark where {@link RequestBodies#bytes} copies that
   * string's bytes in. Both give the same bytes ({@code Prompt.jsonBytes} is Jackson's own escaping
   * encoded as the body is); the prepared one only copies them.
   *
   * @param g the generator of {@link RequestBodies#build} or {@link RequestBodies#bytes}, inside an
   *     object
   * @param field the field's name
   * @param prompt the prompt text, never null
   * @param promptJson {@code prompt}'s JSON string in UTF-8, quotes included, or null
   * @throws IOException if the generator fails
   */
  static void writePromptField(JsonGenerator g, String field, String prompt, byte[] promptJson)
      throws IOException {
    g.writeFieldName(field);
    if (promptJson == null) {
      g.writeString(prompt);
    } else {
      // An empty raw value: the separator is written and the generator counts a value.
      g.writeRawValue("");
      g.flush();
      RequestBodies.markPrompt(g);
    }
  }

  /**
   * The end of a Responses or Messages body: {@code stream}, the output limit under the API's name,
   * the optional fields ({@link #writeOptional}), and the object's end.
   *
   * @param limitField {@code max_output_tokens} or {@code max_tokens}
   */
  static void writeTail(JsonGenerator g, RequestSettings s, String limitField) throws IOException {
    g.writeBooleanField("stream", s.stream());
    g.writeNumberField(limitField, s.maxTokens());
    writeOptional(g, s);
    g.writeEndObject();
  }

  /** {@code ignore_eos} and {@code temperature} when set, then the extra fields. */
  static void writeOptional(JsonGenerator g, RequestSettings s) throws IOException {
    if (s.ignoreEos() != null) {
      g.writeBooleanField("ignore_eos", s.ignoreEos());
    }
    if (s.temperature() != null) {
      g.writeNumberField("temperature", s.temperature());
    }
    RequestBodies.writeExtraBody(g, s);
  }

  /** Checks a history: not null, not empty, no null turn. */
  static void requireTurns(List<Turn> turns) {
    Objects.requireNonNull(turns, "history");
    if (turns.isEmpty()) {
      throw new IllegalArgumentException("history must hold at least one turn, got none");
    }
    for (Turn t : turns) {
      Objects.requireNonNull(t, "a turn of the history");
    }
  }

  /**
   * Checks that no extra field is one the dialect writes itself.
   *
   * @throws IllegalArgumentException naming the key, the API and the reserved keys
   */
  static void checkExtra(WireApi api, RequestSettings s, List<String> reserved) {
    for (String key : s.extraBody().keySet()) {
      if (reserved.contains(key)) {
        throw new IllegalArgumentException(
            "extraBody must not set \""
                + key
                + "\": the "
                + api.settingName()
                + " body sets it; reserved keys there: "
                + String.join(", ", reserved));
      }
    }
  }
}
