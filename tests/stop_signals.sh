#!/bin/sh
# Signals that stop a run: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE and SIGUSR1 each stop it with
# exit code 128 + the signal's number and its rows committed under the named CSV (the start row at
# least: output only at the end time). After SIGKILL, which cannot be caught, the next run on the
# same results names the file that holds the killed run's rows.
# Usage: stop_signals.sh MBDAE MODEL SCRATCH_DIR
set -u
mbdae=$1 model=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
failures=0
long="--set solver.end_time=1e5 --set output.every=1e5"
for sig in INT TERM HUP QUIT PIPE USR1; do
  case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; QUIT) n=3 ;; PIPE) n=13 ;; USR1) n=10 ;; esac
  csv=$scratch/$sig.csv
  # Started in the background by a shell: SIGINT and SIGQUIT would be ignored there, so the
  # command is started with them at their defaults by exec from a subshell that resets them.
  (trap - INT QUIT; exec "$mbdae" run "$model" -q $long -o "$csv" > /dev/null 2> "$scratch/$sig.err") &
  p=$!
  sleep 1
  kill -s "$sig" $p
  wait $p
  rc=$?
  if [ $rc -ne $((128 + n)) ]; then echo "FAIL SIG$sig: exit code $rc, expected $((128 + n))"; failures=$((failures + 1)); fi
  if [ ! -f "$csv" ] || [ "$(wc -l < "$csv")" -lt 2 ]; then
    echo "FAIL SIG$sig: no rows under $csv"; failures=$((failures + 1))
  fi
done
# SIGKILL: the rows stay under the temporary name; the next run says where.
csv=$scratch/killed.csv
"$mbdae" run "$model" -q $long -o "$csv" > /dev/null 2>&1 &
p=$!
sleep 1
kill -s KILL $p
wait $p 2> /dev/null
partial=$(ls -A "$scratch" | grep '^\.killed-partial[0-9]*\.csv$')
[ -n "$partial" ] || { echo "FAIL SIGKILL: no partial file left"; failures=$((failures + 1)); }
"$mbdae" run "$model" -q --set solver.end_time=0.01 -o "$csv" > /dev/null 2> "$scratch/after_kill.err"
grep -qF "$scratch/$partial" "$scratch/after_kill.err" || grep -qF "./$partial" "$scratch/after_kill.err" || {
  echo "FAIL SIGKILL: the next run does not name $partial: $(cat "$scratch/after_kill.err")"; failures=$((failures + 1)); }
[ $failures -eq 0 ] && echo "every stop signal: exit 128 + n, rows committed; after SIGKILL the partial file named"
[ $failures -eq 0 ]
