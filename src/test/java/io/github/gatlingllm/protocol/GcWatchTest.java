package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.stats.Distribution;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The client's own GC pauses (issue 43): which beans count, the figures and the note. */
class GcWatchTest {

  private static GarbageCollectorMXBean bean(String name) {
    return new GarbageCollectorMXBean() {
      @Override
      public long getCollectionCount() {
        return 0;
      }

      @Override
      public long getCollectionTime() {
        return 0;
      }

      @Override
      public String getName() {
        return name;
      }

      @Override
      public boolean isValid() {
        return true;
      }

      @Override
      public String[] getMemoryPoolNames() {
        return new String[0];
      }

      @Override
      public ObjectName getObjectName() {
        return null;
      }
    };
  }

  @Test
  void aStopTheWorldCollectorsEveryCollectionIsAPause() {
    GcWatch w = new GcWatch(List.of(bean("Copy"), bean("MarkSweepCompact")));
    w.pause("Copy", 3);
    w.pause("Copy", 2);
    w.pause("MarkSweepCompact", 45);
    ClientSummary.Gc gc = w.finish();
    assertEquals(List.of("Copy", "MarkSweepCompact"), gc.collectors());
    assertEquals(new Distribution(3, 16.667, 2.0, 3.0, 45.0, 45.0, 45.0, 45.0), gc.pauseMs());
    assertEquals(50, gc.pausedMs());
  }

  @Test
  void aConcurrentCollectorsCyclesAreNotPauses() {
    GcWatch w = new GcWatch(List.of(bean("ZGC Cycles"), bean("ZGC Pauses")));
    w.pause("ZGC Cycles", 120);
    w.pause("ZGC Pauses", 0);
    w.pause("ZGC Pauses", 1);
    ClientSummary.Gc gc = w.finish();
    assertEquals(2, gc.pauseMs().count());
    assertEquals(1.0, gc.pauseMs().max());
    assertEquals(1, gc.pausedMs());
  }

  @Test
  void pausesAfterTheFinishAreNotCounted() {
    GcWatch w = new GcWatch(List.of(bean("Copy")));
    w.pause("Copy", 4);
    ClientSummary.Gc first = w.finish();
    w.pause("Copy", 90);
    assertEquals(first, w.finish());
    assertEquals(4, w.finish().pausedMs());
  }

  @Test
  void noPauseIsAnEmptyDistribution() {
    ClientSummary.Gc gc = new GcWatch(List.of(bean("G1 Young Generation"))).finish();
    assertEquals(Distribution.EMPTY, gc.pauseMs());
    assertNull(GcWatch.note(gc, 10.0));
  }

  @Test
  void theNoteNamesSerialGcAndWhatToChange() {
    GcWatch w = new GcWatch(List.of(bean("Copy"), bean("MarkSweepCompact")));
    w.pause("Copy", 3);
    w.pause("Copy", 16);
    String note = GcWatch.note(w.finish(), 10.0);
    assertTrue(
        note.startsWith(
            "the client's own GC paused it 2 times, 19 ms in all, the longest 16 ms (p99 16 ms;"
                + " llm.client.maxLagP99Ms=10)"),
        note);
    assertTrue(note.contains("(Serial GC: the JVM saw "), note);
  }

  @Test
  void pausesWithinTheLagThresholdNeedNoNote() {
    GcWatch w = new GcWatch(List.of(bean("Copy")));
    w.pause("Copy", 10);
    assertNull(GcWatch.note(w.finish(), 10.0));
  }

  @Test
  void theRealJvmsPausesAreHeard() throws Exception {
    GcWatch w = new GcWatch();
    w.start();
    System.gc();
    long until = System.nanoTime() + 5_000_000_000L;
    ClientSummary.Gc gc = null;
    // The notification comes on the JMX thread after the collection: wait for it.
    while (System.nanoTime() < until) {
      Thread.sleep(20);
      gc = w.snapshot();
      if (gc.pauseMs().count() > 0) {
        break;
      }
    }
    gc = w.finish();
    assertTrue(gc.pauseMs().count() >= 1, gc.toString());
    assertEquals(ManagementFactory.getGarbageCollectorMXBeans().size(), gc.collectors().size());
  }

  @Test
  void theBlockReadsBackAsWritten() throws Exception {
    ClientSummary.Gc gc =
        new ClientSummary.Gc(
            List.of("Copy", "MarkSweepCompact"),
            new Distribution(1, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0),
            3,
            1);
    ObjectMapper json = new ObjectMapper();
    String text = json.writeValueAsString(gc);
    assertEquals(
        "{\"collectors\":[\"Copy\",\"MarkSweepCompact\"],\"pause_ms\":{\"count\":1,\"mean\":3.0,"
            + "\"min\":3.0,\"p50\":3.0,\"p90\":3.0,\"p95\":3.0,\"p99\":3.0,\"max\":3.0},"
            + "\"paused_ms\":3,\"processors\":1}",
        text);
    assertEquals(gc, json.readValue(text, ClientSummary.Gc.class));
  }
}
