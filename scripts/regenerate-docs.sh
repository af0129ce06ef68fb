#!/usr/bin/env bash
# Regenerates the experiment outputs under docs/ with the exact commands the docs quote.
#
# The repository keeps only what the docs show: the PNG charts, the summaries (e*-summary.csv/.md,
# stdout.txt) and raw CSVs up to 256 KB. SVG charts and the large raw CSVs (E1's e1.csv, E3's
# e3-replays.csv) are generated outputs, ignored by git (.gitignore): run this script to get them.
#
# Usage: scripts/regenerate-docs.sh [STEP ...]     (no STEP: every step, several hours on 2 cores)
# Steps: admission admission-large e1 e2 e2-redraw e2-default e3 e4 e4-moves learned-eval learned-train
# (every command overwrites its outputs in place; e2-redraw only redraws E2's summaries and charts from
# the committed raw CSV files, in seconds)
# Times measured on a shared 2-core machine are in each doc; the slow ones are e1 (5-7 min),
# e2 (about 1 h for the four sweeps), e3 (about 1 h for the four), e4 (10-20 min each), e4-moves (5-10 min each),
# learned-train (15 min at load 10).
#
# Not regenerated: docs/vastpipe-e4/models-before/ (the importance models before the share cost
# changed, a run of an earlier commit kept for the comparison in docs/vastpipe-e4.md) and
# docs/vastpipe-e4/moves/ (the moves before partial evacuation, likewise) and docs/vastpipe-e4/moves-partial/
# (partial evacuation before placement changes, likewise; e4-moves writes moves-kind/).
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=rampa-examples/target/rampa.jar
if [ ! -f "$JAR" ]; then
  mvn -B -q package -DskipTests
fi
R=(java -jar "$JAR")

admission() {
  # docs/experiment.md, "Main result": the default run; the chart is docs/admission-small.png
  local out; out=$(mktemp -d)
  "${R[@]}" simulate --out "$out"
  cp "$out/admission.png" docs/admission-small.png
}

admission_large() {
  # docs/experiment.md, "Large preset"
  local out; out=$(mktemp -d)
  "${R[@]}" simulate --preset large --planners performance-first,fewest-gpus,first-fit,rampa-greedy/uniform,rampa-greedy/capability,rampa-greedy/scarcity,rampa-greedy/scarcity+fragmentation \
    --loads 330,500,660 --arrivals 3000 --seeds 1 --no-bound --out "$out"
  cp "$out/admission.png" docs/admission-large.png
}

e1() {
  # docs/vastpipe-experiments.md
  "${R[@]}" vastpipe-e1 --out docs/vastpipe-e1
  "${R[@]}" vastpipe-e1 --source parvagpu --exclusive-processes 3 --out docs/vastpipe-e1-exclusive-mps3
}

e2() {
  # docs/vastpipe-e2.md, "Commands": the 10-seed sweeps, then their summaries and charts redrawn together
  local J=("${R[@]}" colocate --seeds 10 --services 100-400 --time-limit-s 15 --threads 2)
  "${J[@]}" --cluster a100 --batch-caps 1,8,128 --small-batch-shares 0.75 --out docs/vastpipe-e2/a100
  "${J[@]}" --cluster hetero --batch-caps none --small-batch-shares 0.75 --out docs/vastpipe-e2/hetero
  "${J[@]}" --cluster a100 --batch-caps none --small-batch-shares 0.75 --gpus-needed \
    --planners exact,heuristic,exclusive,even-mps-2,gpu-lets --out docs/vastpipe-e2/gpus-needed
  "${J[@]}" --cluster npu --batch-caps 1,8,128 --small-batch-shares 0.75 --out docs/vastpipe-e2/npu
  "${J[@]}" --cluster npu --batch-caps none --small-batch-shares 0.75 --gpus-needed \
    --planners exact,heuristic,exclusive,even-mps-2,gpu-lets --out docs/vastpipe-e2/npu-gpus-needed
  # the sweeps' folders keep their CSV files and summaries; the charts are drawn once, together, below
  rm -f docs/vastpipe-e2/{a100,hetero,gpus-needed,npu,npu-gpus-needed}/e2-*.png docs/vastpipe-e2/{a100,hetero,gpus-needed,npu,npu-gpus-needed}/e2-*.svg
  e2_redraw
}

e2_redraw() {
  # plans nothing: the summaries and charts of docs/vastpipe-e2/ from the sweeps' raw CSV files
  "${R[@]}" colocate --out docs/vastpipe-e2 \
    --from-csv docs/vastpipe-e2/a100/e2.csv,docs/vastpipe-e2/hetero/e2.csv,docs/vastpipe-e2/npu/e2.csv
}

e2_default() {
  # README and docs/vastpipe-e2.md, "The default run" (margin-free, as written before the planning margins) and
  # "The default run under the default planning margins" (today's default command, and its margin-free twin)
  "${R[@]}" colocate --margin none --out docs/vastpipe-e2/default
  "${R[@]}" colocate --out docs/vastpipe-e2/default-margins
  "${R[@]}" colocate --margin none --out docs/vastpipe-e2/default-none
}

e3() {
  # docs/vastpipe-e3.md
  "${R[@]}" vastpipe-e3 --out docs/vastpipe-e3
  "${R[@]}" vastpipe-e3 --out docs/vastpipe-e3/slo-margin --margin-kind slo
  "${R[@]}" vastpipe-e3 --out docs/vastpipe-e3/parvagpu --family parvagpu
  "${R[@]}" vastpipe-e3 --out docs/vastpipe-e3/max-scale --objective max-scale
  "${R[@]}" vastpipe-e3 --out docs/vastpipe-e3/tiers --margin-kind tiers --margins 0,25,50,100
  "${R[@]}" vastpipe-e3 --out docs/vastpipe-e3/parvagpu-tiers --family parvagpu --margin-kind tiers --margins 0,25,50,100
}

e4() {
  # docs/vastpipe-e4.md: each run's stdout is the table the doc quotes
  "${R[@]}" vastpipe-e4 --margin none --threads 2 --out docs/vastpipe-e4 | tee docs/vastpipe-e4/stdout.txt.new
  mv docs/vastpipe-e4/stdout.txt.new docs/vastpipe-e4/stdout.txt
  "${R[@]}" vastpipe-e4 --margin none --threads 2 --planners rampa-dp/capability --workloads light --loads 96 --out docs/vastpipe-e4/dp-light \
    | tee docs/vastpipe-e4/dp-light/stdout.txt.new
  mv docs/vastpipe-e4/dp-light/stdout.txt.new docs/vastpipe-e4/dp-light/stdout.txt
  "${R[@]}" vastpipe-e4 --margin none --threads 2 --planners rampa-greedy/marginal-loss,rampa-greedy/scarcity+fragmentation,rampa-greedy/uniform,rampa-greedy/price,rampa-greedy/fragmentation \
    --out docs/vastpipe-e4/models | tee docs/vastpipe-e4/models/stdout.txt.new
  mv docs/vastpipe-e4/models/stdout.txt.new docs/vastpipe-e4/models/stdout.txt
}

e4_moves() {
  # docs/vastpipe-e4.md, "With placement changes" (margin-free, as measured)
  local p=docs/vastpipe-e4/moves-kind
  local common=(vastpipe-e4 --with-moves --seeds 5 --planners rampa-greedy/capability+sharing --threads 2 --margin none)
  "${R[@]}" "${common[@]}" --mig-layouts mig-heavy --workloads standard --loads 96,192 --out $p/mig-standard > $p/mig-standard/stdout.txt
  "${R[@]}" "${common[@]}" --mig-layouts mig-heavy --workloads light --loads 192,384 --out $p/mig-light > $p/mig-light/stdout.txt
  "${R[@]}" "${common[@]}" --workloads light --loads 192,384 --out $p/none-light > $p/none-light/stdout.txt
  "${R[@]}" "${common[@]}" --workloads standard --loads 96,192 --out $p/none-standard > $p/none-standard/stdout.txt
  scripts/e4-refusal-breakdown.py $p/mig-standard $p/mig-light $p/none-light $p/none-standard
}

learned_eval() {
  # docs/learned-policy.md, "Evaluation on ParvaGPU's scenarios"
  "${R[@]}" evaluate-policy --gpus 32,256,1000 --mixes 10 --seed 1000000 --time-limit PT20S --out docs/learned-policy-eval.csv
}

learned_train() {
  # docs/learned-policy.md: the shipped weights and their learning curve (one thread, as documented)
  local out; out=$(mktemp -d)
  java -XX:ActiveProcessorCount=1 -jar "$JAR" train --gpus 64 --episodes 9600 --seed 1 --mixes-per-update 8 --mix-family both --rollouts 4 \
    --learning-rate 0.01 --entropy 0.001 --hidden 24,12 --top-k 8 --out "$out/learned-policy.json"
  cp "$out/learned-policy-curve.csv" "$out/learned-policy-curve.png" "$out/learned-policy-curve.svg" docs/
}

steps=("$@")
if [ ${#steps[@]} -eq 0 ]; then
  steps=(admission admission-large e1 e2 e2-default e3 e4 e4-moves learned-eval learned-train)
fi
for step in "${steps[@]}"; do
  echo "== $step ($(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  case "$step" in
    admission) admission ;;
    admission-large) admission_large ;;
    e1) e1 ;;
    e2) e2 ;;
    e2-redraw) e2_redraw ;;
    e2-default) e2_default ;;
    e3) e3 ;;
    e4) e4 ;;
    e4-moves) e4_moves ;;
    learned-eval) learned_eval ;;
    learned-train) learned_train ;;
    *) echo "unknown step $step; steps: admission admission-large e1 e2 e2-redraw e2-default e3 e4 e4-moves learned-eval learned-train" >&2; exit 2 ;;
  esac
done
