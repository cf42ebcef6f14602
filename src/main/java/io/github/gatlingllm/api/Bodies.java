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
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(prompt, "prompt");
    return RequestBodies.build(
        g -> {
          g.writeStartObject();
          g.writeStringField("model", settings.model());
          promptFields.write(g);
          writeTail(g, settings, limitField);
        });
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
