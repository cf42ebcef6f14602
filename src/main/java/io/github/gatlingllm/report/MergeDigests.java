package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.prompt.PhaseDigests;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every folder's prompt digests by request name and phase ({@link PhaseDigests}, about 10 bytes an
 * index), the indices recorded more than once, and the digests that are not 16 hex digits.
 */
final class MergeDigests {

  /** Adds another's digests (folders read with digests of their own). */
  void merge(MergeDigests other) {
    other.byName.forEach(
        (key, d) -> {
          long r = byName.computeIfAbsent(key, k -> new PhaseDigests()).putAll(d);
          repeats += r;
          if (r > 0 && repeated.isEmpty()) {
            repeated.add(List.of(key.get(0), key.get(1), "?"));
          }
        });
    other.bad.forEach(bad::putIfAbsent);
    repeats += other.repeats;
    if (repeated.isEmpty()) {
      repeated.addAll(other.repeated);
    }
  }

  final Map<List<String>, PhaseDigests> byName = new LinkedHashMap<>();
  final Map<List<String>, String> bad = new LinkedHashMap<>();
  final Set<List<String>> repeated = new LinkedHashSet<>();
  long repeats;

  /** Adds a request's digest, if it has one (conversation turns have their own). */
  void add(RequestRecord r) {
    if (r.conversationTurn() != null
        || r.phase() == null
        || r.index() == null
        || r.digest() == null) {
      return;
    }
    List<String> key = List.of(r.request(), r.phase());
    String hex = r.digest();
    long bits;
    try {
      if (hex.length() != 16) {
        throw new NumberFormatException();
      }
      bits = Long.parseUnsignedLong(hex, 16);
    } catch (NumberFormatException x) {
      bad.putIfAbsent(
          key, "prompt digest of index " + r.index() + ": got " + hex + ", expected 16 hex digits");
      return;
    }
    if (!byName.computeIfAbsent(key, k -> new PhaseDigests()).put(r.index(), bits)) {
      repeats++;
      if (repeated.size() < 1) {
        repeated.add(List.of(r.request(), r.phase(), String.valueOf(r.index())));
      }
    }
  }
}
