#!/usr/bin/env python3
"""Print the table of `make bench-peers` from BUILD/peers/results.jsonl: one JSON object per
line (a peer's result), or "@FILE" (a `sinew bench --json` file whose rows are sinew's)."""
import json
import sys

ENGINES = ["sinew", "box2d", "chipmunk"]
QUALITY = {"joint_separation": "max joint sep (m)", "pyramid_drift": "pyramid drift (m)",
           "energy_change": "energy change"}


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("@"):
                with open(line[1:]) as g:
                    rows.extend(json.load(g)["rows"])
            elif line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def ms(x):
    return "—" if x is None else ("%.4f" % x if x < 1 else "%.3f" % x if x < 100 else "%.1f" % x)


def quality(kind, row):
    x = row["quality"]
    if x is None:
        return "NaN"
    if kind == "energy_change":
        return "%+.2f%%" % (100 * x)
    text = "%.3g" % x
    # the worst limit overshoot, where the row has it (sinew bench and the peers, scenes with joints)
    if kind == "joint_separation" and "limit_overshoot_deg" in row:
        limit = row["limit_overshoot_deg"]
        text += " (limit %s)" % ("NaN" if limit is None else "%.3g°" % limit)
    return text


def main():
    rows = load(sys.argv[1])
    scenes = []
    by = {}
    for r in rows:
        if r["scene"] not in scenes:
            scenes.append(r["scene"])
        by[(r["scene"], r["engine"])] = r
    print("| scene | bodies | steps (s/b/c) | sinew ms/step | Box2D 2.4 ms/step | Chipmunk 7 ms/step | "
          "sinew/Box2D | sinew/Chipmunk | quality | sinew | Box2D | Chipmunk |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    notes = []
    for s in scenes:
        r = {e: by.get((s, e)) for e in ENGINES}
        base = r["sinew"] or r["box2d"] or r["chipmunk"]
        kind = base["quality_kind"]

        def ratio(peer):
            if r["sinew"] is None or r[peer] is None or not r[peer]["ms_per_step"] or r["sinew"]["ms_per_step"] is None:
                return "—"
            return "%.3g" % (r["sinew"]["ms_per_step"] / r[peer]["ms_per_step"])

        steps = "/".join(str(r[e]["steps"]) if r[e] else "—" for e in ENGINES)
        print("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            s, base["bodies"], steps, *(ms(r[e]["ms_per_step"]) if r[e] else "skipped" for e in ENGINES),
            ratio("box2d"), ratio("chipmunk"), QUALITY[kind],
            *(quality(kind, r[e]) if r[e] else "—" for e in ENGINES)))
        for e in ("box2d", "chipmunk"):
            if r[e] and r[e].get("notes"):
                notes.append("%s, %s: %s" % (s, e, r[e]["notes"]))
    print()
    print("ms/step: median over the runs of each run's mean over steps 1..N-1. Ratios below 1: sinew is faster. "
          "Joint scenes: the largest separation, and in brackets the worst limit overshoot.")
    for n in notes:
        print("- " + n)


if __name__ == "__main__":
    main()
