#!/bin/sh
# The output policy (docs/results-format.md, "Where results may be written") for one command:
# an output that is a FIFO, a device node, a symbolic link or one of the run's inputs is refused
# with exit code 2, naming the path, and nothing is written: the special file is still what it
# was, a link and its target are unchanged, and no file appears beside it.
#
# Every special file is made in a scratch folder (mkfifo, mknod of a copy of the null device,
# ln -s); never a device of the machine itself.
#
# Usage: output_policy.sh COMMAND MBDAE SOURCE_DIR SCRATCH_DIR
#   COMMAND: run, save-state, statics, modes, kinematics, inverse, view, sweep, sensitivity,
#            validate, plot, import
set -u
cmd=$1 mbdae=$2 src=$3 scratch=$4
rm -rf "$scratch" && mkdir -p "$scratch/m/meshes" "$scratch/out" || exit 1
m=$scratch/m
cp "$src/examples/models/simple_pendulum.yaml" "$src/examples/models/crank_motor_curve.yaml" \
   "$src/examples/models/crank_motor_curve.csv" "$src/examples/models/cam_follower.yaml" \
   "$src/examples/models/driven_crank.yaml" "$src/tests/analysis_models/torsion_pendulum.yaml" "$m/" || exit 1
cp "$src/examples/models/meshes/cam.obj" "$m/meshes/" || exit 1
cp "$src/tests/sweep/falling_body.yaml" "$m/falling_body.yaml" || exit 1
sed 's|^model: .*|model: falling_body.yaml|' "$src/tests/sweep/studies/falling_body.yaml" > "$m/study.yaml" || exit 1
failures=0
fail() { echo "FAIL [$cmd] $*"; failures=$((failures + 1)); }

# Runs the command with its output at $1 (and the model $2 where the command takes one).
invoke() {
  target=$1 model=${2:-}
  case $cmd in
    run) "$mbdae" run "${model:-$m/simple_pendulum.yaml}" -q --set solver.end_time=0.05 -o "$target" ;;
    save-state) "$mbdae" run "${model:-$m/simple_pendulum.yaml}" -q --set solver.end_time=0.05 \
                  -o "$scratch/out/s.csv" --save-state "$target" ;;
    statics|modes) "$mbdae" "$cmd" "${model:-$m/torsion_pendulum.yaml}" -q -o "$target" ;;
    kinematics|inverse) "$mbdae" "$cmd" "${model:-$m/driven_crank.yaml}" -q --set solver.end_time=0.05 -o "$target" ;;
    view) "$mbdae" view "$scratch/out/v.csv" -q -o "$target" ;;
    sweep) "$mbdae" sweep "$m/study.yaml" -q --force -o "$target" ;;
    sensitivity) "$mbdae" sensitivity "${model:-$m/simple_pendulum.yaml}" --param bodies[0].mass \
                   --set solver.end_time=0.05 -o "$target" ;;
    validate) "$mbdae" validate -q --case simple_pendulum --csv "$target" ;;
    plot) "$mbdae" plot "$scratch/out/v.csv" -o "${target%.*}" ;;  # writes PREFIX.png and PREFIX.svg
    import) "$mbdae" import "${model:-$m/gripper.urdf}" -o "$target" ;;
    *) echo "unknown command $cmd"; exit 1 ;;
  esac
}
# Expects exit code 2 and the path named on stderr; $1 the output, $2 what it is.
refused() {
  invoke "$1" "${3:-}" > "$scratch/stdout" 2> "$scratch/stderr"
  rc=$?
  [ $rc -eq 2 ] || fail "$2: exit code $rc, expected 2: $(cat "$scratch/stderr")"
  grep -qF -- "$1" "$scratch/stderr" || fail "$2: stderr does not name '$1': $(cat "$scratch/stderr")"
}
# Nothing beside the special file $1 in its folder (no companions, no partial or lock files).
alone() {
  others=$(ls -A "$(dirname "$1")" | grep -v -x -F "$(basename "$1")")
  [ -z "$others" ] || fail "files written beside $1: $others"
}

if [ "$cmd" = import ]; then
  cp "$src/examples/robots/gripper.urdf" "$m/" || exit 1
fi
if [ "$cmd" = view ] || [ "$cmd" = plot ]; then
  "$mbdae" run "$m/simple_pendulum.yaml" -q --set solver.end_time=0.05 -o "$scratch/out/v.csv" > /dev/null || exit 1
fi

# The name of an output (plot: the PNG of its prefix).
out=r.csv
[ "$cmd" = plot ] && out=r.png

# 1. A FIFO (nothing reads it: a write into it would block; the test's timeout catches that).
mkdir -p "$scratch/fifo" && mkfifo "$scratch/fifo/$out" || exit 1
refused "$scratch/fifo/$out" "a FIFO"
[ -p "$scratch/fifo/$out" ] || fail "the FIFO was replaced"
alone "$scratch/fifo/$out"

# 2. A copy of the null device (character device 1,3) in the scratch folder.
mkdir -p "$scratch/dev"
if mknod "$scratch/dev/$out" c 1 3 2> /dev/null; then
  refused "$scratch/dev/$out" "a device node"
  [ -c "$scratch/dev/$out" ] || fail "the device node was replaced"
  alone "$scratch/dev/$out"
else
  echo "note: mknod is not permitted here (not root); the device case is covered by the FIFO case only"
fi

# 3. A symbolic link to a regular file: the link and its target are unchanged.
mkdir -p "$scratch/link" && echo "not results" > "$scratch/link/target.txt" && ln -s target.txt "$scratch/link/$out"
refused "$scratch/link/$out" "a symbolic link"
[ -L "$scratch/link/$out" ] || fail "the link was replaced"
[ "$(cat "$scratch/link/target.txt")" = "not results" ] || fail "the link's target was written"

# 4. The inputs of the run: each is unchanged after the refusal.
same_after() {  # $1 input, $2 its copy before
  cmp -s "$1" "$2" || fail "the input $1 was changed"
}
check_input() {  # $1 input file, $2 model (or empty), $3 what
  cp "$1" "$scratch/before"
  refused "$1" "$3" "$2"
  same_after "$1" "$scratch/before"
}
case $cmd in
  run|save-state)
    check_input "$m/simple_pendulum.yaml" "" "the model"
    check_input "$m/crank_motor_curve.csv" "$m/crank_motor_curve.yaml" "a table the model reads"
    check_input "$m/meshes/cam.obj" "$m/cam_follower.yaml" "a mesh the model reads"
    # a link onto the model
    ln -sf "$m/simple_pendulum.yaml" "$scratch/link/model.csv"
    cp "$m/simple_pendulum.yaml" "$scratch/before"
    refused "$scratch/link/model.csv" "a link onto the model"
    same_after "$m/simple_pendulum.yaml" "$scratch/before"
    # the state file a run restarts from
    "$mbdae" run "$m/simple_pendulum.yaml" -q --set solver.end_time=0.05 -o "$scratch/out/a.csv" \
      --save-state "$scratch/out/a.state" > /dev/null || fail "cannot write a state file"
    cp "$scratch/out/a.state" "$scratch/before"
    if [ "$cmd" = run ]; then
      "$mbdae" run "$m/simple_pendulum.yaml" -q --set solver.end_time=0.1 --restart "$scratch/out/a.state" \
        -o "$scratch/out/a.state" > /dev/null 2> "$scratch/stderr"
    else
      "$mbdae" run "$m/simple_pendulum.yaml" -q --set solver.end_time=0.1 --restart "$scratch/out/a.state" \
        -o "$scratch/out/b.csv" --save-state "$scratch/out/a.state" > /dev/null 2> "$scratch/stderr"
    fi
    rc=$?
    [ $rc -eq 2 ] || fail "onto the restart state: exit code $rc"
    same_after "$scratch/out/a.state" "$scratch/before"
    ;;
  statics|modes) check_input "$m/torsion_pendulum.yaml" "" "the model" ;;
  sensitivity)
    check_input "$m/simple_pendulum.yaml" "" "the model"
    check_input "$m/crank_motor_curve.csv" "$m/crank_motor_curve.yaml" "a table the model reads"
    ;;
  kinematics|inverse) check_input "$m/driven_crank.yaml" "" "the model" ;;
  view)
    check_input "$scratch/out/v.csv" "" "its own results"
    check_input "$scratch/out/v.poses" "" "its poses"
    ;;
  sweep)
    check_input "$m/study.yaml" "" "the study file"
    check_input "$m/falling_body.yaml" "" "the study's model"
    ;;
  import)
    # the robot file it is made from, and its temporary file beside the output as a link
    check_input "$m/gripper.urdf" "" "the robot file"
    ln -sf "$m/gripper.urdf" "$scratch/link/model.yaml.tmp"
    cp "$m/gripper.urdf" "$scratch/before"
    "$mbdae" import "$m/gripper.urdf" -o "$scratch/link/model.yaml" > /dev/null 2> "$scratch/stderr"
    rc=$?
    [ $rc -eq 2 ] || fail "the temporary file a link: exit code $rc"
    same_after "$m/gripper.urdf" "$scratch/before"
    ;;
  plot)
    # the results it reads: a results file named w.png, plotted to the prefix w
    cp "$scratch/out/v.csv" "$scratch/out/w.png"
    cp "$scratch/out/w.png" "$scratch/before"
    "$mbdae" plot "$scratch/out/w.png" -o "$scratch/out/w" > /dev/null 2> "$scratch/stderr"
    rc=$?
    [ $rc -eq 2 ] || fail "onto its results: exit code $rc"
    grep -qF "$scratch/out/w.png" "$scratch/stderr" || fail "onto its results: not named: $(cat "$scratch/stderr")"
    same_after "$scratch/out/w.png" "$scratch/before"
    ;;
esac

[ $failures -eq 0 ] && echo "output policy [$cmd]: every case refused" || exit 1
