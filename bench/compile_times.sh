#!/usr/bin/env bash
# Compile time of mbdae per translation unit: configures a fresh build directory (no ccache), builds
# the library, then the `mbdae` program, then the whole tree with `-j JOBS`, and records for every
# compile (and precompiled header) its wall time and CPU time (user + system, from /usr/bin/time).
#
# Usage: bench/compile_times.sh BUILD_DIR [JOBS] [extra CMake arguments, e.g. -DMBDAE_PCH=ON]
# Prints the wall time of each stage and the CPU-seconds per target and in all, then the 15
# heaviest translation units; BUILD_DIR/compile_times.log keeps "wall cpu object" per compile.
# On a shared machine read the CPU-seconds: the wall times grow with the load of other work.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [JOBS] [CMake arguments...]" >&2; exit 2; }
dir=$1
jobs=${2:-2}
shift $(( $# >= 2 ? 2 : 1 ))
if [ -e "$dir" ]; then echo "$0: $dir exists; give a new build directory" >&2; exit 2; fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=$dir/compile_times.log
# The compiler launcher: times each compile into the log (the object is the argument after -o).
cat > "$dir/time_compile" <<'EOF'
#!/bin/sh
obj=unknown
prev=
for a in "$@"; do [ "$prev" = "-o" ] && obj=$a; prev=$a; done
exec /usr/bin/time -a -o "$MBDAE_COMPILE_LOG" -f "%e %U %S $obj" "$@"
EOF
chmod +x "$dir/time_compile"
export MBDAE_COMPILE_LOG=$log CCACHE_DISABLE=1
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DMBDAE_CCACHE="$dir/time_compile" "$@" >/dev/null

stage() {  # stage NAME [--target T ...]: builds, prints the wall time
  local name=$1 s e
  shift
  s=$(date +%s.%N)
  cmake --build "$dir" -j "$jobs" "$@" >"$dir/build_$name.log" 2>&1 || { echo "$name: build failed, see $dir/build_$name.log" >&2; exit 1; }
  e=$(date +%s.%N)
  echo "$name: wall $(echo "$e - $s" | bc) s (cumulative stages: library, then the program, then the rest)"
}
stage library --target mbdae_model mbdae_formulations mbdae_solvers mbdae_io
stage program --target mbdae
stage tree
grep -c "warning:" "$dir"/build_*.log | sed 's/^/warnings /'

awk '{
  cpu = $2 + $3; total += cpu
  n = split($4, part, "/"); target = part[1]
  for (i = 1; i <= n; ++i) if (part[i] ~ /\.dir$/) target = part[i]
  sub(/\.dir$/, "", target); by[target] += cpu; count[target]++
} END {
  for (t in by) printf "cpu %-28s %8.1f s  (%d compiles)\n", t, by[t], count[t]
  printf "cpu %-28s %8.1f s  (%d compiles)\n", "all", total, NR
}' "$log" | sort -k3 -n -r
echo "heaviest translation units (CPU s, wall s):"
awk '{ printf "%8.1f %8.1f  %s\n", $2 + $3, $1, $4 }' "$log" | sort -n -r | head -15
