#!/usr/bin/env bash
# Trains Kollective's RankSVM and LIBLINEAR's own L2-loss SVM (Debian liblinear-tools,
# `-s 2 -B -1`: the same f on the explicit pair differences) on the same data, then evaluates
# LIBLINEAR's weights with Kollective's objective and prints both optima and their relative gap.
#   scripts/compare_liblinear.sh [CONFIG.yaml]      (default: configs/ranksvm_liblinear.yaml)
# The config's single run must write its pairs (`write: {pairs: true}`); results go to
# results/compare_liblinear/ (the pairs file is deleted at the end).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
config=${1:-$root/configs/ranksvm_liblinear.yaml}
out=$root/results/compare_liblinear
mkdir -p "$out"
"$root/scripts/kollective" run "$config" --out "$out/kollective"
pairs=$(ls "$out"/kollective/*_pairs.txt)
command -v liblinear-train >/dev/null || { echo "compare_liblinear: liblinear-train not found (scripts/install_packages.sh installs it)" >&2; exit 1; }
# C and eps as the config's run (LIBLINEAR's eps for -s 2 is relative to |grad f(0)| as ours,
# scaled by min(#positive, #negative) / #pairs, 1/2 here: the pairs alternate signs).
read -r C eps < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["rows"][0]; print(r["C"], r["eps"])' "$out"/kollective/*.json)
start=$(date +%s.%N)
liblinear-train -s 2 -c "$C" -e "$eps" -B -1 -q "$pairs" "$out/liblinear_model.txt"
seconds=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
# A LIBLINEAR-ranksvm header on LIBLINEAR's weights (its first label is +1, the first pair's sign).
sed -e 's/^solver_type .*/solver_type L2R_L2LOSS_RANKSVM/' -e '/^nr_class /d' -e '/^label /d' \
    "$out/liblinear_model.txt" > "$out/liblinear_as_ranksvm.txt"
# Kollective's objective at LIBLINEAR's weights, on the same generated data.
python3 - "$config" "$out/liblinear_as_ranksvm.txt" > "$out/evaluate.yaml" <<'PY'
import sys, re
text = open(sys.argv[1]).read()
text = re.sub(r'(?m)^output: .*$', 'output: results/compare_liblinear/evaluate', text)
text = re.sub(r'(?m)^(\s+)train: (.*)$', lambda m: f"{m.group(1)}train: {m.group(2)}\n{m.group(1)}model: {sys.argv[2]}", text, count=1)
text = re.sub(r'(?m)^\s+write: .*$', '', text)
print(text)
PY
"$root/scripts/kollective" run "$out/evaluate.yaml" --out "$out/evaluate" --quiet
echo "compare_liblinear: the pairs file took $(du -h "$pairs" | cut -f1); deleting it" >&2
rm -f "$pairs"
python3 - "$out" "$seconds" <<'PY'
import glob, json, sys
out, seconds = sys.argv[1], sys.argv[2]
row = lambda folder: json.load(open(glob.glob(f"{out}/{folder}/*.json")[0]))["rows"][0]
ours, theirs = row("kollective"), row("evaluate")
f_ours, f_theirs = ours["objective"], theirs["objective"]
print(f"pairs {ours['pairs']}, C {ours['C']}, eps {ours['eps']}")
print(f"Kollective: f = {f_ours:.12e} ({ours['iterations']} TRON iterations, {ours['cg_steps']} CG steps, {ours['solve_s']:.2f} s, {ours['backend']})")
print(f"LIBLINEAR:  f = {f_theirs:.12e} (liblinear-train -s 2 on the pair differences, {seconds} s)")
print(f"relative difference: {abs(f_ours - f_theirs) / f_theirs:.3e}")
PY
