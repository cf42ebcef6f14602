package io.github.gatlingllm.prompt;

import io.github.gatlingllm.token.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the sources of sessions share, conversations' ({@link ConversationSource}) and agent
 * sessions' ({@link AgentSource}): their texts are one {@link PromptSource}'s extensions, a group's
 * system prompt is built once, a session's draws (turns, think times, tool latencies) come from the
 * SHA-256 of its label, and an ended session's digest joins its phase digest. Thread-safe.
 */
public abstract class SessionSource {

  /** The texts' source: every text of a session is one of its extensions. */
  final PromptSource text;

  private final byte[] label;
  private final Map<Integer, Prompt> systems = new ConcurrentHashMap<>();
  private final PhaseDigests digests = new PhaseDigests();

  /**
   * A source of one phase.
   *
   * @param text the texts' source, never null
   * @param kind the sessions' kind in their draws' label ({@code conversation}, {@code agent})
   */
  SessionSource(PromptSource text, String kind) {
    this.text = text;
    this.label =
        (text.seed() + ":" + text.caseId() + ":" + text.phase() + ":" + kind + ":")
            .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The system prompt of a group, built once.
   *
   * @param group the group, from 0
   * @param key the text's key, for example {@code system:3}
   * @param tokens its size, tokens
   * @param idPrefix its prompt id's prefix
   * @return the prompt, its {@link Prompt#prefixGroup()} the group
   */
  final Prompt system(int group, String key, int tokens, String idPrefix) {
    return systems.computeIfAbsent(
        group,
        g -> {
          Prompt p = text.extend(key, tokens, idPrefix);
          return Prompt.of(
              p.text(),
              p.promptId(),
              text.counter(),
              p.planned(),
              g,
              p.planned() == null ? null : p.planned().value());
        });
  }

  /**
   * A draw of a session's in {@code [0, range)}, from its label and {@code what}.
   *
   * @param session the session's index
   * @param what what is drawn, for example {@code think:2}
   * @param range the number of values, at least 1
   * @return the value; 0 when {@code range <= 1}
   */
  final long draw(long session, String what, long range) {
    if (range <= 1) {
      return 0;
    }
    MessageDigest sha = Hashing.sha256();
    sha.update(label);
    sha.update((session + ":" + what).getBytes(StandardCharsets.UTF_8));
    return Long.remainderUnsigned(Hashing.first8(sha.digest()), range);
  }

  /**
   * A session ended: its digest, over the texts it sent of its own, joins the phase digest.
   *
   * @param session the session's index
   * @param sentDigests the digests of its own texts sent, in order (16 hex each)
   * @return the session's digest, 16 hex digits
   */
  public String ended(long session, List<String> sentDigests) {
    String digest = ConversationSource.conversationDigest(sentDigests);
    digests.put(session, Long.parseUnsignedLong(digest, 16));
    return digest;
  }

  /**
   * The phase digest over the ended sessions' digests, in index order.
   *
   * @return 16 hex digits, or null when none ended
   */
  public String digest() {
    return digests.phaseDigest();
  }

  /**
   * How many sessions ended.
   *
   * @return the count
   */
  public long ended() {
    return digests.size();
  }

  /**
   * The counter.
   *
   * @return never null
   */
  public TokenCounter counter() {
    return text.counter();
  }

  /**
   * The seed.
   *
   * @return the seed
   */
  public long seed() {
    return text.seed();
  }

  /**
   * The case id.
   *
   * @return never null
   */
  public String caseId() {
    return text.caseId();
  }

  /**
   * The phase.
   *
   * @return never null
   */
  public String phase() {
    return text.phase();
  }

  /**
   * What the source makes of each session, for {@link #toString()}.
   *
   * @return text, never null
   */
  abstract String details();

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + "[seed "
        + seed()
        + ", case "
        + caseId()
        + ", phase "
        + phase()
        + ", "
        + details()
        + "]";
  }
}
