"""The figures of one scripts/bench-streams.sh run (one line of its table, one line of its summary
file), or, with --summary SUMMARY_FILE, the medians and ratios over all runs. Called by the script.
"""
import json
import os
import statistics
import sys


def pct(xs, p):
    """Percentile p of xs by linear interpolation (numpy's default), nan when empty."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p / 100.0
    f = int(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def summary(path):
    rows = [l.rstrip("\n").split("\t") for l in open(path) if l.strip()]
    steady = {(s, load, rep): float(cpu) for s, load, rep, cpu, ok in rows if ok == "yes"}
    names = {"StreamLoadSimulation": "gatling-llm", "StockSseSimulation": "stock SSE", "python": "python",
             "StreamLoadSimulation+live": "gatling-llm with /metrics"}
    for load in dict.fromkeys(r[1] for r in rows):
        parts = []
        for sim in dict.fromkeys(r[0] for r in rows if r[1] == load):
            v = [c for (s, l, _), c in steady.items() if s == sim and l == load]
            if v:
                parts.append("%s %.0f us (%d steady)" % (names.get(sim, sim), statistics.median(v), len(v)))
        for top, base in (("StreamLoadSimulation", "StockSseSimulation"), ("StreamLoadSimulation", "python"),
                          ("StreamLoadSimulation+live", "StreamLoadSimulation")):
            ratios = [steady[(top, load, k)] / steady[(base, load, k)]
                      for (s, l, k) in steady if s == top and l == load
                      and (base, load, k) in steady]
            if ratios:
                parts.append("%s / %s: median %.3fx over %d pairs (%s)" % (
                    names[top], names[base], statistics.median(ratios), len(ratios),
                    ", ".join("%.3f" % x for x in ratios)))
        print("== %s: median cpu us a stream: %s" % (load, "; ".join(parts) if parts else "no steady run"))


def main(a):
    (sim, load, rep, log, cpu_file, run_folder, stamps_file, before_file, after_file, run_id, users,
     rate, requests_sent, loads, summary_file) = a
    users, rate, requests_sent = int(users), float(rate), int(requests_sent)
    before, after = json.load(open(before_file)), json.load(open(after_file))
    server = {r["id"]: r for r in after["requests"]}
    client = []  # (id, ttft_ms, itl_ms) of the measured streams that succeeded
    if sim == "python":
        line = json.loads([l for l in open(log) if l.startswith("{")][-1])
        achieved, ok, ko = line["streams_per_s"], line["ok"], line["N"] - line["ok"]
        cpu, user_sys, per_core = line["cpu_us_per_stream"], "-", line["streams_per_s_per_core"]
        for l in open(stamps_file):
            r = json.loads(l)
            if int(r["id"].rsplit("-", 1)[1]) >= users:  # the first C are its warm-up requests
                client.append((r["id"], r["ttft_ms"], r["itl_ms"]))
    else:
        c = json.load(open(cpu_file))
        if "cpu_us_per_stream" not in c:
            print("%s at %s: no steady window (see %s)" % (sim, load, log))
            return
        achieved, ok, ko = c["achieved_per_s"], c["ok"], c["streams"] - c["ok"]
        cpu, per_core = c["cpu_us_per_stream"], c["streams_per_core_s"]
        user_sys = "%d/%d" % (c["user_us_per_stream"], c["system_us_per_stream"])
        requests_sent = c["streams_started"]
        jsonl = os.path.join(run_folder, "llm-requests.jsonl") if run_folder else ""
        if jsonl and os.path.exists(jsonl):
            lines = [json.loads(l) for l in open(jsonl)]
            requests_sent = len(lines)
            for r in lines:
                if (r["phase"] == "measured" and r["status"] == "ok" and r["ttft_ms"] is not None
                        and r["start_ms"] >= c["counted_from_ms"]):
                    client.append(("%s-%s-%d" % (run_id, r["phase"], r["index"]), r["ttft_ms"], r.get("itl_ms") or []))
    ttft = [t for _, t, _ in client]
    added, errors, unmatched = [], [], 0
    for rid, t, itl in client:
        s = server.get(rid)
        if s is None or not s["sent_ns"]:
            unmatched += 1
            continue
        sent = [x / 1e6 for x in s["sent_ns"]]
        added.append(t - sent[0])
        gaps = [b - a for a, b in zip(sent, sent[1:])]
        if len(gaps) == len(itl):
            errors.extend(abs(x - y) for x, y in zip(itl, gaps))
        else:
            unmatched += 1
    conns = after["connections_accepted"] - before["connections_accepted"]
    posts = sum(after["requests_by_status"].values()) - sum(before["requests_by_status"].values())
    ttft50 = pct(ttft, 50)
    steady = ko == 0 and (rate == 0 or abs(achieved - rate) <= 0.02 * rate) and not ttft50 > 100
    fmt = lambda a, b: "-" if a != a else "%.3f/%.3f" % (a, b)
    print("%-20s %6s %3s %9.0f %7d %4d %10.1f %9s %11.0f %17s %17s %17s %8d %6s %6s" % (
        sim, load, rep, achieved, ok, ko, cpu, user_sys, per_core,
        fmt(ttft50, pct(ttft, 99)), fmt(pct(added, 50), pct(added, 99)),
        fmt(statistics.mean(errors) if errors else float("nan"), pct(errors, 99)),
        conns, "%.2f" % (posts / requests_sent) if requests_sent else "-", "yes" if steady else "NO"))
    if unmatched:
        print("    (%d measured streams not matched with the server's records)" % unmatched)
    print("    load average before/after: %s; %d measured streams; %d POSTs answered for %d sent" % (
        loads, len(client), posts, requests_sent))
    with open(summary_file, "a") as out:
        out.write("%s\t%s\t%s\t%.1f\t%s\n" % (sim, load, rep, cpu, "yes" if steady else "no"))


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        summary(sys.argv[2])
    else:
        main(sys.argv[1:])
