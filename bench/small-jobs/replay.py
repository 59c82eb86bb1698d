#!/usr/bin/env python3
"""Replays a `squall bench small-jobs --write-trace` CSV on a real scheduler, in real time.

    replay.py slurm|squall TRACE.csv OUT_DIR

Each job is submitted at its offset (seconds after the replay starts), one after the other in the
trace's order, as a batch script `sleep RUNTIME` asking -N NODES --gres=gpu:G --time=MINUTES (the
options the what-if simulator gives the same job: no --exclusive, a gang's --gres=gpu:8 takes all
of each node's GPUs):

- slurm: `sbatch -J sqNNNN -o /dev/null ... --wrap "sleep RUNTIME"`; a job is over once Slurm's job
  completion log (jobcomp/filetxt, the JobCompLoc of SLURM_CONF's slurm.conf) lists it, with its
  SubmitTime, StartTime and EndTime (whole seconds).
- squall: `POST /v1/jobs` to the controller at SQUALL_URL (http://127.0.0.1:6901) as SQUALL_TOKEN
  (alice-token); a job is over once `GET /v1/accounting` gives it an end, with its submit, start and
  end times (milliseconds). The start is, in both, when the scheduler gave the job its nodes.

Then it prints the figures SmallJobsBench prints, worked out the same way: the mean wait (start
minus submission) of single-GPU jobs, of gangs, of 2- and 4-node gangs and of all jobs, the
makespan (the first submission to the last end), and where single-GPU jobs' waiting went (every GPU
busy, or some idle, and of that while a gang waited). OUT_DIR gets jobs.csv (one line a job).
"""
import csv
import datetime
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

NODES = 64
GPUS_PER_NODE = 8


def slurm_conf_value(key):
    conf = os.environ.get("SLURM_CONF", "/etc/slurm/slurm.conf")
    with open(conf) as f:
        for line in f:
            if line.split("=", 1)[0].strip().lower() == key.lower():
                return line.split("=", 1)[1].strip()
    raise SystemExit(f"replay: no {key} in {conf}")


def read_trace(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [{"submit": float(r["submit_s"]), "gpus_per_node": int(r["gpus_per_node"]), "nodes": int(r["nodes"]),
             "runtime": r["runtime_s"], "limit_s": int(r["time_limit_s"])} for r in rows]


class Slurm:
    """The real Slurm of SLURM_CONF: sbatch, and the job completion log."""

    def __init__(self):
        self.jobcomp = slurm_conf_value("JobCompLoc")
        self.before = set(parse_jobcomp(self.jobcomp))

    def submit(self, i, job):
        cmd = ["sbatch", "--parsable", "-J", f"sq{i:04d}", "-o", "/dev/null", "-N", str(job["nodes"]),
               f"--gres=gpu:{job['gpus_per_node']}", f"--time={job['limit_s'] // 60}", "--wrap",
               f"sleep {job['runtime']}"]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
        return int(out.split(";")[0])

    def ended(self, ids):
        """Job id -> (state, submitted, started, ended) in epoch seconds, of the ids that have ended."""
        out = {}
        for jid, f in parse_jobcomp(self.jobcomp).items():
            if jid in ids:
                if jid in self.before:
                    raise SystemExit(f"replay: job {jid} was in {self.jobcomp} before the replay: start from an empty log")
                out[jid] = (f["JobState"], epoch(f["SubmitTime"]), epoch(f["StartTime"]), epoch(f["EndTime"]))
        return out

    def name(self):
        version = subprocess.run(["sbatch", "--version"], capture_output=True, text=True).stdout.strip().split()[-1]
        return f"Slurm {version}"


class Squall:
    """A Squall controller over its HTTP API."""

    def __init__(self):
        self.url = os.environ.get("SQUALL_URL", "http://127.0.0.1:6901")
        self.token = os.environ.get("SQUALL_TOKEN", "alice-token")
        self.since = datetime.datetime.now(datetime.timezone.utc).isoformat()

    def call(self, method, path, body=None):
        req = urllib.request.Request(self.url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + self.token,
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())

    def submit(self, i, job):
        options = {"job-name": f"sq{i:04d}", "output": "/dev/null", "nodes": str(job["nodes"]),
                   "gres": f"gpu:{job['gpus_per_node']}", "time": str(job["limit_s"] // 60)}
        return int(self.call("POST", "/v1/jobs", {"script": f"#!/bin/bash\nsleep {job['runtime']}\n",
                                                  "submit_dir": "/tmp", "options": options})["job_id"])

    def ended(self, ids):
        rows = self.call("GET", "/v1/accounting?start=" + urllib.parse.quote(self.since))["jobs"]
        return {int(r["job_id_raw"]): (r["state"], iso(r["submit_time"]), iso(r["start_time"]), iso(r["end_time"]))
                for r in rows if int(r["job_id_raw"]) in ids and r["end_time"]}

    def name(self):
        return f"Squall at {self.url}"


def parse_jobcomp(path):
    """JobId -> {field: value} from jobcomp/filetxt lines ("JobId=12 ... StartTime=... EndTime=...")."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            fields = dict(m.groups() for m in re.finditer(r"(\w+)=(\S*)", line))
            if "JobId" in fields:
                out[int(fields["JobId"])] = fields
    return out


def epoch(slurm_time):
    # Slurm prints local time without a zone; only differences are used, so the zone cancels out.
    return datetime.datetime.strptime(slurm_time, "%Y-%m-%dT%H:%M:%S").timestamp()


def iso(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def mean(xs):
    return round(sum(xs) / len(xs), 1) if xs else 0


def waiting_time(outcomes):
    """SmallJobsBench.WaitingTime: single-GPU job-seconds waited with every GPU busy, with some idle,
    and of those while a gang waited, from the outcomes' submissions, starts and ends."""
    changes = {}
    for o in outcomes:
        kind = 1 if o["gpus"] == 1 else 2
        changes.setdefault(o["submitted"], [0, 0, 0])[kind] += 1
        start = changes.setdefault(o["started"], [0, 0, 0])
        start[0] += o["gpus"]
        start[kind] -= 1
        changes.setdefault(o["ended"], [0, 0, 0])[0] -= o["gpus"]
    held = single = gangs = 0
    last = 0
    busy = idle = idle_gang = 0.0
    for t in sorted(changes):
        job_seconds = single * (t - last)
        if held >= NODES * GPUS_PER_NODE:
            busy += job_seconds
        else:
            idle += job_seconds
            idle_gang += job_seconds if gangs > 0 else 0
        last = t
        held += changes[t][0]
        single += changes[t][1]
        gangs += changes[t][2]
    return busy, idle, idle_gang


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("slurm", "squall"):
        raise SystemExit(__doc__)
    trace = read_trace(sys.argv[2])
    out_dir = sys.argv[3]
    os.makedirs(out_dir, exist_ok=True)
    for i, job in enumerate(trace):
        if job["limit_s"] % 60:
            raise SystemExit(f"replay: job {i}: time limit {job['limit_s']} s is not whole minutes")
    target = Slurm() if sys.argv[1] == "slurm" else Squall()
    load_before = os.getloadavg()

    ids = []
    lags = []
    loads = []
    t0 = time.monotonic()
    sampled = t0
    for i, job in enumerate(trace):
        delay = t0 + job["submit"] - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if time.monotonic() - sampled >= 5:
            loads.append(os.getloadavg()[0])
            sampled = time.monotonic()
        lags.append(time.monotonic() - t0 - job["submit"])
        ids.append(target.submit(i, job))
    submitted_at = time.monotonic() - t0
    print(f"replay: submitted {len(ids)} jobs in {submitted_at:.1f} s (the trace's last offset "
          f"{trace[-1]['submit']:.1f} s); submission lag mean {sum(lags) / len(lags):.2f} s, max {max(lags):.2f} s",
          file=sys.stderr, flush=True)

    wanted = set(ids)
    while True:
        done = target.ended(wanted)
        if len(done) == len(wanted):
            break
        loads.append(os.getloadavg()[0])
        time.sleep(5)
    wall = time.monotonic() - t0

    outcomes = []
    for i, (job, jid) in enumerate(zip(trace, ids)):
        state, submitted, started, ended = done[jid]
        outcomes.append({"index": i, "job_id": jid, "gpus": job["gpus_per_node"] * job["nodes"],
                         "nodes": job["nodes"], "state": state, "submitted": submitted, "started": started,
                         "ended": ended})
    first = min(o["submitted"] for o in outcomes)
    for o in outcomes:
        for k in ("submitted", "started", "ended"):
            o[k] -= first
        o["wait"] = o["started"] - o["submitted"]
    with open(os.path.join(out_dir, "jobs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["index", "job_id", "gpus", "nodes", "state", "submitted", "started",
                                          "ended", "wait"])
        w.writeheader()
        w.writerows(outcomes)

    single = [o["wait"] for o in outcomes if o["gpus"] == 1]
    gangs = [o["wait"] for o in outcomes if o["gpus"] != 1]
    two = [o["wait"] for o in outcomes if o["gpus"] == 16]
    four = [o["wait"] for o in outcomes if o["gpus"] == 32]
    busy, idle, idle_gang = waiting_time(outcomes)
    completed = sum(1 for o in outcomes if o["state"] == "COMPLETED")
    print(f"single-GPU jobs waited {busy:.0f} job-seconds with every GPU busy and {idle:.0f} with a GPU idle "
          f"({idle_gang:.0f} of them while a gang waited)")
    print(f"replayed {len(outcomes)} jobs ({len(single)} single-GPU, {len(gangs)} gangs: {len(two)} of 2 nodes, "
          f"{len(four)} of 4) on {NODES} 8-GPU nodes on {target.name()}: {wall:.0f} s wall, load average "
          f"{load_before[0]:.1f} before, {sum(loads) / max(1, len(loads)):.1f} mean while it ran (1-minute figure every 5 s)")
    print(json.dumps({"jobs": len(outcomes), "completed": completed, "wait_1_gpu_mean_s": mean(single),
                      "wait_gangs_mean_s": mean(gangs), "wait_2_node_mean_s": mean(two),
                      "wait_4_node_mean_s": mean(four), "wait_mean_s": mean([o["wait"] for o in outcomes]),
                      "makespan_s": round(max(o["ended"] for o in outcomes))}, separators=(",", ":")))


if __name__ == "__main__":
    main()
