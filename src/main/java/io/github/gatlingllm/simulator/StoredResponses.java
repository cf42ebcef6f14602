package io.github.gatlingllm.simulator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Responses API's stored responses, for {@code previous_response_id}: each completed response
 * keeps the messages it added to its conversation (its input after the previous response, and its
 * reply) and a link to the previous response, so a conversation's context is rebuilt by walking
 * back and no message is stored twice. At most {@link #CAPACITY} responses are kept, the least
 * recently used dropped first (a later request naming a dropped one gets HTTP 400, as OpenAI
 * answers an unknown id). Thread-safe.
 */
final class StoredResponses {

  /** Responses kept. */
  static final int CAPACITY = 10_000;

  /** One stored response: the previous one (or null) and the messages this one added. */
  record Stored(Stored previous, List<PromptTokenizer.Message> added) {
    /** The whole conversation up to and including this response's reply, oldest first. */
    List<PromptTokenizer.Message> context() {
      List<List<PromptTokenizer.Message>> parts = new ArrayList<>();
      for (Stored s = this; s != null; s = s.previous) {
        parts.add(s.added);
      }
      Collections.reverse(parts);
      List<PromptTokenizer.Message> all = new ArrayList<>();
      for (List<PromptTokenizer.Message> part : parts) {
        all.addAll(part);
      }
      return all;
    }
  }

  private final Map<String, Stored> byId =
      new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Stored> eldest) {
          return size() > CAPACITY;
        }
      };

  /** The stored response of this id, or null. */
  synchronized Stored get(String id) {
    return byId.get(id);
  }

  /** Keeps a completed response. */
  synchronized void put(String id, Stored stored) {
    byId.put(id, stored);
  }

  /** Responses kept now. */
  synchronized int size() {
    return byId.size();
  }
}
