package io.github.gatlingllm.prompt;

import io.github.gatlingllm.image.Image;
import io.github.gatlingllm.image.ImageGenerator;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.image.ImageTokens;
import io.github.gatlingllm.image.PromptImages;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Not API. The images of one phase's generated prompts ({@code llm.images.*}), each a pure function
 * of its label ({@link ImageGenerator}):
 *
 * <ul>
 *   <li>a request's own image {@code slot}: {@code {seed}:{case_id}:{phase}:image:{index}:{slot}};
 *   <li>a shared-prefix group's image {@code slot}: {@code
 *       {seed}:{case_id}:{prefix_phase}:group-image:{group}:{slot}}, the same bytes for every
 *       request of the group (the prefix phase's, as its text prefix);
 *   <li>a repeat prompt's image {@code slot}: {@code {seed}:{case_id}:repeat-image:{slot}}, the
 *       same in every phase, as the repeated text.
 * </ul>
 *
 * <p>A shared-prefix prompt carries its group's {@code shared} images first (before its text, in
 * the group's prefix), then {@code count - shared} of its own after its text; a unique prompt
 * carries its own only ({@code shared} must be 0); a repeat prompt carries the repeat images, all
 * before its text. The group's and the repeat images are made once and kept (a few per group); a
 * request's own are made with its prompt, ahead of use, and dropped with it. Thread-safe.
 */
final class PromptImaging {

  private final ImageSpec spec;
  private final ImageTokens tokens;
  private final PromptMode mode;
  private final String requestLabel;
  private final String groupLabel;
  private final String repeatLabel;
  private final Map<Integer, List<Image>> groups = new ConcurrentHashMap<>();
  private volatile List<Image> repeat;

  /**
   * The images of a phase.
   *
   * @param spec what each prompt carries, with at least one image, never null
   * @param tokens their token rule, never null
   * @param mode the prompts' mode: repeat, unique or shared-prefix
   * @param seed the seed
   * @param caseId the case id, never null
   * @param phase the phase, never null
   * @param prefixPhase the phase whose group images shared-prefix prompts start with, never null
   * @throws IllegalArgumentException if the mode takes no images of this spec (unique prompts with
   *     shared images, a trace's rows)
   */
  PromptImaging(
      ImageSpec spec,
      ImageTokens tokens,
      PromptMode mode,
      long seed,
      String caseId,
      String phase,
      String prefixPhase) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.mode = Objects.requireNonNull(mode, "mode");
    if (!spec.any()) {
      throw new IllegalArgumentException("llm.images.count: got 0, expected at least 1 here");
    }
    if (mode == PromptMode.UNIQUE && spec.shared() > 0) {
      throw new IllegalArgumentException(
          "llm.images.shared: got "
              + spec.shared()
              + " with llm.promptMode=unique, expected 0 (unique prompts share nothing; shared"
              + " images need shared-prefix prompts, and a repeat prompt's are all the same)");
    }
    if (mode == PromptMode.TRACE) {
      throw new IllegalArgumentException(
          "llm.images.count: a trace's rows carry the images their rows say, not llm.images.count");
    }
    this.requestLabel = seed + ":" + caseId + ":" + phase + ":image:";
    this.groupLabel = seed + ":" + caseId + ":" + prefixPhase + ":group-image:";
    this.repeatLabel = seed + ":" + caseId + ":repeat-image:";
  }

  /**
   * The same images in another phase (the repeat images are the same; a request's own are not).
   *
   * @param seed the seed
   * @param caseId the case id
   * @param phase the other phase
   * @param prefixPhase its prefix phase
   * @return a new value sharing the token rule
   */
  PromptImaging inPhase(long seed, String caseId, String phase, String prefixPhase) {
    return new PromptImaging(spec, tokens, mode, seed, caseId, phase, prefixPhase);
  }

  /**
   * What each prompt carries.
   *
   * @return never null
   */
  ImageSpec spec() {
    return spec;
  }

  /**
   * The token rule.
   *
   * @return never null
   */
  ImageTokens tokens() {
    return tokens;
  }

  /**
   * The images of a request index.
   *
   * @param index the request index
   * @param group the prompt's prefix group, or null outside shared-prefix mode
   * @return the images, never null
   */
  PromptImages images(long index, Integer group) {
    if (mode == PromptMode.REPEAT) {
      List<Image> r = repeat;
      if (r == null) {
        r = make(repeatLabel, spec.count());
        repeat = r;
      }
      return new PromptImages(r, r.size(), tokens);
    }
    List<Image> all = new ArrayList<>(spec.count());
    int shared = group == null ? 0 : spec.shared();
    if (shared > 0) {
      all.addAll(groups.computeIfAbsent(group, g -> make(groupLabel + g + ":", shared)));
    }
    for (int slot = shared; slot < spec.count(); slot++) {
      all.add(ImageGenerator.generate(requestLabel + index + ":" + slot, spec));
    }
    return new PromptImages(all, shared, tokens);
  }

  /** Images {@code 0 .. n-1} of a label's namespace. */
  private List<Image> make(String label, int n) {
    List<Image> images = new ArrayList<>(n);
    for (int slot = 0; slot < n; slot++) {
      images.add(ImageGenerator.generate(label + slot, spec));
    }
    return List.copyOf(images);
  }
}
