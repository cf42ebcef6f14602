package io.github.gatlingllm.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which prefixes a request can expect in a server's cache: those a request of the run sent and had
 * its first token on before this one was sent; those only in prefill are sent, not ready.
 */
class PrefixLedgerTest {

  @Test
  void theFirstRequestOfAPrefixFindsItNeitherSentNorReady() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("measured:0");
    assertEquals(0, first.sentLead());
    assertEquals(0, first.readyLead());
    assertTrue(first.settled());
  }

  @Test
  void aRequestSentWhileTheFirstIsInPrefillFindsItSentNotReady() {
    PrefixLedger ledger = new PrefixLedger();
    ledger.send("measured:0");
    PrefixLedger.Ticket second = ledger.send("measured:0");
    assertEquals(1, second.sentLead());
    assertEquals(0, second.readyLead());
    assertFalse(second.settled());
  }

  @Test
  void aRequestSentAfterTheFirstsFirstTokenFindsItReady() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("measured:0");
    first.prefillEnded();
    PrefixLedger.Ticket second = ledger.send("measured:0");
    assertEquals(1, second.sentLead());
    assertEquals(1, second.readyLead());
    assertTrue(second.settled());
  }

  @Test
  void anyRequestsFirstTokenMakesThePrefixReady() {
    PrefixLedger ledger = new PrefixLedger();
    ledger.send("g");
    PrefixLedger.Ticket second = ledger.send("g");
    second.prefillEnded();
    assertTrue(ledger.send("g").settled());
  }

  @Test
  void aWholeAnswerMakesThePrefixReadyAtItsEnd() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("g");
    first.ended(true);
    assertEquals(1, ledger.send("g").readyLead());
  }

  @Test
  void aPrefixWhoseOnlyRequestFailedBeforeItsFirstTokenStaysSentNotReady() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("g");
    first.ended(false);
    PrefixLedger.Ticket second = ledger.send("g");
    assertEquals(1, second.sentLead());
    assertEquals(0, second.readyLead());
  }

  @Test
  void aFailedRequestLeavesThePrefixInPrefillWhileAnotherStillIs() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("g");
    PrefixLedger.Ticket second = ledger.send("g");
    first.ended(false);
    second.prefillEnded();
    assertTrue(ledger.send("g").settled());
  }

  @Test
  void onlyTheFirstEndCounts() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("g");
    first.ended(false);
    first.prefillEnded();
    assertFalse(ledger.send("g").settled());
  }

  @Test
  void readinessNeverGoesBack() {
    PrefixLedger ledger = new PrefixLedger();
    ledger.send("g").prefillEnded();
    PrefixLedger.Ticket later = ledger.send("g");
    later.ended(false);
    assertTrue(ledger.send("g").settled());
  }

  @Test
  void eachKeyIsItsOwn() {
    PrefixLedger ledger = new PrefixLedger();
    ledger.send("measured:0").prefillEnded();
    PrefixLedger.Ticket other = ledger.send("measured:1");
    assertEquals(0, other.sentLead());
  }

  @Test
  void aSequenceCountsLeadingKeysOnly() {
    PrefixLedger ledger = new PrefixLedger();
    // blocks 1, 2, 3 computed; block 4 sent by a row still in prefill
    ledger.send(new Object[] {1L, 2L, 3L}).prefillEnded();
    ledger.send(new Object[] {1L, 2L, 4L});
    PrefixLedger.Ticket row = ledger.send(new Object[] {1L, 2L, 4L, 5L});
    assertEquals(2, row.readyLead());
    assertEquals(3, row.sentLead());
    assertEquals(4, row.keys());
    PrefixLedger.Ticket gap = ledger.send(new Object[] {9L, 1L, 2L});
    assertEquals(0, gap.readyLead());
    assertEquals(0, gap.sentLead());
  }

  @Test
  void aSequenceWithAKeyTwiceIsWithdrawnWhole() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket row = ledger.send(new Object[] {7L, 8L, 7L});
    row.ended(false);
    ledger.send(new Object[] {7L}).prefillEnded();
    assertEquals(1, ledger.send(new Object[] {7L, 8L}).readyLead());
  }

  @Test
  void aNullKeyIsRefused() {
    PrefixLedger ledger = new PrefixLedger();
    assertThrows(NullPointerException.class, () -> ledger.send((Object) null));
    assertThrows(NullPointerException.class, () -> ledger.send(new Object[] {1L, null}));
  }

  @Test
  void theFirstRequestMayFindWhatAnotherSentWhileItWasInPrefill() {
    // The second may reach the server first: the first may then find its prefix.
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("g");
    ledger.send("g");
    first.prefillEnded();
    assertEquals(0, first.sentLead());
    assertEquals(1, first.foundLead());
    assertFalse(first.settled());
  }

  @Test
  void theFirstRequestFindsNothingSentAfterItsFirstToken() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("g");
    first.prefillEnded();
    ledger.send("g");
    assertEquals(0, first.foundLead());
    assertTrue(first.settled());
  }

  @Test
  void whatAnOpenTicketMayFindIsAsOfNow() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket first = ledger.send("g");
    assertEquals(0, first.foundLead());
    ledger.send("g");
    assertEquals(1, first.foundLead());
    first.ended(false);
    ledger.send("g");
    assertEquals(1, first.foundLead());
  }

  @Test
  void aRowMayFindBlocksAnotherRowMadeReadyWhileItWasInPrefill() {
    PrefixLedger ledger = new PrefixLedger();
    PrefixLedger.Ticket slow = ledger.send(new Object[] {1L, 2L, 3L});
    ledger.send(new Object[] {1L, 2L}).prefillEnded();
    slow.prefillEnded();
    assertEquals(0, slow.readyLead());
    assertEquals(2, slow.foundLead());
  }
}
