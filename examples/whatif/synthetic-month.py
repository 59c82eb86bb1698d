#!/usr/bin/env python3
"""A synthetic month for `squall simulate`: N jobs (100,000 by default) over 30 days, in
Squall's jsonl trace format, on stdout. Seeded, so the same arguments give the same file.

Each job's GPUs and runtime are drawn from the bundled Microsoft Philly jobs
(simulator/src/main/resources/data/philly-multigpu-jobs.json, CC-BY-4.0, see its README),
runtimes capped at 24 h; arrivals are uniform over the month; accounts are four teams.

    python3 examples/whatif/synthetic-month.py [JOBS] [SEED] > month.jsonl
"""
import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
root = Path(__file__).resolve().parents[2]
philly = json.loads((root / "simulator/src/main/resources/data/philly-multigpu-jobs.json").read_text())
start = datetime(2026, 10, 1, tzinfo=timezone.utc)
month = 30 * 24 * 3600
arrivals = sorted(rnd.random() * month for _ in range(jobs))
for i, at in enumerate(arrivals):
    p = rnd.choice(philly)
    gpus = p["num_gpus"]
    nodes = (gpus + 7) // 8
    print(json.dumps({
        "id": str(i + 1),
        "submit": (start + timedelta(seconds=at)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "account": rnd.choice(["vision", "speech", "nlp", "rl"]),
        "nodes": nodes,
        "gpus_per_node": (gpus + nodes - 1) // nodes,
        "runtime_s": round(min(p["runtime"] * 60, 24 * 3600)),
    }))
