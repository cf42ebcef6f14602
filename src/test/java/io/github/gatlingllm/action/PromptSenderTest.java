package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.feeder.FedPrompt;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link PromptSender#admit}: a prompt's own answers at the gate, one test per answer. */
class PromptSenderTest {

  private static final Runnable NO_RESUME =
      () -> {
        throw new AssertionError("resumed");
      };

  private final List<Workload> made = new ArrayList<>();

  @AfterEach
  void closeWorkloads() {
    made.forEach(Workload::close);
  }

  private Workload workload(long budget, long warmup) {
    Workload w =
        new Workload(
            "test",
            new PromptSource(
                PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 0, "c", "measured", 64),
            budget,
            warmup);
    made.add(w);
    return w;
  }

  private static FedPrompt fed(Map<String, Object> record) {
    return (FedPrompt) record.get(FedPrompt.KEY);
  }

  private static PromptSender sender(boolean ownPrompt, Predicate<String> userEndedByBudget) {
    return new PromptSender(
        new LlmActionSpec(
            "chat",
            null,
            ownPrompt ? s -> "own" : null,
            null,
            Map.of(),
            LlmActionSpec.Kind.PROMPT,
            ReplySaves.NONE),
        null,
        RequestSettings.streaming(WireApi.CHAT, "m", 16),
        null,
        userEndedByBudget);
  }

  private static final Predicate<String> NOT_ASKED =
      s -> {
        throw new AssertionError("asked");
      };

  @Test
  void aUserFedAConversationOutsideConversationStopsTheRunAsACrash() {
    assertEquals(
        new Gate.StopRun(
            "llm(\"chat\"): the virtual user was fed a conversations() feeder, but this request"
                + " is not inside conversation(...), so it would send the first turn only: wrap"
                + " it, feed(conversations()...).exec(conversation(llm(\"chat\")...))",
            true),
        sender(false, NOT_ASKED).admit(true, null, "scn", NO_RESUME));
  }

  @Test
  void aUserWithNoPromptStopsTheRunAsACrash() {
    assertEquals(
        new Gate.StopRun(
            "llm(\"chat\"): the virtual user has no prompt to send: feed a prompts() feeder"
                + " before this request (feed(prompts()...).exec(llm(\"chat\")...)) or give the"
                + " request its own .prompt(...)",
            true),
        sender(false, NOT_ASKED).admit(false, null, "scn", NO_RESUME));
  }

  @Test
  void promptsWithImagesOnCompletionsStopTheRunBeforeAnyRequest() {
    Workload w =
        new Workload(
            "test",
            new PromptSource(
                    PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 0, "c", "measured", 64)
                .withImages(
                    new io.github.gatlingllm.image.ImageSpec(
                        1, 0, 28, 28, 28, 28, io.github.gatlingllm.image.ImageFormat.PNG),
                    io.github.gatlingllm.image.ImageTokens.of("qwen2-vl")),
            1,
            0);
    made.add(w);
    PromptSender completions =
        new PromptSender(
            new LlmActionSpec(
                "chat", null, null, null, Map.of(), LlmActionSpec.Kind.PROMPT, ReplySaves.NONE),
            null,
            RequestSettings.streaming(WireApi.COMPLETIONS, "m", 16),
            null,
            NOT_ASKED);
    assertEquals(
        new Gate.StopRun(
            "llm(\"chat\"): completions takes no images, and its prompts carry them"
                + " (llm.images.count, a prompts file's images); expected llm.endpoint=chat,"
                + " responses or messages",
            true),
        completions.admit(false, fed(w.next()), "scn", NO_RESUME));
  }

  @Test
  void aRequestWithItsOwnPromptAndNoFeederGoes() {
    assertSame(Gate.GO, sender(true, NOT_ASKED).admit(false, null, "scn", NO_RESUME));
  }

  @Test
  void aFedPromptGoesAndIsCountedInFlightTillItEnds() {
    Workload w = workload(1, 0);
    FedPrompt fed = fed(w.next());
    // The record's first request takes over the record's place in flight.
    assertSame(Gate.GO, sender(false, NOT_ASKED).admit(false, fed, "scn", NO_RESUME));
    // A second request on the same record is counted on its own.
    assertSame(Gate.GO, sender(false, NOT_ASKED).admit(false, fed, "scn", NO_RESUME));
    w.ended("measured");
    assertEquals(false, w.spent());
    w.ended("measured");
    assertEquals(true, w.spent());
  }

  @Test
  void aSpentUserEndsAfterASecondWhileOtherScenariosRunOn() {
    Workload w = workload(1, 0);
    assertEquals(
        new Gate.EndUser(1_000),
        sender(false, s -> false).admit(false, FedPrompt.spent(w), "scn", NO_RESUME));
  }

  @Test
  void theLastSpentUserStopsTheRunAsNoCrash() {
    Workload w = workload(1, 0);
    List<String> asked = new ArrayList<>();
    assertEquals(
        new Gate.StopRun("gatling-llm: every prompt budget is spent", false),
        sender(false, s -> asked.add(s)).admit(false, FedPrompt.spent(w), "scn", NO_RESUME));
    assertEquals(List.of("scn"), asked);
  }

  @Test
  void aMeasuredPromptIsHeldUntilTheWarmupEndsThenResumed() {
    Workload w = workload(1, 1);
    FedPrompt warmup = fed(w.next());
    FedPrompt measured = fed(w.next());
    AtomicInteger resumed = new AtomicInteger();
    PromptSender sender = sender(false, NOT_ASKED);

    assertSame(Gate.GO, sender.admit(false, warmup, "scn", NO_RESUME));
    assertSame(Gate.HELD, sender.admit(false, measured, "scn", resumed::incrementAndGet));
    assertEquals(0, resumed.get());
    w.ended("warmup");
    assertEquals(1, resumed.get());
  }

  @Test
  void aWarmupPromptIsNeverHeld() {
    Workload w = workload(1, 2);
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());
    PromptSender sender = sender(false, NOT_ASKED);

    assertSame(Gate.GO, sender.admit(false, first, "scn", NO_RESUME));
    assertSame(Gate.GO, sender.admit(false, second, "scn", NO_RESUME));
  }
}
