"""Where a Gatling JVM's CPU goes, from a JFR recording's execution samples (Java code only; kernel
time in syscalls shows as the Java frame that made the call, native code as jdk.NativeMethodSample,
not counted here).

python3 scripts/jfr-cpu-split.py RECORDING.jfr [THREAD_PREFIX] [SINCE_S]
  THREAD_PREFIX: only samples of threads whose name starts with it (e.g. gatling-1, the event loop)
  SINCE_S: only samples taken that many seconds or more after the recording started
Prints, for each part of gatling-llm and of Gatling/Netty, its own share of the samples
(exclusive: a sample goes to the part nearest its leaf frame, library frames such as Jackson's or
the JDK's counting for the part that called them; the shares add up to 100%) and the share of the
samples whose stack holds it (inclusive), then the top self frames.
"""
import collections
import json
import subprocess
import sys
from datetime import datetime

# Frames that belong to no part of their own: a sample in them counts for the part that called them.
LIBRARIES = ("com.fasterxml.jackson.", "java.", "jdk.", "sun.", "scala.", "com.typesafe.")

PARTS = [
    ("gatling-llm: LlmAction (send)", "io.github.gatlingllm.action.LlmAction."),
    ("gatling-llm: ResponseListener (all)", "io.github.gatlingllm.action.ResponseListener."),
    ("  SseParser", "io.github.gatlingllm.api.SseParser."),
    ("  StreamEvent parse (Jackson)", "io.github.gatlingllm.api.StreamEventParser."),
    ("  RequestTimer", "io.github.gatlingllm.metrics.RequestTimer."),
    ("  RequestClassifier", "io.github.gatlingllm.metrics.RequestClassifier."),
    ("  RunContext.record", "io.github.gatlingllm.protocol.RunContext.record"),
    ("    RequestRecordJson", "io.github.gatlingllm.report.RequestRecordJson."),
    ("    RunRecorder (file)", "io.github.gatlingllm.report.RunRecorder."),
    ("    MetricsAggregator", "io.github.gatlingllm.metrics.MetricsAggregator."),
    ("  stats rows (logRow)", "io.github.gatlingllm.internal.GatlingCore.logRow"),
    ("gatling-llm: feeder (Workload/PromptSource)", "io.github.gatlingllm.feeder."),
    ("gatling-llm: prompts", "io.github.gatlingllm.prompt."),
    ("gatling-llm: request body", "io.github.gatlingllm.api.RequestBodies."),
    ("Gatling request build (HttpRequestDef)", "io.gatling.http.request.HttpRequestDef."),
    ("Gatling HTTP client (io.gatling.http.client)", "io.gatling.http.client."),
    ("Gatling SSE", "io.gatling.http.action.sse."),
    ("Gatling stats (DataWriter, LogFileDataWriter)", "io.gatling.core.stats."),
    ("Gatling core actions/session", "io.gatling.core.action."),
    ("Gatling other", "io.gatling."),
    ("Netty HTTP codec", "io.netty.handler.codec."),
    ("Netty buffers", "io.netty.buffer."),
    ("Netty epoll/nio transport", "io.netty.channel."),
    ("Netty other", "io.netty."),
    ("gatling-llm other", "io.github.gatlingllm."),
    ("Logback/SLF4J", "ch.qos.logback."),
]


def owner(frames):
    """The part of the frame nearest the leaf that is not a library frame, or the leaf's library."""
    for f in frames:
        if f.startswith(LIBRARIES):
            continue
        best = None
        for label, needle in PARTS:
            # the most specific needle wins (SseParser over "gatling-llm other")
            if f.startswith(needle) and (best is None or len(needle) > len(best[1])):
                best = (label, needle)
        if best and best[0] == "gatling-llm other":
            return "gatling-llm: " + f.rsplit(".", 2)[1].split("$")[0]
        if best:
            return best[0]
        return "other (" + f.rsplit(".", 2)[0] + ")"
    return "library only (" + frames[0].rsplit(".", 1)[0] + ")"


def main(path, prefix="", since=0.0):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "200", "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    times = [datetime.fromisoformat(e["values"]["startTime"][:26]) for e in events]
    t0 = min(times) if times else None
    counts = collections.Counter()
    owners = collections.Counter()
    selfs = collections.Counter()
    threads = collections.Counter()
    n = 0
    for e, t in zip(events, times):
        v = e["values"]
        name = (v.get("sampledThread") or {}).get("javaName") or "?"
        if prefix and not name.startswith(prefix):
            continue
        if (t - t0).total_seconds() < since:
            continue
        frames = ["%s.%s" % (f["method"]["type"]["name"].replace("/", "."), f["method"]["name"])
                  for f in (v.get("stackTrace") or {}).get("frames", [])]
        if not frames:
            continue
        n += 1
        threads[name.rstrip("0123456789-")] += 1
        selfs[frames[0]] += 1
        owners[owner(frames)] += 1
        for label, needle in PARTS:
            if any(f.startswith(needle) for f in frames):
                counts[label] += 1
    print("%d execution samples%s%s" % (n, " of threads %s*" % prefix if prefix else "",
                                         " after %ss" % since if since else ""))
    print("by thread: " + ", ".join("%s %.0f%%" % (k, 100.0 * c / n) for k, c in threads.most_common(8)))
    print("  own %   incl %  part")
    labels = [label for label, _ in PARTS] + sorted(k for k in owners if k not in dict(PARTS))
    for label in labels:
        if counts[label] or owners[label]:
            print("  %5.1f%%  %5.1f%%  %s" % (100.0 * owners[label] / n, 100.0 * counts[label] / n, label))
    print("top self frames:")
    for f, c in selfs.most_common(25):
        print("  %5.1f%%  %s" % (100.0 * c / n, f))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "",
         float(sys.argv[3]) if len(sys.argv) > 3 else 0.0)
