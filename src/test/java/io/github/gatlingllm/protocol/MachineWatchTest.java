package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.record.Machine;
import io.github.gatlingllm.record.RunRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MachineWatchTest {

  private static final String STAT_1 =
      "cpu  1000 0 200 700 100 0 0 0 0 0\n"
          + "cpu0 500 0 100 350 50 0 0 0 0 0\n"
          + "cpu1 500 0 100 350 50 0 0 0 0 0\n"
          + "intr 12345 0 0\nctxt 999\nbtime 1796600000\n";
  private static final String STAT_2 = "cpu  1100 0 220 820 110 0 10 40 0 0\n";
  private static final String STAT_3 = "cpu  1250 0 230 870 110 0 10 40 0 0\n";

  @Test
  void theCpuLineGivesBusyStealAndTotalTicks() {
    // busy = user 1100 + nice 0 + system 220 + irq 0 + softirq 10; total adds idle, iowait, steal.
    assertEquals(new MachineWatch.Stat(1330, 40, 2300), MachineWatch.Stat.parse(STAT_2));
    assertEquals(new MachineWatch.Stat(1200, 0, 2000), MachineWatch.Stat.parse(STAT_1));
  }

  @Test
  void anOldKernelWithoutStealCountsNone() {
    assertEquals(new MachineWatch.Stat(300, 0, 1000), MachineWatch.Stat.parse("cpu 200 50 50 700"));
  }

  @Test
  void aTextWithoutCpuLineIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> MachineWatch.Stat.parse("intr 1 2 3\n"));
  }

  @Test
  void ownTicksAreUtimePlusStimeEvenWithSpacesInTheCommandName() {
    String line =
        "4242 (Gatling worker 1) S 1 4242 4242 0 -1 4194560 500 0 0 0 1234 567 0 0 20 0 40 0"
            + " 1273048 3133440 360\n";

    assertEquals(1801, MachineWatch.ownTicks(line));
  }

  @Test
  void theLoadAverageIsTheFirstFigureOfLoadavg() {
    assertEquals(0.72, MachineWatch.loadAverage("0.72 1.03 1.78 2/613 12981\n"));
  }

  @Test
  void otherProcessesShareIsBusyLessOwnOverAllTicks() {
    MachineWatch.Samples s = new MachineWatch.Samples();
    s.add(0, MachineWatch.Stat.parse(STAT_1), 50);
    // Window 1: 300 ticks, 130 busy of which 10 ours, 40 stolen: other 0.4, steal 0.1333.
    s.add(1_000_000_000L, MachineWatch.Stat.parse(STAT_2), 60);
    // Window 2: 210 ticks, 160 busy of which 80 ours: other 0.3810.
    s.add(2_000_000_000L, MachineWatch.Stat.parse(STAT_3), 140);

    Machine m = s.toRecord(2, 1.5, 2.25, "test");

    // Over the span: 510 ticks, 290 busy, 90 ours, 40 stolen.
    assertEquals(
        new Machine(2, 1.5, 2.25, 0.3922, 0.4, 0.1765, 0.0784, 0.1333, 3, 2.0, "test", null), m);
  }

  @Test
  void aWindowShorterThanHalfASecondCountsInTheMeanOnly() {
    MachineWatch.Samples s = new MachineWatch.Samples();
    s.add(0, MachineWatch.Stat.parse(STAT_1), 50);
    s.add(1_000_000_000L, MachineWatch.Stat.parse(STAT_2), 60);
    s.add(1_100_000_000L, MachineWatch.Stat.parse(STAT_3), 140);

    Machine m = s.toRecord(2, null, null, "test");

    assertEquals(0.4, m.otherCpuShareMax());
    assertEquals(0.3922, m.otherCpuShareMean());
  }

  @Test
  void withoutProcTheSharesAreNull() {
    Machine m = new MachineWatch.Samples().toRecord(4, 0.5, null, "no /proc");

    assertNull(m.otherCpuShareMean());
    assertNull(m.otherCpuShareMax());
    assertNull(m.stealShareMean());
    assertEquals(0, m.samples());
    assertEquals("4 CPUs, load average 0.50 -> ?, other processes' CPU not measured", m.describe());
  }

  @Test
  void theBlockIsTypedInTheRunRecordAndWrittenInItsOrder() throws Exception {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "machine",
        new Machine(2, 1.5, 2.25, 0.3922, 0.4, 0.1765, 0.0784, 0.1333, 3, 2.0, "test", null));

    RunRecord record = RunRecord.of(run);

    assertEquals(0.3922, record.machine().otherCpuShareMean());
    assertEquals(
        "{\"machine\":{\"cpus\":2,\"load_average_start\":1.5,\"load_average_end\":2.25,"
            + "\"other_cpu_share_mean\":0.3922,\"other_cpu_share_max\":0.4,"
            + "\"own_cpu_share_mean\":0.1765,\"steal_share_mean\":0.0784,\"steal_share_max\":0.1333,"
            + "\"samples\":3,\"span_s\":2.0,\"source\":\"test\"}}",
        new ObjectMapper().writeValueAsString(record.toTree()));
    assertEquals(
        "2 CPUs, load average 1.50 -> 2.25, other processes 39% of the CPU (most 40% over 1 s),"
            + " steal 8%",
        record.machine().describe());
  }
}
