#!/usr/bin/env python3
"""Summarise E4's refusal breakdown and move kinds (issue 25) from the files `rampa vastpipe-e4` writes.

Usage: scripts/e4-refusal-breakdown.py DIR [DIR...]   (each DIR holds e4.csv and e4-refusals.csv)

Prints, per workload and load, admissions with sharing alone and with moves (mean and 95 % interval
over seeds, from e4-summary.csv), the gain paired per seed, moves per admitted service and the moves
by kind, and the SLO violations; then, per workload, load and mode (sharing alone "on", with moves "moves"), summed over seeds:
the refused arrivals split by what the class needs alone on one GPU (several GPUs, a whole GPU, a part
of one) and by the fewest moves after which some GPU would have that room (0, 1, 2, >2; a single
move split by whether a tenant it moves has room elsewhere itself; see RefusalBreakdown), the refusals by SLO tightness, and the moves applied by kind.
"""
import collections
import csv
import sys


def admissions(d):
    summary = list(csv.DictReader(open(f"{d}/e4-summary.csv")))
    runs = list(csv.DictReader(open(f"{d}/e4.csv")))
    print(f"# {d}")
    print("| workload | load | refused by sharing alone | sharing alone | sharing + moves | gain vs sharing alone (%) "
          "| moves per admitted service | moves: migrate / recut / mode | viol |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for on in (r for r in summary if r["sharing"] == "on"):
        key = (on["workload"], on["offered_load"])
        mv = next(r for r in summary if r["sharing"] == "moves" and (r["workload"], r["offered_load"]) == key)
        mr = [r for r in runs if r["sharing"] == "moves" and (r["workload"], r["offered_load"]) == key]
        arrivals = sum(int(r["arrivals"]) for r in mr) / len(mr)
        kinds = " / ".join(str(sum(int(r[k]) for r in mr)) for k in ("migrations", "recuts", "mode_changes"))

        def iv(r, m, digits=1):
            return f"{float(r[m + '_mean']):.{digits}f} ({float(r[m + '_low']):.{digits}f} to {float(r[m + '_high']):.{digits}f})"

        print(f"| {key[0]} | {float(key[1]):g} | {100 * (1 - float(on['admitted_mean']) / arrivals):.1f} % | {iv(on, 'admitted')} "
              f"| {iv(mv, 'admitted')} | {iv(mv, 'gain_vs_sharing_percent')} | {iv(mv, 'moves_per_admitted', 3)} | {kinds} "
              f"| {int(on['slo_violations']) + int(mv['slo_violations'])} |")
    print()


def main(dirs):
    for d in dirs:
        admissions(d)
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
