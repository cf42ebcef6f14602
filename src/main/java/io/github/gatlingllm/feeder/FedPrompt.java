package io.github.gatlingllm.feeder;

import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Not API. What a prompts feeder hands a virtual user for its next LLM request, as one typed value
 * under one session key ({@link #KEY}): the LLM action reads only this. The record's {@code llm.*}
 * keys ({@link PromptFeeder}, {@link TraceReplay}) carry the same values for simulations that post
 * with Gatling's own {@code http()} and EL ({@code docs/gatling-http.md}).
 *
 * @param workload the workload the prompt came from, never null
 * @param phase {@code warmup} or {@code measured}; null on a {@link #spent} value
 * @param index the request index within its phase, from 0 (-1 on a {@link #spent} value)
 * @param prompt the prompt, or null on a {@link #spent} value
 * @param prefixKey what a prefix cache can hold of the prompt from earlier requests of the workload
 *     ({@link Workload#sentBefore(String)}), or null for unique prompts
 * @param trace the trace row replayed, or null for a generated or file prompt
 * @param claim set by the first request sent with this value ({@link Workload#begin}); null on a
 *     {@link #spent} value
 */
public record FedPrompt(
    Workload workload,
    String phase,
    long index,
    Prompt prompt,
    String prefixKey,
    TraceRow trace,
    AtomicBoolean claim) {

  /** The session key of the fed value. */
  public static final String KEY = "llm.fed";

  /** Checks the workload. */
  public FedPrompt {
    Objects.requireNonNull(workload, "workload");
  }

  /**
   * What a user fed a record after the workload's budgets were handed out holds: no prompt, the
   * user ends. That record carries only {@link PromptFeeder#DONE} and {@link PromptFeeder#WORKLOAD}
   * ({@code docs/gatling-http.md}), so the session's {@link #KEY} is then the previous record's:
   * read {@code DONE} first.
   *
   * @param workload the workload, never null
   * @return a value with no prompt
   */
  public static FedPrompt spent(Workload workload) {
    return new FedPrompt(workload, null, -1, null, null, null, null);
  }

  /**
   * Whether the workload's budgets were handed out before this value: it has no prompt.
   *
   * @return true for a {@link #spent} value
   */
  public boolean spent() {
    return prompt == null;
  }

  /**
   * The settings of this prompt's request: a trace row's {@code output_length} as {@code
   * max_tokens}, else a prompts file row's own {@code max_tokens} unless the request sets its own.
   *
   * @param base the request's settings, never null
   * @param ownMaxTokens whether the request sets its own {@code max_tokens} ({@code
   *     llm(...).maxTokens(n)})
   * @return the settings, never null
   */
  public RequestSettings settings(RequestSettings base, boolean ownMaxTokens) {
    RequestSettings settings = base;
    if (trace != null) {
      settings = settings.withMaxTokens(trace.outputTokens());
    }
    Integer rowMaxTokens = prompt.maxTokens();
    if (rowMaxTokens != null && rowMaxTokens > 0 && !ownMaxTokens) {
      settings = settings.withMaxTokens(rowMaxTokens);
    }
    return settings;
  }

  /**
   * The body of this prompt's request ({@link RequestBodies}): a prompts file's {@code messages}
   * row as chat messages (on the completions endpoint, their transcript), else the text as one user
   * message.
   *
   * @param settings the request's settings ({@link #settings}), never null
   * @return the JSON body
   */
  public String body(RequestSettings settings) {
    List<PromptFile.Message> rows = prompt.messages();
    Dialect dialect = settings.endpoint().dialect();
    if (rows == null || rows.isEmpty()) {
      return dialect.body(settings, prompt.text());
    }
    List<Turn> turns = new ArrayList<>(rows.size());
    for (PromptFile.Message m : rows) {
      turns.add(new Turn.Message(m.role(), m.content()));
    }
    // completions: the messages' transcript (ChatMessage#transcript)
    return dialect.body(settings, turns);
  }

  /**
   * The body of this prompt's request as UTF-8 parts: {@link #body}'s bytes, or for a prompt with
   * images the dialect's body with them ({@link Dialect#body(RequestSettings, String,
   * io.github.gatlingllm.image.PromptImages)}), each image's data the array it was built in. A
   * prompt built ahead without images brings its text's JSON string, escaped and encoded on the
   * thread that builds prompts ahead ({@link Prompt#takeJson}: taken, so nothing of it is kept
   * after this body), and its body is copied around it rather than escaped here at the request's
   * due time: the same bytes as {@code body(settings).getBytes(UTF_8)}.
   *
   * @param settings the request's settings ({@link #settings}), never null
   * @return the JSON body's parts
   * @throws IllegalArgumentException if the API takes no images (completions)
   */
  public io.github.gatlingllm.api.BodyParts bodyParts(RequestSettings settings) {
    // Taken in every case: a body that does not use it keeps none of it either.
    byte[] json = prompt.takeJson();
    if (prompt.images() == null) {
      List<PromptFile.Message> rows = prompt.messages();
      if (json != null && (rows == null || rows.isEmpty())) {
        return io.github.gatlingllm.api.BodyParts.of(
            settings.endpoint().dialect().bodyBytes(settings, prompt.text(), json));
      }
      return io.github.gatlingllm.api.BodyParts.of(
          body(settings).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return settings.endpoint().dialect().body(settings, prompt.text(), prompt.images());
  }

  /**
   * What the cache plan knows of this prompt as it is sent ({@link Workload#planSent}); marks its
   * prefix as sent. Call once per request, in the order requests are sent, and tell the ticket when
   * the request's prefill ended and when it ended.
   *
   * @return the plan's input and the request's ticket, or null for a prompts file (judged against
   *     no plan)
   */
  public Workload.Sending planSent() {
    return workload.planSent(this);
  }
}
