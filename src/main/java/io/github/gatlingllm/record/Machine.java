package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/**
 * The run record's {@code machine}: where the run ran and how busy the machine was with other work,
 * sampled by {@code protocol.MachineWatch} off the hot path, once a second from the load's start to
 * its end.
 *
 * <p>Shares are of the whole machine's CPU (every CPU, so 1.0 is all of them busy), in [0, 1], from
 * the first line of Linux's {@code /proc/stat} (the kernel's ticks since boot: user, nice, system,
 * idle, iowait, irq, softirq, steal, as proc(5) defines them): over a window, {@code other} is the
 * busy ticks (user, nice, system, irq, softirq) less this JVM's own (utime and stime of {@code
 * /proc/self/stat}, in the same clock ticks) over all ticks, and {@code steal} the steal ticks
 * (time a hypervisor gave this virtual machine's CPUs to others) over all ticks. The means are over
 * the whole span (ticks summed), the maxima over windows of about 1 s (at least 0.5 s). The local
 * inference server, when on the same machine, is one of the other processes.
 *
 * <p>Every field is written, null when not known: the {@code /proc} figures are null where there is
 * no {@code /proc} (not Linux), the load averages where the OS reports none. Keys this version does
 * not know are kept in {@link #extra} and written after the others.
 *
 * @param cpus the processors the JVM sees ({@link Runtime#availableProcessors()})
 * @param loadAverageStart the 1-minute load average at the load's start (runnable and
 *     uninterruptible tasks, averaged; {@code /proc/loadavg} or the OS MXBean), or null
 * @param loadAverageEnd the same at the load's end, or null
 * @param otherCpuShareMean the share of the machine's CPU used by processes other than this JVM
 *     over the run, in [0, 1], or null without {@code /proc}
 * @param otherCpuShareMax its largest value over a window of about 1 s, or null
 * @param ownCpuShareMean this JVM's share of the machine's CPU over the run, or null
 * @param stealShareMean the share of the CPU stolen by the hypervisor over the run, or null
 * @param stealShareMax its largest over a window of about 1 s, or null
 * @param samples the {@code /proc/stat} samples taken, 0 without {@code /proc}
 * @param spanS the time from the first sample to the last, seconds, or null with fewer than 2
 * @param source where the figures come from, e.g. {@code /proc/stat, /proc/self/stat,
 *     /proc/loadavg} or why they are missing
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
  "cpus",
  "load_average_start",
  "load_average_end",
  "other_cpu_share_mean",
  "other_cpu_share_max",
  "own_cpu_share_mean",
  "steal_share_mean",
  "steal_share_max",
  "samples",
  "span_s",
  "source"
})
public record Machine(
    Integer cpus,
    Double loadAverageStart,
    Double loadAverageEnd,
    Double otherCpuShareMean,
    Double otherCpuShareMax,
    Double ownCpuShareMean,
    Double stealShareMean,
    Double stealShareMax,
    Integer samples,
    Double spanS,
    String source,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** Normalises {@code extra} to an ordered map. */
  public Machine {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The block in one line, e.g. {@code 2 CPUs, load average 3.10 -> 4.25, other processes 45% of
   * the CPU (most 80% over 1 s), steal 0%}; a figure not known is left out.
   *
   * @return the line, never null
   */
  @JsonIgnore
  public String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append(cpus == null ? "? CPUs" : cpus + (cpus == 1 ? " CPU" : " CPUs"));
    if (loadAverageStart != null || loadAverageEnd != null) {
      sb.append(", load average ")
          .append(fixed(loadAverageStart))
          .append(" -> ")
          .append(fixed(loadAverageEnd));
    }
    if (otherCpuShareMean != null) {
      sb.append(", other processes ")
          .append(pct(otherCpuShareMean))
          .append(" of the CPU (most ")
          .append(pct(otherCpuShareMax))
          .append(" over 1 s)");
    } else {
      sb.append(", other processes' CPU not measured");
    }
    if (stealShareMean != null) {
      sb.append(", steal ").append(pct(stealShareMean));
    }
    return sb.toString();
  }

  private static String fixed(Double v) {
    return v == null ? "?" : String.format(java.util.Locale.ROOT, "%.2f", v);
  }

  private static String pct(Double share) {
    return share == null ? "?" : Math.round(share * 100) + "%";
  }

  /**
   * The share of the machine's CPU that other work took from the run: other processes' mean plus
   * the stolen mean.
   *
   * @return in [0, 1]; null when neither was measured
   */
  @JsonIgnore
  public Double takenShare() {
    if (otherCpuShareMean == null && stealShareMean == null) {
      return null;
    }
    double taken =
        (otherCpuShareMean == null ? 0 : otherCpuShareMean)
            + (stealShareMean == null ? 0 : stealShareMean);
    return Math.min(1, Math.max(0, taken));
  }
}
