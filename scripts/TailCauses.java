import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Why the client's slow requests were slow (issue 43): for each slow item of a benchmark run, what
 * the client JVM was doing in its window, from a JFR recording of that run taken with
 * scripts/tail.jfc (execution and native samples every 1 ms, every GC pause, safepoint, compilation
 * and class load). Not part of the product; run by scripts/bench-tail-causes.sh.
 *
 * <pre>
 * java -cp CLASSPATH scripts/TailCauses.java KIND REC.jfr REQUESTS.jsonl THRESHOLD_MS [SERVER.json RUN_ID|auto] [LOOP]
 *   KIND ttft: client-added TTFT (the client's TTFT minus the server's time to its first chunk;
 *              needs the server's dump and the run id), window [sent, sent + TTFT]
 *   KIND itl:  ITL error (|client gap - server gap|), window: the late stamp's last ERROR ms
 *   KIND lag:  schedule lag (sent_ms - scheduled_ms), window [scheduled, sent]
 *   THRESHOLD_MS: an item is slow above it (the figure's target)
 *   LOOP: the event loop's thread name prefix (default gatling-1)
 * </pre>
 *
 * <p>Each slow item gets the first cause, in this order, that holds in its window: a GC pause (0.5
 * ms or more of it); another safepoint (0.5 ms or more); cold code (a class loaded, or a sample of
 * the event loop in interpreted code); another thread of the client running (a sample of a thread
 * other than the event loop, on the client's one core); a JIT compilation running (1 ms or more);
 * the event loop busy (samples of it in at least half the window's milliseconds: queued behind
 * other streams' work); none seen (the kernel, another process, or the client idle between
 * samples). Prints the shares of the causes and what the event loop ran in the slow windows.
 */
public class TailCauses {
  record Span(long start, long end, String what) {}

  record Sample(long t, String thread, String top, boolean interpreted, boolean nativeSample) {}

  public static void main(String[] a) throws Exception {
    String kind = a[0];
    Path jfr = Path.of(a[1]);
    Path requests = Path.of(a[2]);
    double threshold = Double.parseDouble(a[3]);
    Map<String, long[]> server = new HashMap<>();
    String runId = null;
    int next = 4;
    ObjectMapper json = new ObjectMapper();
    if (kind.equals("ttft") || kind.equals("itl")) {
      JsonNode dump = json.readTree(Path.of(a[4]).toFile());
      for (JsonNode r : dump.get("requests")) {
        long[] sent = new long[r.get("sent_ns").size()];
        for (int i = 0; i < sent.length; i++) sent[i] = r.get("sent_ns").get(i).asLong();
        server.put(r.get("id").asText(), sent);
      }
      runId = a[5];
      if (runId.equals("auto")) { // the prefix of the server's ids: RUN_ID-PHASE-INDEX
        String id = server.keySet().iterator().next();
        runId = id.replaceAll("-(measured|warmup)-\\d+$", "");
      }
      next = 6;
    }
    String loop = a.length > next ? a[next] : "gatling-1";

    List<Span> pauses = new ArrayList<>(), safepoints = new ArrayList<>(), compiles = new ArrayList<>();
    List<Span> classLoads = new ArrayList<>();
    List<Sample> samples = new ArrayList<>();
    List<Double> pauseMs = new ArrayList<>();
    try (RecordingFile f = new RecordingFile(jfr)) {
      while (f.hasMoreEvents()) {
        RecordedEvent e = f.readEvent();
        String type = e.getEventType().getName();
        long s = nanos(e.getStartTime()), en = nanos(e.getEndTime());
        switch (type) {
          case "jdk.GCPhasePause" -> {
            pauses.add(new Span(s, en, "GC pause " + e.getString("name")));
            pauseMs.add((en - s) / 1e6);
          }
          case "jdk.ExecuteVMOperation" -> {
            if (e.getBoolean("safepoint")) safepoints.add(new Span(s, en, e.getString("operation")));
          }
          case "jdk.Compilation" -> compiles.add(new Span(s, en, (e.getInt("compileLevel") >= 4 ? "C2" : "C1")));
          case "jdk.ClassLoad" -> {
            String t = e.getThread("eventThread") == null ? "?" : e.getThread("eventThread").getJavaName();
            classLoads.add(new Span(s, en, t));
          }
          case "jdk.ExecutionSample", "jdk.NativeMethodSample" -> {
            var th = e.getThread("sampledThread");
            RecordedStackTrace st = e.getStackTrace();
            String top = "?";
            boolean interp = false;
            if (st != null && !st.getFrames().isEmpty()) {
              top = part(st.getFrames());
              RecordedFrame f0 = st.getFrames().get(0);
              interp = "Interpreted".equals(f0.getType());
            }
            samples.add(new Sample(s, th == null ? "?" : String.valueOf(th.getJavaName()), top, interp,
                type.equals("jdk.NativeMethodSample")));
          }
          default -> {}
        }
      }
    }
    Comparator<Span> byStart = Comparator.comparingLong(Span::start);
    pauses.sort(byStart);
    safepoints.sort(byStart);
    compiles.sort(byStart);
    classLoads.sort(byStart);
    samples.sort(Comparator.comparingLong(Sample::t));
    long jfrFirst = samples.isEmpty() ? Long.MIN_VALUE : samples.get(0).t();

    if (kind.equals("first")) {
      first(requests, threshold, json, pauses, safepoints, compiles, classLoads, samples, loop);
      return;
    }
    // The slow items and their windows (epoch ns).
    List<long[]> windows = new ArrayList<>();
    List<Double> excess = new ArrayList<>();
    int total = 0;
    try (BufferedReader r = Files.newBufferedReader(requests)) {
      for (String line; (line = r.readLine()) != null; ) {
        JsonNode q = json.readTree(line);
        if (!"ok".equals(q.path("status").asText()) || !"measured".equals(q.path("phase").asText())) continue;
        long sentNs = (long) (q.path("sent_ms").asDouble() * 1e6);
        if (sentNs < jfrFirst) continue;
        if (kind.equals("lag")) {
          if (q.path("schedule_lag_ms").isNull() || q.path("scheduled_ms").isNull()) continue;
          total++;
          double lag = q.path("schedule_lag_ms").asDouble();
          if (lag > threshold) {
            long due = (long) (q.path("scheduled_ms").asDouble() * 1e6);
            windows.add(new long[] {due, sentNs});
            excess.add(lag);
          }
          continue;
        }
        long[] s = server.get(runId + "-" + q.path("phase").asText() + "-" + q.path("index").asInt());
        if (s == null || s.length == 0 || q.path("ttft_ms").isNull()) continue;
        double ttft = q.path("ttft_ms").asDouble();
        if (kind.equals("ttft")) {
          total++;
          double added = ttft - s[0] / 1e6;
          if (added > threshold) {
            windows.add(new long[] {sentNs, sentNs + (long) (ttft * 1e6)});
            excess.add(added);
          }
          continue;
        }
        JsonNode itl = q.path("itl_ms");
        if (itl.size() != s.length - 1) continue;
        double stamp = q.path("sent_ms").asDouble() + ttft;
        for (int i = 0; i < itl.size(); i++) {
          double prev = stamp;
          stamp += itl.get(i).asDouble();
          double gap = (s[i + 1] - s[i]) / 1e6, err = itl.get(i).asDouble() - gap;
          total++;
          if (Math.abs(err) > threshold) {
            double at = err > 0 ? stamp : prev; // the stamp that was late
            long end = (long) (at * 1e6);
            windows.add(new long[] {end - (long) (Math.abs(err) * 1e6), end});
            excess.add(Math.abs(err));
          }
        }
      }
    }

    Map<String, Integer> causes = new LinkedHashMap<>();
    Map<String, Double> causeMs = new LinkedHashMap<>();
    Map<String, Integer> loopWork = new TreeMap<>();
    Map<String, Integer> otherThreads = new TreeMap<>();
    int loopSamples = 0;
    for (int k = 0; k < windows.size(); k++) {
      long w0 = windows.get(k)[0], w1 = windows.get(k)[1];
      double ms = (w1 - w0) / 1e6;
      double gc = overlap(pauses, w0, w1), sp = overlap(safepoints, w0, w1) - gc, comp = overlap(compiles, w0, w1);
      int loaded = count(classLoads, w0, w1);
      int loopN = 0, loopInterp = 0, otherN = 0;
      String other = null;
      for (Sample s : between(samples, w0, w1)) {
        if (s.thread().startsWith(loop)) {
          if (!s.nativeSample()) {
            loopN++;
            loopWork.merge(s.top(), 1, Integer::sum);
            loopSamples++;
            if (s.interpreted()) loopInterp++;
          }
        } else if (!s.nativeSample()) {
          otherN++;
          String g = group(s.thread());
          otherThreads.merge(g, 1, Integer::sum);
          if (other == null) other = g;
        }
      }
      String cause;
      if (gc >= 0.5e6) cause = "GC pause";
      else if (sp >= 0.5e6) cause = "safepoint (not GC)";
      else if (loaded > 0 || loopInterp > 0) cause = "cold code (class load or interpreted)";
      else if (otherN > 0) cause = "another client thread ran: " + other;
      else if (comp >= 1e6) cause = "JIT compiling on the client's core";
      else if (loopN >= Math.max(1, ms / 2)) cause = "event loop busy (queued behind other work)";
      else cause = "none seen (kernel, other process, between samples)";
      causes.merge(cause, 1, Integer::sum);
      causeMs.merge(cause, excess.get(k), Double::sum);
    }
    pauseMs.sort(null);
    System.out.printf(Locale.ROOT, "== %s above %.2f ms: %d of %d (%.2f%%)%n", kind, threshold, windows.size(), total,
        total == 0 ? 0 : 100.0 * windows.size() / total);
    System.out.printf(Locale.ROOT, "GC pauses: %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms; compilations %d; class loads %d%n",
        pauseMs.size(), pct(pauseMs, 50), pct(pauseMs, 99), pauseMs.isEmpty() ? 0 : pauseMs.get(pauseMs.size() - 1),
        compiles.size(), classLoads.size());
    causes.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).forEach(e ->
        System.out.printf(Locale.ROOT, "  %5.1f%%  %5d  %s (mean excess %.2f ms)%n", 100.0 * e.getValue() / Math.max(1, windows.size()),
            e.getValue(), e.getKey(), causeMs.get(e.getKey()) / e.getValue()));
    System.out.println("  other client threads sampled in slow windows: " + top(otherThreads, 6));
    System.out.println("  event loop's samples in slow windows (" + loopSamples + "): " + top(loopWork, 8));
  }

  /** The window before the run's first send, THRESHOLD_MS long (the first user's lag): what ran. */
  static void first(Path requests, double lagMs, ObjectMapper json, List<Span> pauses, List<Span> safepoints,
      List<Span> compiles, List<Span> classLoads, List<Sample> samples, String loop) throws Exception {
    double firstSent = Double.MAX_VALUE;
    try (BufferedReader r = Files.newBufferedReader(requests)) {
      for (String line; (line = r.readLine()) != null; ) {
        JsonNode q = json.readTree(line);
        if (q.hasNonNull("sent_ms")) firstSent = Math.min(firstSent, q.get("sent_ms").asDouble());
      }
    }
    long w1 = (long) (firstSent * 1e6), w0 = w1 - (long) (lagMs * 1e6);
    Map<String, Integer> byThread = new TreeMap<>(), loopWork = new TreeMap<>(), loads = new TreeMap<>();
    int interp = 0, n = 0;
    for (Sample s : between(samples, w0, w1)) {
      if (s.nativeSample()) continue;
      n++;
      String g = s.thread().startsWith(loop) ? "event loop" : group(s.thread());
      byThread.merge(g, 1, Integer::sum);
      if (s.thread().startsWith(loop)) loopWork.merge(s.top(), 1, Integer::sum);
      if (s.interpreted()) interp++;
    }
    for (Span c : classLoads) {
      if (c.start() >= w0 && c.start() < w1) {
        loads.merge(c.what().startsWith(loop) ? "event loop" : group(c.what()), 1, Integer::sum);
      }
    }
    System.out.printf(Locale.ROOT, "== the %.1f ms before the first send: GC pause %.2f ms, other safepoints %.2f ms, JIT compiling %.1f ms,"
        + " class loads %s; %d samples (%d in interpreted code)%n", lagMs, overlap(pauses, w0, w1) / 1e6,
        (overlap(safepoints, w0, w1) - overlap(pauses, w0, w1)) / 1e6, overlap(compiles, w0, w1) / 1e6, loads, n, interp);
    System.out.println("  threads sampled: " + top(byThread, 8));
    System.out.println("  event loop's samples: " + top(loopWork, 8));
  }

  static String top(Map<String, Integer> m, int n) {
    int sum = m.values().stream().mapToInt(Integer::intValue).sum();
    StringBuilder b = new StringBuilder();
    m.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n).forEach(e ->
        b.append(String.format(Locale.ROOT, "%s %.0f%%; ", e.getKey(), 100.0 * e.getValue() / sum)));
    return b.toString();
  }

  /** What a sample's stack was doing, by the part of the code nearest its leaf. */
  static String part(List<RecordedFrame> frames) {
    String[][] parts = {
      {"io.github.gatlingllm.levels.", "levels"}, {"io.github.gatlingllm.protocol.LevelWatch", "levels"},
      {"io.github.gatlingllm.metrics.", "metrics"}, {"io.github.gatlingllm.api.SseParser", "SSE parse"},
      {"io.github.gatlingllm.api.", "event parse/body"}, {"io.github.gatlingllm.action.", "action/listener"},
      {"io.github.gatlingllm.protocol.", "run context"}, {"io.github.gatlingllm.prompt.", "prompts"},
      {"io.github.gatlingllm.", "gatling-llm other"}, {"io.gatling.http.client.", "Gatling HTTP client"},
      {"io.gatling.http.", "Gatling HTTP"}, {"io.gatling.core.stats.", "Gatling stats"},
      {"io.gatling.", "Gatling core"}, {"io.netty.channel.epoll.", "Netty epoll"},
      {"io.netty.handler.codec.http.", "Netty HTTP codec"}, {"io.netty.", "Netty"},
      {"com.fasterxml.jackson.", "Jackson"}, {"org.HdrHistogram.", "HdrHistogram"}
    };
    for (RecordedFrame f : frames) {
      if (f.getMethod() == null) continue;
      String c = f.getMethod().getType().getName();
      for (String[] p : parts) if (c.startsWith(p[0])) return p[1];
    }
    RecordedFrame f = frames.get(0);
    return f.getMethod() == null ? "?" : f.getMethod().getType().getName();
  }

  static String group(String thread) {
    if (thread.startsWith("gatling-llm-")) return thread;
    if (thread.startsWith("GatlingSystem") || thread.contains("akka") || thread.contains("pekko")) return "Gatling actors (" + thread.replaceAll("-\\d+$", "") + ")";
    if (thread.startsWith("gatling-")) return "another event loop";
    // Gatling's one actor thread: the injector, the feeders, the stats writer (checked on 3.16.0)
    if (thread.startsWith("pool-1-thread")) return "Gatling's actor thread (injector, feeders, stats writer)";
    return thread.replaceAll("[-#]?\\d+$", "");
  }

  static long nanos(Instant i) {
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }

  static double overlap(List<Span> spans, long w0, long w1) {
    double sum = 0;
    for (Span s : spans) {
      if (s.start() >= w1) break;
      if (s.end() > w0) sum += Math.min(s.end(), w1) - Math.max(s.start(), w0);
    }
    return sum;
  }

  static int count(List<Span> spans, long w0, long w1) {
    int n = 0;
    for (Span s : spans) {
      if (s.start() >= w1) break;
      if (s.start() >= w0) n++;
    }
    return n;
  }

  static List<Sample> between(List<Sample> samples, long w0, long w1) {
    int lo = 0, hi = samples.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (samples.get(mid).t() < w0) lo = mid + 1;
      else hi = mid;
    }
    List<Sample> out = new ArrayList<>();
    for (int i = lo; i < samples.size() && samples.get(i).t() < w1; i++) out.add(samples.get(i));
    return out;
  }

  static double pct(List<Double> xs, double p) {
    if (xs.isEmpty()) return 0;
    return xs.get(Math.max(0, (int) Math.ceil(p / 100 * xs.size()) - 1));
  }
}
