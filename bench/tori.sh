#!/usr/bin/env bash
# Issue 18's sweep: every 2-D torus with d ≤ 10 and every 3-D torus with
# d ≤ 9 (power-of-two sides, at least 2), each certified with `--bounds all`
# and checked. Prints a Markdown table: the certify and verify times, the
# proofs written, and whether xor is optimal.
#   bash bench/tori.sh [LIMIT_SECONDS]     # per host (default 120)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
cargo build --release -q -p topoembed-cli
bin=target/release/topoembed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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
echo "| host | d | least Σ D_i (xor optimal?) | proofs | certify s | verify s | certificate |"
echo "|---|---|---|---|---|---|---|"
for spec in "${hosts[@]}"; do
  d=${spec%%:*}; host=${spec#*:}; dir="$work/$d-$host"
  start=$(date +%s.%N)
  if ! out=$(timeout "$limit" "$bin" optimal "cube:$d" "$host" --certificate "$dir" --format json 2>/dev/null); then
    echo "| $host | $d | not settled in ${limit} s | | | | |"; rm -rf "$dir"; continue
  fi
  certify=$(echo "$(date +%s.%N) - $start" | bc)
  min=$(echo "$out" | grep '"min_sum"' | tr -dc 0-9)
  optimal=$(echo "$out" | grep '"xor_optimal"' | grep -q true && echo yes || echo NO)
  v=$("$bin" verify-certificate "$dir" --format json)
  proofs=$(echo "$v" | grep '"by_proofs"' | tr -dc 0-9)
  secs=$(echo "$v" | grep '"seconds"' | sed 's/.*: //; s/,//')
  size=$(du -sh "$dir" | cut -f1)
  printf '| %s | %s | %s (%s) | %s | %.2f | %.2f | %s |\n' "$host" "$d" "$min" "$optimal" "$proofs" "$certify" "$secs" "$size"
  rm -rf "$dir"
done
