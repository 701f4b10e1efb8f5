# Shared by the benchmark scripts (sourced): the machine line every result
# is quoted with, and the median of numbers read one per line.
machine() {
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
}

median_of_lines() {
  sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}

# Hop-bytes of a Scotch mapping as Scotch's gmtst scores it (CommExpan total):
# expan GRAPH.grf TARGET.tgt MAPPING.map
expan() {
  gmtst "$1" "$2" "$3" | sed -n 's/.*CommExpan=[^(]*(\([0-9]*\)).*/\1/p'
}
