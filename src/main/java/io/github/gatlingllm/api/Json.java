package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The shared Jackson objects of the request and response shapes (this package and {@code api/});
 * both are thread-safe once configured. Not API.
 */
public final class Json {

  /**
   * Plain mapper: used to validate and copy extra body values, never per request. Its factory's
   * buffers come from a {@link ParserBuffers} pool rather than a thread-local.
   */
  public static final ObjectMapper MAPPER =
      new ObjectMapper(JsonFactory.builder().recyclerPool(new ParserBuffers()).build());

  /** The factory of the streaming parsers and generators used per request and per event. */
  public static final JsonFactory FACTORY = MAPPER.getFactory();

  private Json() {}
}
