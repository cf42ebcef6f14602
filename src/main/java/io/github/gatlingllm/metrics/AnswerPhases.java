package io.github.gatlingllm.metrics;

import io.github.gatlingllm.api.StreamEvent;
import java.util.function.ToIntFunction;

/**
 * Tells a stream's reasoning from its answer, one token-bearing event at a time, for {@link
 * RequestTimer}: counts each phase's events, keeps the reasoning text (up to 4 Mi chars) so that a
 * tokenizer can count it, notes when the answer began, and works out the phases' {@link
 * AnswerTimings} when the request has ended. One instance per request; not thread-safe.
 */
final class AnswerPhases {

  private static final double NANOS_PER_MICRO = 1000.0;
  private static final double MICROS_PER_MS = 1000.0;
  private static final int MAX_REASONING_CHARS = 4 * 1024 * 1024;

  private boolean reasoningSeen;
  private boolean inThink;
  private boolean answerStarted;
  private long firstAnswerNanos;
  private int answerItlFrom = -1;
  private int reasoningEvents;
  private int answerEvents;
  private StringBuilder reasoningText;
  private boolean reasoningTextComplete = true;

  /**
   * Tells a token-bearing event's reasoning from its answer. Reasoning: {@code reasoning_content}
   * or {@code reasoning} deltas, and content inside {@code <think>...</think>} (tags recognised
   * within one event's content; content carrying a tag is always kept by the parser). Answer: other
   * content or text, and tool calls. A bare {@code </think>} before any {@code <think>}
   * (DeepSeek-R1's template opens the block in the prompt) makes everything before it reasoning.
   *
   * @param arrivalNanos the arrival of the event's chunk, {@link System#nanoTime()} nanoseconds
   * @param event a token-bearing event, never null
   * @param itlCount the number of ITL values so far, this event's included: where the answer's gaps
   *     begin if the answer starts with this event
   */
  void onTokenEvent(long arrivalNanos, StreamEvent event, int itlCount) {
    boolean reasoningPart = false;
    boolean answerPart = event.toolCallDeltas() > 0;
    boolean whitespacePart = false;
    if (event.reasoningChars() > 0) {
      reasoningPart = true;
      appendReasoning(event.reasoning());
    }
    if (event.contentChars() > 0) {
      String text = event.content();
      if (text == null) {
        if (inThink) {
          reasoningPart = true;
          appendReasoning(null);
        } else {
          answerPart = true;
        }
      } else {
        int at = 0;
        while (at <= text.length()) {
          int open = text.indexOf("<think>", at);
          int close = text.indexOf("</think>", at);
          int tag = open < 0 ? close : close < 0 ? open : Math.min(open, close);
          String segment = text.substring(at, tag < 0 ? text.length() : tag);
          if (!segment.isEmpty()) {
            if (inThink) {
              reasoningPart = true;
              appendReasoning(segment);
            } else if (segment.isBlank()) {
              whitespacePart = true;
            } else {
              answerPart = true;
            }
          }
          if (tag < 0) {
            break;
          }
          if (tag == open) {
            inThink = true;
            reasoningPart = true;
            appendReasoning("<think>");
            at = tag + "<think>".length();
          } else {
            if (!inThink) {
              bareClose();
              answerPart = event.toolCallDeltas() > 0;
              whitespacePart = false;
            }
            inThink = false;
            reasoningPart = true;
            appendReasoning("</think>");
            at = tag + "</think>".length();
          }
        }
      }
    }
    if (reasoningPart) {
      reasoningSeen = true;
    }
    if (whitespacePart && !reasoningPart && !reasoningSeen) {
      // Leading whitespace of a reply that does not reason is its answer.
      answerPart = true;
    }
    if (answerPart || (answerStarted && !reasoningPart)) {
      answerEvents++;
      if (!answerStarted) {
        answerStarted = true;
        firstAnswerNanos = arrivalNanos;
        answerItlFrom = itlCount;
      }
    } else {
      reasoningEvents++;
    }
  }

  /** A {@code </think>} that closes no {@code <think>}: what came before was reasoning. */
  private void bareClose() {
    if (answerStarted) {
      answerStarted = false;
      answerItlFrom = -1;
      reasoningEvents += answerEvents;
      answerEvents = 0;
    }
    // The text taken as answer so far was not kept: count events.
    reasoningTextComplete = false;
    reasoningSeen = true;
  }

  private void appendReasoning(String text) {
    if (text == null) {
      reasoningTextComplete = false;
      return;
    }
    if (reasoningText == null) {
      reasoningText = new StringBuilder(Math.max(64, text.length()));
    }
    if (reasoningText.length() + text.length() > MAX_REASONING_CHARS) {
      reasoningTextComplete = false;
      return;
    }
    reasoningText.append(text);
  }

  /**
   * Whether the next event's text should be kept: until the answer starts, and inside {@code
   * <think>}.
   *
   * @return true while the reasoning phase may still be going on
   */
  boolean wantsText() {
    return !answerStarted || inThink;
  }

  /**
   * The phases of the ended request (see {@link AnswerTimings} for the definitions).
   *
   * @param counter counts a reasoning text's tokens, or null to count reasoning-phase events
   * @param usageReasoningTokens the server's {@code
   *     usage.completion_tokens_details.reasoning_tokens}, or null
   * @param completionTokens the server's {@code usage.completion_tokens}, or null
   * @param startNanos the request's start, {@link System#nanoTime()} nanoseconds
   * @param ttftMicrosDone the request's TTFT in whole microseconds, or null without a token
   * @param e2eMicrosDone the request's E2E in whole microseconds
   * @return the phases, never null
   */
  AnswerTimings timings(
      ToIntFunction<String> counter,
      Integer usageReasoningTokens,
      Integer completionTokens,
      long startNanos,
      Long ttftMicrosDone,
      long e2eMicrosDone) {
    Integer reasoning;
    String source;
    if (usageReasoningTokens != null) {
      reasoning = usageReasoningTokens;
      source = AnswerTimings.SOURCE_USAGE;
    } else if (!reasoningSeen) {
      reasoning = 0;
      source = counter != null ? AnswerTimings.SOURCE_TOKENIZER : AnswerTimings.SOURCE_CHUNKS;
    } else if (counter != null && reasoningTextComplete && reasoningText != null) {
      reasoning = counter.applyAsInt(reasoningText.toString());
      source = AnswerTimings.SOURCE_TOKENIZER;
    } else {
      reasoning = reasoningEvents;
      source = AnswerTimings.SOURCE_CHUNKS;
    }
    Integer answerTokens =
        completionTokens != null ? Math.max(0, completionTokens - reasoning) : answerEvents;
    Long ttfoMicros = answerStarted ? micros(startNanos, firstAnswerNanos) : null;
    Double reasoningTpot = null;
    if (reasoning > 0 && ttftMicrosDone != null) {
      if (ttfoMicros != null) {
        reasoningTpot =
            Math.round(Math.max(0, ttfoMicros - ttftMicrosDone) / (double) reasoning)
                / MICROS_PER_MS;
      } else if (reasoning >= 2) {
        reasoningTpot =
            Math.round(Math.max(0, e2eMicrosDone - ttftMicrosDone) / (double) (reasoning - 1))
                / MICROS_PER_MS;
      }
    }
    Double answerTpot =
        ttfoMicros != null && answerTokens >= 2
            ? Math.round(Math.max(0, e2eMicrosDone - ttfoMicros) / (double) (answerTokens - 1))
                / MICROS_PER_MS
            : null;
    return new AnswerTimings(
        ttfoMicros == null ? null : ttfoMicros / MICROS_PER_MS,
        reasoning,
        source,
        answerTokens,
        reasoningTpot,
        answerTpot,
        answerStarted ? answerItlFrom : null);
  }

  /**
   * As {@link RequestTimer}'s: whole microseconds from one reading to a later one, 0 if earlier.
   */
  private static long micros(long fromNanos, long toNanos) {
    return Math.round(Math.max(0, toNanos - fromNanos) / NANOS_PER_MICRO);
  }
}
