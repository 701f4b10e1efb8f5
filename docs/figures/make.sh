#!/usr/bin/env bash
# Regenerates the figures the book (docs/src/figures.md) names (and a sample report).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p topoembed-cli
t=target/release/topoembed
d=docs/figures
$t draw cube:6 torus:8x8 --method xor --edges -o $d/fig6-xor-torus.svg
$t draw cube:4 ring:16 --method xor -o $d/fig5-xor-ring.svg
$t draw cube:3 line:8 --method byweight -o $d/fig3a-byweight-line.svg
$t draw bintree:16 cube:4 --method levels -o $d/tree-levels.svg
$t draw cube:4 ring:16 --method standard --figure load -o $d/load-standard-ring.svg
$t draw cube:6 ring:64 --method xor --figure spectrum -o $d/spectrum-xor-ring.svg
$t simulate allreduce cube:3 line:8 --method standard --trace cc --ta 1 --gantt $d/gantt-standard-line.svg
$t simulate allreduce cube:3 line:8 --method byweight --trace cc --ta 1 --gantt $d/gantt-byweight-line.svg
$t simulate allreduce cube:4 line:16 --method byweight --trace cc --gantt $d/gantt-contention.svg --gantt-rows 16
$t report cube:6 torus:8x8 -o $d/report-cube6-torus8x8.html
