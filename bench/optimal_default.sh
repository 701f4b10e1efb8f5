#!/usr/bin/env bash
# `topoembed optimal cube:D HOST` with no option at all, on every ring up to
# d = 12 and every torus docs/src/optimal.md calls settled (power-of-two sides: 2-D
# with d <= 10, 3-D with d <= 9): the answer, whether it is proved, the
# vectors the bounds left, and the wall time (median of RUNS runs, default
# 3). A run the work limit refuses says so; --force is never given.
# Every host answers within seconds (torus:64x16, the slowest, 2.5 s on 2
# cores; torus:32x32 took about a minute before the energy lemma), well
# within the default timeout of 120 s.
# Usage: bash bench/optimal_default.sh [RUNS] [TIMEOUT_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
limit=${2:-120}
cargo build --release -q -p topoembed-cli
bin=$PWD/target/release/topoembed
source bench/common.sh
machine

hosts=()
for d in 9 10 11 12; do hosts+=("ring:$((1 << d))"); done
for a in $(seq 1 9); do
    for b in $(seq 1 "$a"); do
        [ $((a + b)) -le 10 ] && hosts+=("torus:$((1 << a))x$((1 << b))")
    done
done
for a in $(seq 1 7); do
    for b in $(seq 1 "$a"); do
        for c in $(seq 1 "$b"); do
            [ $((a + b + c)) -le 9 ] && hosts+=("torus:$((1 << a))x$((1 << b))x$((1 << c))")
        done
    done
done

echo "| host | d | least Σ D_i | proved | vectors decided | seconds (median of $runs) |"
echo "|---|---|---|---|---|---|"
for host in "${hosts[@]}"; do
    sides=${host#*:}
    d=0
    for side in ${sides//x/ }; do
        while [ "$side" -gt 1 ]; do d=$((d + 1)); side=$((side / 2)); done
    done
    times=()
    row=""
    for _ in $(seq "$runs"); do
        start=$(date +%s.%N)
        if out=$(timeout "$limit" "$bin" optimal "cube:$d" "$host" --format json 2>/tmp/optimal_default.err); then
            end=$(date +%s.%N)
            times+=("$(echo "$end - $start" | bc -l)")
            min=$(echo "$out" | sed -n 's/^  "min_sum": \([0-9]*\),/\1/p')
            proved=$(echo "$out" | sed -n 's/^  "proved": \([a-z]*\),/\1/p')
            left=$(echo "$out" | sed -n 's/^  "nodes_searched": \([0-9]*\),/\1/p')
            row="| $host | $d | $min | $proved | $left |"
        elif grep -q "add --force" /tmp/optimal_default.err; then
            row="| $host | $d | refused: $(sed 's/^error: optimal: //; s/, beyond.*//' /tmp/optimal_default.err) | | |"
            times=("-")
            break
        else
            row="| $host | $d | not done in $limit s | | |"
            times=("-")
            break
        fi
    done
    if [ "${times[0]}" = "-" ]; then
        echo "$row - |"
    else
        printf '%s %.2f |\n' "$row" "$(printf '%s\n' "${times[@]}" | median_of_lines)"
    fi
done
