#!/usr/bin/env python3
"""Summarise E4's refusal breakdown and move kinds (issue 25) from the files `rampa vastpipe-e4` writes.

Usage: scripts/e4-refusal-breakdown.py DIR [DIR...]   (each DIR holds e4.csv and e4-refusals.csv)

Prints, per workload, load and mode (sharing alone "on", with moves "moves"), summed over seeds:
the refused arrivals split by what the class needs alone on one GPU (several GPUs, a whole GPU, a part
of one) and by the fewest moves after which some GPU would have that room (0, 1, 2, >2; a single
move split by whether a tenant it moves has room elsewhere itself; see RefusalBreakdown), the refusals by SLO tightness, and the moves applied by kind.
"""
import collections
import csv
import sys


def main(dirs):
    for d in dirs:
        refusals = list(csv.DictReader(open(f"{d}/e4-refusals.csv")))
        runs = list(csv.DictReader(open(f"{d}/e4.csv")))
        keys = sorted({(r["workload"], float(r["offered_load"]), r["sharing"]) for r in runs})
        print(f"# {d}")
        print("| workload | load | mode | refused | multi-GPU | whole GPU: 0 / 1 (tenant relocatable) / 1 (stuck) / 2 / >2 moves to room "
              "| part of a GPU: 0 / 1 reloc. / 1 stuck / 2 / >2 "
              "| tight / medium / loose | moves: migrate / recut / mode |")
        print("|---|---:|---|---:|---:|---|---|---|---|")
        for w, load, mode in keys:
            mine = [r for r in refusals if (r["workload"], float(r["offered_load"]), r["sharing"]) == (w, load, mode)]
            by = collections.Counter()
            tight = collections.Counter()
            for r in mine:
                n = int(r["count"])
                by[(r["demand"], r["moves_to_room"])] += n
                tight[r["class"].rsplit("/", 1)[-1]] += n
            total = sum(by.values())
            steps = ("0", "1-relocatable", "1-stuck", "2", ">2")
            whole = " / ".join(str(by[("whole-gpu", m)]) for m in steps)
            part = " / ".join(str(by[("part-gpu", m)]) for m in steps)
            ts = " / ".join(str(tight[t]) for t in ("tight", "medium", "loose"))
            mr = [r for r in runs if (r["workload"], float(r["offered_load"]), r["sharing"]) == (w, load, mode)]
            kinds = " / ".join(str(sum(int(r[k]) for r in mr)) for k in ("migrations", "recuts", "mode_changes"))
            print(f"| {w} | {load:g} | {mode} | {total} | {by[('multi-gpu', '-')]} | {whole} | {part} | {ts} | {kinds} |")
        print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
