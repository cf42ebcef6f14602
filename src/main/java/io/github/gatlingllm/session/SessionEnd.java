package io.github.gatlingllm.session;

import io.github.gatlingllm.record.SessionSummary;

/** How an agent session ended (issue 32). */
public enum SessionEnd {
  /** The model answered without a tool call: the task is done. */
  COMPLETED(SessionSummary.COMPLETED),
  /** The session ran its {@code toolCalls} loops and the last reply still called tools. */
  LOOP_LIMIT("loop_limit"),
  /** The next turn would not have fit {@code llm.maxContextTokens}: it was not sent. */
  CONTEXT_LIMIT("context_limit"),
  /** A turn failed: without its reply the session cannot go on. */
  ERROR(SessionSummary.ERROR);

  private final String wireName;

  SessionEnd(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name in the run record ({@code sessions.ended}).
   *
   * @return e.g. {@code loop_limit}
   */
  public String wireName() {
    return wireName;
  }
}
