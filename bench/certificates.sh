#!/usr/bin/env bash
# Certificates of `topoembed optimal` (issue 18): for each host, the time to
# write the certificate (--certificate, vector by vector), its size, and the
# time `verify-certificate` takes to check it. Prints a Markdown table.
#   bash bench/certificates.sh [LIMIT_SECONDS]
# DECIDE_BY=search (or turns): the branch and bound decides the vectors and
# each core it names is proved once by the core search, which writes its
# DRAT proof (`--decide-by`).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-300}
cargo build --release -q -p topoembed-cli
bin=target/release/topoembed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| host | d | least Σ D_i = xor's? | vectors refuted (DRAT) | lemmas | certify s | certificate | verify s |"
echo "|---|---|---|---|---|---|---|---|"
hosts=${HOSTS:-"4:torus:4x4 5:torus:8x4 6:torus:8x8 6:torus:16x4 7:torus:16x8 8:torus:16x16 \
  6:torus:4x4x4 7:torus:8x4x4 8:torus:8x8x4 9:torus:8x8x8 8:torus:4x4x4x4 \
  7:torus:32x4 8:torus:32x8 8:torus:64x4 8:torus:16x4x4 9:torus:32x16 9:torus:64x8 9:torus:16x8x4 \
  9:torus:32x4x4 9:torus:16x16x2 10:torus:32x32 10:torus:64x16 \
  4:ring:16 5:ring:32 6:ring:64 7:ring:128 8:ring:256"}
for spec in $hosts; do
  d=${spec%%:*}; host=${spec#*:}; dir="$work/$d-$host"
  start=$(date +%s.%N)
  if ! out=$(timeout "$limit" "$bin" optimal "cube:$d" "$host" --certificate "$dir" ${DECIDE_BY:+--decide-by "$DECIDE_BY"} --format json 2>/dev/null); then
    echo "| $host | $d | not settled in ${limit} s | | | | | |"; rm -rf "$dir"; continue
  fi
  certify=$(echo "$(date +%s.%N) - $start" | bc)
  min=$(echo "$out" | grep -m1 '"min_sum"' | tr -dc 0-9)
  optimal=$(echo "$out" | grep '"xor_optimal"' | grep -q true && echo yes || echo NO)
  v=$("$bin" verify-certificate "$dir" --format json)
  drat=$(echo "$v" | grep '"by_proofs"' | tr -dc 0-9)
  cores=$(echo "$v" | grep '"cores"' | tr -dc 0-9)
  if [ "${cores:-0}" -gt 0 ]; then drat="$drat ($cores cores)"; fi
  lemmas=$(echo "$v" | grep '"lemmas"' | tr -dc 0-9)
  secs=$(echo "$v" | grep '"seconds"' | sed 's/.*: //; s/,//')
  size=$(du -sh "$dir" | cut -f1)
  printf '| %s | %s | %s (%s) | %s | %s | %.2f | %s | %.2f |\n' "$host" "$d" "$min" "$optimal" "$drat" "$lemmas" "$certify" "$size" "$secs"
  rm -rf "$dir"
done
