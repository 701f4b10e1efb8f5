#!/usr/bin/env bash
# Issue 18's sweep: every 2-D torus with d ≤ 10 and every 3-D torus with
# d ≤ 9 (power-of-two sides, at least 2), each certified with the default
# bounds (`lift`) and checked by bench/certificates.sh, which prints the
# Markdown table.
#   bash bench/tori.sh [LIMIT_SECONDS]     # per host (default 120)
set -euo pipefail
cd "$(dirname "$0")"
hosts=()
for d in $(seq 2 10); do
  for b in $(seq 1 $((d / 2))); do hosts+=("$d:torus:$((1 << (d - b)))x$((1 << b))"); done
done
for d in $(seq 3 9); do
  for c in $(seq 1 $((d / 3))); do
    for b in $(seq "$c" $(((d - c) / 2))); do
      hosts+=("$d:torus:$((1 << (d - b - c)))x$((1 << b))x$((1 << c))")
    done
  done
done
HOSTS="${hosts[*]}" exec bash certificates.sh "${1:-120}"
