"""The Python asyncio client of ../shared/bench (vLLM's benchmark client's shape) with per-request
stamps, for scripts/bench-streams.sh: the same client code (aiohttp pool of C connections, a
semaphore of C, incremental UTF-8 SSE splitter, json.loads per event, time.perf_counter per event),
plus what vLLM's own client also keeps: the time of each token event, and an X-Request-Id header
per request so the benchmark server's own send times can be matched.

python3 bench-python-client.py URL C N OUTPUT_TOKENS RUN_ID STAMPS_FILE
Prints the client's JSON line (CPU is its own process's, user + system, over the N measured
requests), and writes one JSON line per request to STAMPS_FILE: id (RUN_ID-K; K < C are the
warm-up requests), ttft_ms, itl_ms. The client's module is BENCH_PY_CLIENT
(default /work/shared/bench/python_asyncio_client.py).
"""
import codecs
import importlib.util
import json
import os
import sys
import time

spec = importlib.util.spec_from_file_location(
    "python_asyncio_client",
    os.environ.get("BENCH_PY_CLIENT", "/work/shared/bench/python_asyncio_client.py"))
client = importlib.util.module_from_spec(spec)
spec.loader.exec_module(client)

run_id = sys.argv[5]
stamps = []
counter = [0]


async def one(session, url, out_tokens):
    """client.one, plus the request id header and the time of every token event."""
    rid = "%s-%d" % (run_id, counter[0])
    counter[0] += 1
    payload = {"model": "m", "messages": [{"role": "user", "content": "Say hello"}],
               "max_completion_tokens": out_tokens, "stream": True, "stream_options": {"include_usage": True}}
    st = time.perf_counter(); ttft = None; tokens = 0; buf = ""; dec = codecs.getincrementaldecoder("utf-8")()
    times = []
    async with session.post(url, json=payload, headers={"X-Request-Id": rid}) as resp:
        if resp.status != 200:
            return None
        async for chunk in resp.content.iter_any():
            buf += dec.decode(chunk)
            while "\n\n" in buf:
                msg, buf = buf.split("\n\n", 1)
                msg = msg.strip()
                if not msg or msg.startswith(":"):
                    continue
                data = msg.removeprefix("data: ")
                if data == "[DONE]":
                    continue
                now = time.perf_counter(); obj = json.loads(data)
                ch = obj.get("choices")
                if ch and ch[0].get("delta", {}).get("content"):
                    tokens += 1
                    times.append(now)
                    if ttft is None:
                        ttft = now - st
    if ttft is not None:
        stamps.append((rid, ttft, times))
    return ttft


client.one = one
client.asyncio.run(client.main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
with open(sys.argv[6], "w") as out:
    for rid, ttft, times in stamps:
        out.write(json.dumps({"id": rid, "ttft_ms": round(ttft * 1000, 3),
                              "itl_ms": [round((b - a) * 1000, 3) for a, b in zip(times, times[1:])]}) + "\n")
