package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.prompt.PromptFile;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.prompt.TraceBlocks;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FedPrompt}: the one typed value a prompts feeder hands a user, its body and its cache plan
 * ({@link Workload#planSent}), without Gatling.
 */
class FedPromptTest {

  private static final RequestSettings CHAT = RequestSettings.streaming(WireApi.CHAT, "m", 64);
  private static final RequestSettings COMPLETIONS =
      RequestSettings.streaming(WireApi.COMPLETIONS, "m", 64);

  @TempDir Path dir;

  private final List<Workload> made = new ArrayList<>();

  @AfterEach
  void closeWorkloads() {
    made.forEach(Workload::close);
  }

  private Workload generated(PromptSpec spec, long budget, long warmup) {
    Workload w =
        new Workload(
            "test",
            new PromptSource(spec, EstimatedTokenCounter.INSTANCE, 0, "c", "measured", 64),
            budget,
            warmup);
    made.add(w);
    return w;
  }

  private Workload file(String rows) throws IOException {
    Path path = Files.writeString(dir.resolve("p.jsonl"), rows, StandardCharsets.UTF_8);
    PromptFile file = PromptFile.read(path, null);
    Workload w =
        new Workload(
            "file",
            PromptSource.ofFile(
                file, EstimatedTokenCounter.INSTANCE, 0, "p.jsonl", "measured", false, false),
            2,
            0);
    made.add(w);
    return w;
  }

  private Workload trace(String... lines) throws IOException {
    Path p = dir.resolve("t.jsonl");
    Files.write(p, List.of(lines));
    TraceReplay replay =
        new TraceReplay(
            Trace.read(p, 4), new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 4), 1.0, "c");
    Workload w = new Workload("trace", replay, Shard.SINGLE);
    made.add(w);
    return w;
  }

  private static FedPrompt fed(Map<String, Object> record) {
    return (FedPrompt) record.get(FedPrompt.KEY);
  }

  @Test
  void aRecordCarriesTheFedValueWithTheSameValuesAsItsElKeys() {
    Workload w = generated(PromptSpec.unique(), 2, 1);
    Map<String, Object> record = w.next();
    FedPrompt fed = fed(record);

    assertSame(w, fed.workload());
    assertEquals("warmup", fed.phase());
    assertEquals(0L, fed.index());
    assertEquals(record.get(PromptFeeder.TEXT), fed.prompt().text());
    assertEquals(record.get(PromptFeeder.DIGEST), fed.prompt().digest());
    assertSame(record.get(PromptFeeder.CLAIM), fed.claim());
    assertNull(fed.trace());
    assertNull(fed.prefixKey());
  }

  @Test
  void aSpentValueHasNoPrompt() {
    Workload w = generated(PromptSpec.unique(), 1, 0);
    FedPrompt fed = FedPrompt.spent(w);

    assertTrue(fed.spent());
    assertSame(w, fed.workload());
  }

  @Test
  void aGeneratedPromptIsOneUserMessage() {
    FedPrompt fed = fed(generated(PromptSpec.repeat(), 1, 0).next());

    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
            + fed.prompt().text()
            + "\"}],\"stream\":true,\"stream_options\":{\"include_usage\":true},"
            + "\"max_tokens\":64}",
        fed.body(fed.settings(CHAT, false)));
  }

  @Test
  void aFileRowsMessagesAreSentAsChatMessages() throws IOException {
    FedPrompt fed =
        fed(
            file("{\"messages\": [{\"role\": \"system\", \"content\": \"be brief\"},"
                    + " {\"role\": \"user\", \"content\": \"hi\"}]}\n{\"prompt\": \"x\"}\n")
                .next());

    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
            + "{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        fed.body(fed.settings(CHAT, false)));
  }

  @Test
  void aFileRowsMessagesAreSentAsTheirTranscriptOnCompletions() throws IOException {
    FedPrompt fed =
        fed(
            file("{\"messages\": [{\"role\": \"system\", \"content\": \"be brief\"},"
                    + " {\"role\": \"user\", \"content\": \"hi\"}]}\n{\"prompt\": \"x\"}\n")
                .next());

    assertEquals(
        "{\"model\":\"m\",\"prompt\":\"be brief\\n\\nhi\\n\\n\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        fed.body(fed.settings(COMPLETIONS, false)));
  }

  @Test
  void aFileRowsOwnMaxTokensIsSent() throws IOException {
    FedPrompt fed =
        fed(file("{\"prompt\": \"x\", \"output_tokens\": 9}\n{\"prompt\": \"y\"}\n").next());

    assertEquals(9, fed.settings(CHAT, false).maxTokens());
  }

  @Test
  void aRequestsOwnMaxTokensWinsOverTheRows() throws IOException {
    FedPrompt fed =
        fed(file("{\"prompt\": \"x\", \"output_tokens\": 9}\n{\"prompt\": \"y\"}\n").next());

    assertEquals(64, fed.settings(CHAT, true).maxTokens());
  }

  @Test
  void aTraceRowsOutputLengthIsItsMaxTokensWhateverTheRequestSays() throws IOException {
    FedPrompt fed =
        fed(
            trace(
                    "{\"timestamp\": 0, \"input_length\": 6, \"output_length\": 3, \"hash_ids\": [1, 2]}")
                .next());

    assertEquals(3, fed.settings(CHAT, true).maxTokens());
    assertEquals(0, fed.trace().row());
    assertEquals(6, fed.trace().inputTokens());
    assertArrayEquals(new long[] {1, 2}, fed.trace().hashIds());
    assertEquals(0L, fed.trace().dueNanos());
  }

  @Test
  void aRepeatPromptsFirstRequestPlansAMissAndTheNextAHit() {
    Workload w = generated(PromptSpec.repeat(), 2, 0);
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());

    Workload.Sending sending = first.planSent();
    assertEquals(
        new CachePlan.Sent(
            PromptMode.REPEAT, false, null, first.prompt().plannedCount().value(), false),
        sending.sent());
    sending.ticket().prefillEnded();
    assertEquals(
        new CachePlan.Sent(
            PromptMode.REPEAT, true, null, second.prompt().plannedCount().value(), false),
        second.planSent().sent());
  }

  @Test
  void aRepeatPromptSentWhileItsFirstRequestIsInPrefillPlansWhatItFinds() {
    Workload w = generated(PromptSpec.repeat(), 3, 0);
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());
    FedPrompt third = fed(w.next());
    Integer planned = second.prompt().plannedCount().value();

    Workload.Sending firstSent = first.planSent();
    Workload.Sending racing = second.planSent();
    firstSent.ticket().prefillEnded();
    Workload.Sending after = third.planSent();

    CachePlan.Sent sent = new CachePlan.Sent(PromptMode.REPEAT, true, null, planned, false);
    assertEquals(sent, racing.sent());
    assertEquals(
        sent.withReadyPrefixTokens(0),
        w.planEnded(second, racing.sent(), racing.ticket(), Long.MAX_VALUE));
    assertEquals(sent, w.planEnded(third, after.sent(), after.ticket(), Long.MAX_VALUE));
  }

  @Test
  void aRepeatPromptsFirstRequestWithTheSecondSentDuringItsPrefillPlansWhatItFinds() {
    Workload w = generated(PromptSpec.repeat(), 3, 0);
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());
    Integer planned = first.prompt().plannedCount().value();

    Workload.Sending firstSent = first.planSent();
    second.planSent();
    firstSent.ticket().prefillEnded();

    assertEquals(
        new CachePlan.Sent(PromptMode.REPEAT, true, null, planned, false)
            .withSentInFlight()
            .withReadyPrefixTokens(0),
        w.planEnded(first, firstSent.sent(), firstSent.ticket(), Long.MAX_VALUE));
  }

  @Test
  void aRepeatPromptWhoseFirstRequestFailedBeforeItsFirstTokenIsNotReady() {
    Workload w = generated(PromptSpec.repeat(), 2, 0);
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());

    first.planSent().ticket().ended(false);
    Workload.Sending sending = second.planSent();

    assertTrue(w.planEnded(second, sending.sent(), sending.ticket(), Long.MAX_VALUE).inPrefill());
  }

  @Test
  void aPromptsFileIsJudgedAgainstNoPlan() throws IOException {
    FedPrompt fed = fed(file("{\"prompt\": \"x\"}\n{\"prompt\": \"y\"}\n").next());

    assertNull(fed.planSent());
  }

  @Test
  void aTraceRowPlansTheTokensOfItsLeadingBlocksSentBefore() throws IOException {
    Workload w =
        trace(
            "{\"timestamp\": 0, \"input_length\": 8, \"output_length\": 3, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 1, \"input_length\": 8, \"output_length\": 3, \"hash_ids\": [1, 3]}");
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());

    Workload.Sending sending = first.planSent();
    assertEquals(
        new CachePlan.Sent(PromptMode.TRACE, false, 0, 8, false, 4, false, null), sending.sent());
    sending.ticket().prefillEnded();
    assertEquals(
        new CachePlan.Sent(PromptMode.TRACE, true, 4, 8, false, 4, false, null),
        second.planSent().sent());
  }

  @Test
  void aTraceRowSentWhileTheRowThatSentItsBlocksIsInPrefillHasNoReadyBlock() throws IOException {
    Workload w =
        trace(
            "{\"timestamp\": 0, \"input_length\": 8, \"output_length\": 3, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 1, \"input_length\": 8, \"output_length\": 3, \"hash_ids\": [1, 3]}");
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());

    first.planSent();
    Workload.Sending sending = second.planSent();

    assertEquals(
        new CachePlan.Sent(PromptMode.TRACE, true, 4, 8, false, 4, false, null), sending.sent());
    assertEquals(
        new CachePlan.Sent(PromptMode.TRACE, true, 4, 8, false, 4, false, null)
            .withReadyPrefixTokens(0),
        w.planEnded(second, sending.sent(), sending.ticket(), Long.MAX_VALUE));
  }

  @Test
  void aFirstRequestWithASecondSentWhileInFlightPlansAsSentInFlight() {
    Workload w = generated(PromptSpec.repeat(), 2, 0);
    FedPrompt first = fed(w.next());
    FedPrompt second = fed(w.next());
    CachePlan.Sent sent = first.planSent().sent();
    second.planSent();

    assertEquals(sent.withSentInFlight(), w.planEnded(first, sent, Long.MAX_VALUE));
  }

  @Test
  void aFirstRequestEndedBeforeAnyOtherWasSentKeepsItsPlan() {
    Workload w = generated(PromptSpec.repeat(), 2, 0);
    FedPrompt first = fed(w.next());
    CachePlan.Sent sent = first.planSent().sent();

    assertSame(sent, w.planEnded(first, sent, Long.MAX_VALUE));
  }
}
