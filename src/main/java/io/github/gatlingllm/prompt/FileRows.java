package io.github.gatlingllm.prompt;

import io.github.gatlingllm.token.TokenCount;
import io.github.gatlingllm.token.TokenCounter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * A prompts file's rows in hand-out order, for a {@link PromptSource#ofFile} source: which row a
 * request index of a phase sends, the prompt of that row, and the file's part of the run record.
 * Immutable.
 *
 * @param file the file, never null
 * @param order position to 0-based row, one entry per row
 * @param shuffled whether the order is a seeded shuffle
 * @param wrap whether positions past the end start again from the first
 * @param imageTokens the token rule of the rows' images ({@code llm.images.tokens}), never null
 */
record FileRows(
    PromptFile file,
    int[] order,
    boolean shuffled,
    boolean wrap,
    io.github.gatlingllm.image.ImageTokens imageTokens) {

  /**
   * The hand-out order of a file: the file's, or with {@code shuffle} a Fisher-Yates shuffle drawn
   * from {@code java.util.Random(seed)} (specified by the JDK, so the same on every JVM).
   *
   * @param file the prompts file, never null
   * @param seed the shuffle's seed
   * @param shuffle whether rows are handed out in a seeded shuffle rather than in file order
   * @param wrap whether indices past the file's end start again from its first row
   * @return the rows
   * @throws NullPointerException if {@code file} is null
   */
  static FileRows of(PromptFile file, long seed, boolean shuffle, boolean wrap) {
    Objects.requireNonNull(file, "file");
    int[] order = new int[file.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    if (shuffle) {
      Random random = new Random(seed);
      for (int i = order.length - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }
    return new FileRows(
        file, order, shuffle, wrap, io.github.gatlingllm.image.ImageTokens.of(null));
  }

  /**
   * The file row a request index of a phase sends: position {@code index} of the order for any
   * phase but {@code warmup}, position {@code size - 1 - index} for {@code warmup}.
   *
   * @param index the request index, at least 0
   * @param phase the phase, never null
   * @return the 0-based row of the file
   * @throws IllegalArgumentException if the index is negative, or past the file's end without wrap
   */
  int row(long index, String phase) {
    int size = order.length;
    if (index < 0 || (!wrap && index >= size)) {
      throw new IllegalArgumentException(
          "prompts file "
              + file.path()
              + ": request index "
              + index
              + " of phase "
              + phase
              + " is past its "
              + size
              + " rows, expected fewer requests or wrap-around");
    }
    int position = (int) (index % size);
    if (Phase.isWarmup(phase)) {
      position = size - 1 - position;
    }
    return order[position];
  }

  /**
   * The prompt a request index of a phase sends: its id {@code row-<n>}; its planned count, for a
   * {@code messages} row, the sum of its contents' counts with {@code counter} (else the count of
   * its text, as {@link Prompt#ofRow} makes it).
   *
   * @param index the request index, at least 0
   * @param phase the phase, never null
   * @param counter counts the prompt's tokens, never null
   * @return the prompt, never null
   * @throws IllegalArgumentException as {@link #row}
   */
  Prompt prompt(long index, String phase, TokenCounter counter) {
    int row = row(index, phase);
    PromptFile.Row r = file.rows().get(row);
    TokenCount planned = null;
    if (r.messages() != null) {
      int tokens = 0;
      boolean exact = true;
      for (PromptFile.Message m : r.messages()) {
        TokenCount c = counter.countText(m.content());
        tokens += c.value();
        exact &= c.exact();
      }
      planned = new TokenCount(tokens, counter.source(), exact);
    }
    Prompt prompt = Prompt.ofRow(r, "row-" + row, counter, planned);
    if (r.images() == null) {
      return prompt;
    }
    return prompt.withImages(RowImages.load(file.path(), r.images(), imageTokens));
  }

  /**
   * These rows with their images counted by another rule.
   *
   * @param tokens the rule, never null
   * @return new rows
   */
  FileRows withImageTokens(io.github.gatlingllm.image.ImageTokens tokens) {
    return new FileRows(file, order, shuffled, wrap, java.util.Objects.requireNonNull(tokens));
  }

  /**
   * The file's spec record: {@code mode: file}, {@code file} (its absolute path), {@code format},
   * {@code column} (CSV only), {@code sha256} (of its bytes), {@code rows}, {@code order} ({@code
   * index} or {@code shuffle}) and {@code wrap}.
   *
   * @return an ordered, unmodifiable map of JSON-ready values
   */
  Map<String, Object> specRecord() {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("mode", "file");
    record.put("file", file.path().toString());
    record.put("format", file.format().wireName());
    if (file.column() != null) {
      record.put("column", file.column());
    }
    record.put("sha256", file.sha256());
    record.put("rows", file.size());
    record.put("order", shuffled ? "shuffle" : "index");
    record.put("wrap", wrap);
    return Collections.unmodifiableMap(record);
  }
}
