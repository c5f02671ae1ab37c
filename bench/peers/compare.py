#!/usr/bin/env python3
"""Print the table of `make bench-peers` from BUILD/peers/results.jsonl: one JSON object per
line (a peer's result), or "@FILE" (a `sinew bench --json` file whose rows are sinew's).

Columns for the engines that have rows (a peer that was not built has none: Box2D v3 without
BOX2D_V3=DIR). Times are wall ms/step and, in brackets, CPU ms/step; the ratios are sinew's CPU
time over the peer's (wall time where a row has no CPU figure)."""
import json
import sys

ENGINES = ["sinew", "box2d", "chipmunk", "box2d_v3"]
NAMES = {"sinew": "sinew", "box2d": "Box2D 2.4", "chipmunk": "Chipmunk 7", "box2d_v3": "Box2D v3"}
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


def times(row):
    if row is None:
        return "skipped"
    cpu = row.get("cpu_ms_per_step")
    return ms(row["ms_per_step"]) + ("" if cpu is None else " (%s)" % ms(cpu))


def per_step(row):
    """The figure ratios use: CPU ms/step, or wall ms/step for a row without it."""
    if row is None:
        return None
    cpu = row.get("cpu_ms_per_step")
    return cpu if cpu is not None else row["ms_per_step"]


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
    engines = [e for e in ENGINES if any(k[1] == e for k in by)]
    peers = [e for e in engines if e != "sinew"]
    letters = "/".join(NAMES[e][0].lower() if e != "box2d_v3" else "3" for e in engines)
    header = ["scene", "bodies", "steps (%s)" % letters]
    header += ["%s ms/step" % NAMES[e] for e in engines]
    header += ["sinew/%s" % NAMES[p] for p in peers]
    header += ["quality"] + [NAMES[e] for e in engines]
    print("| " + " | ".join(header) + " |")
    align = ["---", "---:", "---"] + ["---:"] * (len(engines) + len(peers)) + ["---"] + ["---:"] * len(engines)
    print("| " + " | ".join(align) + " |")
    notes = []
    for s in scenes:
        r = {e: by.get((s, e)) for e in engines}
        base = next(r[e] for e in engines if r[e])
        kind = base["quality_kind"]

        def ratio(peer):
            a, b = per_step(r["sinew"]), per_step(r[peer])
            return "—" if a is None or not b else "%.3g" % (a / b)

        cells = [s, str(base["bodies"]), "/".join(str(r[e]["steps"]) if r[e] else "—" for e in engines)]
        cells += [times(r[e]) for e in engines]
        cells += [ratio(p) for p in peers]
        cells += [QUALITY[kind]] + [quality(kind, r[e]) if r[e] else "—" for e in engines]
        print("| " + " | ".join(cells) + " |")
        for e in peers:
            if r[e] and r[e].get("notes"):
                notes.append("%s, %s: %s" % (s, NAMES[e], r[e]["notes"]))
    print()
    print("ms/step: median over the runs of each run's mean over steps 1..N-1, wall time and (in brackets) CPU time. "
          "Ratios: sinew's CPU ms/step over the peer's; below 1 sinew is faster. "
          "Joint scenes: the largest separation, and in brackets the worst limit overshoot.")
    for n in notes:
        print("- " + n)


if __name__ == "__main__":
    main()
