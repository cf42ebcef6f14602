package io.github.gatlingllm.prompt;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.TreeMap;

/**
 * The digest of every prompt handed out in a phase, by index, in little memory.
 *
 * <p>Each digest is kept as its 64-bit value in a page of 64 consecutive indices, with a presence
 * mask. A phase that hands out consecutive indices costs about 9.7 bytes a prompt (8 for the
 * digest, the rest for the page and its map entry); a lone index costs a whole page (about 620
 * bytes). Thread-safe. Not API: public for the merge of shards' records.
 */
public final class PhaseDigests {

  private static final int PAGE_BITS = 6;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;

  private static final class Page {
    final long[] digests = new long[PAGE_SIZE];
    long present;
  }

  private final TreeMap<Long, Page> pages = new TreeMap<>();
  private long lastPageNumber = Long.MIN_VALUE;
  private Page lastPage;
  private long size;

  /** Empty. */
  public PhaseDigests() {}

  /**
   * The digests of prompts known by their hex digests, e.g. read back from several machines'
   * records of one phase.
   *
   * @param digestsByIndex request index to prompt digest (16 hex digits), never null
   * @return the digests, empty when the map is
   * @throws IllegalArgumentException if a digest is not 16 hex digits, naming its index
   */
  public static PhaseDigests fromHex(Map<Long, String> digestsByIndex) {
    PhaseDigests digests = new PhaseDigests();
    for (Map.Entry<Long, String> e : digestsByIndex.entrySet()) {
      String hex = e.getValue();
      if (hex == null || hex.length() != 16) {
        throw new IllegalArgumentException(
            "prompt digest of index " + e.getKey() + ": got " + hex + ", expected 16 hex digits");
      }
      try {
        digests.put(e.getKey(), Long.parseUnsignedLong(hex, 16));
      } catch (NumberFormatException x) {
        throw new IllegalArgumentException(
            "prompt digest of index " + e.getKey() + ": got " + hex + ", expected 16 hex digits",
            x);
      }
    }
    return digests;
  }

  /**
   * Records the digest of an index.
   *
   * @param index the request index
   * @param digest its prompt digest's 64 bits
   * @return false when the index was recorded before (its digest is replaced)
   */
  public synchronized boolean put(long index, long digest) {
    long number = index >> PAGE_BITS;
    Page page;
    if (number == lastPageNumber && lastPage != null) {
      page = lastPage;
    } else {
      page = pages.computeIfAbsent(number, n -> new Page());
      lastPageNumber = number;
      lastPage = page;
    }
    int slot = (int) (index & (PAGE_SIZE - 1));
    long bit = 1L << slot;
    boolean fresh = (page.present & bit) == 0;
    if (fresh) {
      page.present |= bit;
      size++;
    }
    page.digests[slot] = digest;
    return fresh;
  }

  /**
   * The largest index recorded.
   *
   * @return the index, or -1 when none
   */
  public synchronized long lastIndex() {
    if (size == 0) {
      return -1;
    }
    Map.Entry<Long, Page> last = pages.lastEntry();
    return (last.getKey() << PAGE_BITS) + 63 - Long.numberOfLeadingZeros(last.getValue().present);
  }

  /**
   * Records every index of another.
   *
   * @param other the other, not this
   * @return how many of its indices were recorded here before
   */
  public long putAll(PhaseDigests other) {
    long repeated = 0;
    synchronized (other) {
      for (Map.Entry<Long, Page> e : other.pages.entrySet()) {
        Page page = e.getValue();
        for (int slot = 0; slot < PAGE_SIZE; slot++) {
          if ((page.present & (1L << slot)) != 0
              && !put((e.getKey() << PAGE_BITS) + slot, page.digests[slot])) {
            repeated++;
          }
        }
      }
    }
    return repeated;
  }

  /** The number of distinct indices recorded. */
  public synchronized long size() {
    return size;
  }

  /**
   * {@code sha256("\n".join(digests in ascending index order))[:16]}, or null when nothing was
   * recorded.
   */
  public synchronized String phaseDigest() {
    if (size == 0) {
      return null;
    }
    MessageDigest sha = Hashing.newSha256();
    byte[] line = new byte[17];
    boolean first = true;
    for (Map.Entry<Long, Page> entry : pages.entrySet()) {
      Page page = entry.getValue();
      for (int slot = 0; slot < PAGE_SIZE; slot++) {
        if ((page.present & (1L << slot)) == 0) {
          continue;
        }
        byte[] hex = Hashing.hex16(page.digests[slot]).getBytes(StandardCharsets.US_ASCII);
        if (first) {
          sha.update(hex);
          first = false;
        } else {
          line[0] = '\n';
          System.arraycopy(hex, 0, line, 1, 16);
          sha.update(line);
        }
      }
    }
    return Hashing.hex16(Hashing.first8(sha.digest()));
  }
}
