package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The message, type and code of an error an event reports, as its reader reads them field by field
 * (the last of a repeated key wins; a number is written out, JSON null reads as null). One per
 * reader, cleared for each event; not thread-safe.
 */
final class ErrorFields {

  /** The error's {@code message}, or null. */
  String message;

  /** The error's {@code type}, or null. */
  String type;

  /** The error's {@code code}, or null. */
  String code;

  /** Forgets the last event's error. */
  void clear() {
    message = null;
    type = null;
    code = null;
  }

  /**
   * Reads an {@code error} value as the Responses and Messages APIs send it: an object's {@code
   * message}, {@code type} and {@code code}; a string, the message; anything else is skipped.
   *
   * @param p the parser, on the value
   * @param t the value's token
   */
  void read(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.START_OBJECT) {
      readObject(p);
    } else if (t == JsonToken.VALUE_STRING) {
      message = p.getText();
    } else {
      p.skipChildren();
    }
  }

  /**
   * Reads an error object's {@code message}, {@code type} and {@code code}, other keys skipped.
   *
   * @param p the parser, on the object's start; left on its end
   */
  void readObject(JsonParser p) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken t = p.nextToken();
      switch (name) {
        case "message" -> message = Events.scalarText(p, t);
        case "type" -> type = Events.scalarText(p, t);
        case "code" -> code = Events.scalarText(p, t);
        default -> p.skipChildren();
      }
    }
  }
}
