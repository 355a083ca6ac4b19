#!/usr/bin/env python3
"""Sierra against its anchors (issue #43): ozz-animation (built twice: default and AVX2 flags) and
FastNoise2, on the workloads of `sierra bench anim` and `sierra bench noise`, in interleaved rounds.

Each round runs, in an order that alternates from round to round, every anchor harness and the two
Sierra benchmarks once; a ratio is Sierra's figure over the anchor's from the same round, and the
table gives the median and the range (min-max) over the rounds. Figures within a run are the
fastest pass. Not run by CI: it needs the anchors built beside Sierra (README.md here).

Usage: compare.py --sierra target/release/sierra --ozz-default DIR/ozz_anchor_default \
         --ozz-avx2 DIR/ozz_anchor_avx2 --fastnoise2 DIR/fastnoise2_anchor [--rounds 5] [--json]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out


def figures(text):
    """`name: <number> ns/...` lines of a harness, as a dict."""
    return {m.group(1): float(m.group(2))
            for m in re.finditer(r"^([a-z0-9 +\-]+): ([0-9.]+) ns/", text, re.M)}


def loadavg():
    with open("/proc/loadavg") as f:
        return " / ".join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sierra", required=True)
    ap.add_argument("--ozz-default", required=True)
    ap.add_argument("--ozz-avx2", required=True)
    ap.add_argument("--fastnoise2", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not 1 <= a.rounds <= 100:
        sys.exit("compare.py: --rounds must be in 1..=100")

    def anim():
        return json.loads(run([a.sierra, "bench", "anim", "--json", "--frames", str(a.frames)]))

    def noise():
        return json.loads(run([a.sierra, "bench", "noise", "--json", "--no-c-baseline", "--rounds", "1"]))

    steps = [
        ("ozz_default", lambda: figures(run([a.ozz_default, "1000", str(a.frames)]))),
        ("ozz_avx2", lambda: figures(run([a.ozz_avx2, "1000", str(a.frames)]))),
        ("sierra_anim", anim),
        ("fastnoise2", lambda: figures(run([a.fastnoise2, "20"]))),
        ("sierra_noise", noise),
    ]
    load_start, started = loadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = {}
    for r in range(a.rounds):
        got = {}
        for name, step in (steps if r % 2 == 0 else steps[::-1]):
            got[name] = step()
        sa, sn = got["sierra_anim"], got["sierra_noise"]
        full = sa["one_thread_us_per_character"] * 1e3
        l2mp = sa["stages_over_crowd"]["l2m_palette_fused_ns"]
        skel = sa["skel_c"]["one_thread_ns_per_character"]
        fn2 = got["fastnoise2"]
        sample = {
            "anim full job / ozz (default build)": (full, got["ozz_default"]["full job"], sa["limits"]["full_job_ns"]),
            "anim full job / ozz (AVX2 build)": (full, got["ozz_avx2"]["full job"], sa["limits"]["full_job_ns"]),
            "local-to-model + palette / skel.c job": (l2mp, skel, sa["limits"]["l2m_palette_ns"]),
            "local-to-model + palette / ozz (default)": (l2mp, got["ozz_default"]["local-to-model + palette"], sa["limits"]["l2m_palette_ns"]),
            "local-to-model + palette / ozz (AVX2)": (l2mp, got["ozz_avx2"]["local-to-model + palette"], sa["limits"]["l2m_palette_ns"]),
            "3D Perlin grid 128^3 / FastNoise2": (sn["grid_128_ns_per_sample"], fn2["grid3"], sn["limits"]["grid3_ns_per_sample"]),
            "2D Perlin grid 1024^2 / FastNoise2": (sn["noise2d_grid_1024_ns_per_sample"], fn2["perlin2"], sn["limits"]["noise2d_ns_per_sample"]),
            "2D fBm 6 oct 1024^2 / FastNoise2": (sn["fbm2d_grid_1024_ns_per_sample"], fn2["fbm2"], sn["limits"]["fbm2d_ns_per_sample"]),
        }
        for k, v in sample.items():
            rows.setdefault(k, []).append(v)
    result = {
        "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown"),
        "started": started, "rounds": a.rounds,
        "load_start": load_start, "load_end": loadavg(),
        "figures": {k: {"sierra_median": statistics.median(s for s, _, _ in v),
                        "anchor_median": statistics.median(b for _, b, _ in v),
                        "limit_median": statistics.median(l for _, _, l in v),
                        "ratio_median": statistics.median(s / b for s, b, _ in v),
                        "ratio_min": min(s / b for s, b, _ in v),
                        "ratio_max": max(s / b for s, b, _ in v)} for k, v in rows.items()},
    }
    if a.json:
        print(json.dumps(result, indent=2))
        return
    print(f"CPU {result['cpu']}; {a.rounds} interleaved rounds from {started}; "
          f"load average {result['load_start']} at the start, {result['load_end']} at the end")
    print("| figure | Sierra (median) | anchor (median) | Sierra's arithmetic floor | ratio median | ratio min-max |")
    print("|---|---:|---:|---:|---:|---:|")
    for k, f in result["figures"].items():
        unit = "ns/character" if "anim" in k or "palette" in k else "ns/sample"
        print(f"| {k} | {f['sierra_median']:.3g} {unit} | {f['anchor_median']:.3g} | {f['limit_median']:.3g} | "
              f"**{f['ratio_median']:.3f}x** | {f['ratio_min']:.3f}-{f['ratio_max']:.3f} |")


if __name__ == "__main__":
    main()
