#!/usr/bin/env python3
"""threads.py PID snap FILE | threads.py PID diff FILE: the CPU (user + system ticks) of a process's threads between
the snapshot and now, by thread name (numbers dropped, compiler threads together), largest first."""
import os, re, sys, json
pid, mode, f = sys.argv[1], sys.argv[2], sys.argv[3]
def snap():
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            s = open(f"/proc/{pid}/task/{t}/stat").read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        rest = s.rsplit(")", 1)[1].split()
        out[t] = (name, int(rest[11]) + int(rest[12]))
    return out
if mode == "snap":
    json.dump(snap(), open(f, "w"))
else:
    before = json.load(open(f)); now = snap(); groups = {}
    for t, (name, ticks) in now.items():
        d = ticks - (before.get(t, [name, 0])[1])
        g = re.sub(r"[-#]?\d+$", "", name)
        g = re.sub(r"C[12] CompilerThre.*", "C1/C2 Compiler", g)
        groups[g] = groups.get(g, 0) + d
    total = sum(groups.values()) or 1
    top = sorted(groups.items(), key=lambda kv: -kv[1])[:8]
    print("threads: " + ", ".join(f"{g} {100*v/total:.0f}%" for g, v in top if v > 0) + f" (total {total} ticks)")
