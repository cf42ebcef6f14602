package io.github.gatlingllm.metrics;

import java.util.Objects;

/**
 * Which request a record is about: the Gatling request name, the phase and the prompt's
 * identifiers, as the prompt generator gives them. Everything but the name may be null when
 * unknown.
 *
 * @param request the request name (Gatling's), never null
 * @param phase the phase ({@code measured}, {@code warmup}), or null
 * @param index the request index within its phase, or null
 * @param promptId the prompt's id, or null
 * @param digest the prompt's digest (16 hex), or null
 * @param prefixGroup the shared-prefix group, or null
 * @param sharedPrefixTokens the group prefix's tokens, or null
 * @param plannedTokens the prompt size the generator aimed for, in tokens, or null
 */
public record RequestIdentity(
    String request,
    String phase,
    Long index,
    String promptId,
    String digest,
    Integer prefixGroup,
    Integer sharedPrefixTokens,
    Integer plannedTokens) {

  /**
   * Checks the name.
   *
   * @throws NullPointerException if {@code request} is null
   */
  public RequestIdentity {
    Objects.requireNonNull(request, "request");
  }

  /**
   * An identity with a request name and phase only.
   *
   * @param request the request name, never null
   * @param phase the phase, or null
   * @return the identity
   */
  public static RequestIdentity of(String request, String phase) {
    return new RequestIdentity(request, phase, null, null, null, null, null, null);
  }
}
