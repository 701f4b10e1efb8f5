#!/usr/bin/env bash
# The Python package's overhead: `metrics` of cube:20 on torus:1024x1024
# (xor, with routing) from Python and from the CLI, median of RUNS runs each,
# in the same run on the same machine. The Python call returns the same
# document as `topoembed metrics --format json` (the CLI also prints it).
# Python is timed twice per run: the first call in a fresh interpreter (it
# starts the thread pool, as the CLI process does) and a second call.
#
#   bench/python.sh            # builds the wheel into a venv first
#   PYTHON=/path/venv/bin/python RUNS=5 bench/python.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
GUEST=${GUEST:-cube:20}
HOST=${HOST:-torus:1024x1024}
(cd "$here" && cargo build --release -q -p topoembed-cli)
bin=$here/target/release/topoembed
if [ -z "${PYTHON:-}" ]; then
  venv=$(mktemp -d)/venv
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "$here/crates/topoembed-py"
  PYTHON=$venv/bin/python
fi
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
cli=(); py=(); again=()
for _ in $(seq "$RUNS"); do
  s=$(date +%s.%N); "$bin" metrics "$GUEST" "$HOST" --method xor --format json > /dev/null; e=$(date +%s.%N)
  cli+=("$(echo "$e - $s" | bc)")
  read -r first second < <("$PYTHON" -c "
import time, topoembed
times = []
for _ in range(2):
    t = time.perf_counter()
    topoembed.metrics('$GUEST', '$HOST', method='xor')
    times.append(time.perf_counter() - t)
print(*times)
")
  py+=("$first"); again+=("$second")
done
c=$(printf '%s\n' "${cli[@]}" | median); p=$(printf '%s\n' "${py[@]}" | median)
a=$(printf '%s\n' "${again[@]}" | median)
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | sed -n 1p)"
printf 'metrics %s %s --method xor, median of %s: CLI process %.3f s; Python first call %.3f s (%+.1f %%), second call %.3f s (%+.1f %%)\n' \
  "$GUEST" "$HOST" "$RUNS" "$c" "$p" "$(echo "scale=4; ($p / $c - 1) * 100" | bc)" \
  "$a" "$(echo "scale=4; ($a / $c - 1) * 100" | bc)"
