// mbdae — the command line: simulate a model file, check it without simulating, plot results.
//
//   mbdae run MODEL [--set key=value ...] [-o results.csv] [--plot] [--save-state FILE] [--restart FILE]
//   mbdae check MODEL [--set key=value ...]
//   mbdae import ROBOT.urdf -o model.yaml [--strict] [--collision]
//   mbdae statics MODEL [--load-steps N]        mbdae modes MODEL [--at-equilibrium]
//   mbdae kinematics MODEL                      mbdae inverse MODEL
//   mbdae sensitivity MODEL --param KEY [--param KEY ...] [-o out.csv]
//   mbdae plot RESULTS.csv [-o PREFIX]
//   mbdae view RESULTS.csv [-o PAGE.html] [--three three.min.js]
//   mbdae validate [--full] [--case NAME...] [--markdown FILE] [--csv FILE] [--plots DIR]
//   mbdae sweep STUDY [-o table.csv] [-j N] [--resume] [--plot]   (also under mpirun)
//   mbdae --version

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>
#include <system_error>
#include <exception>

#include <CLI/CLI.hpp>

#include <mbdae/io/Suggest.h>

#include "commands.h"
#include "plot.h"
#include "sweep.h"

namespace {
const char* kExitCodes =
    "Exit codes:\n"
    "  0    success\n"
    "  1    results, plots or the 3D page could not be written, or an internal error\n"
    "  2    bad input: command line, model file (each problem as FILE:LINE:COL: KEY: message),\n"
    "       or an initial configuration that cannot satisfy the joints, or an output that is\n"
    "       not a regular file, is a symbolic link or is one of the inputs (nothing is written)\n"
    "  3    solver failure: the message names the time and the cause; the results up to that\n"
    "       time are in the CSV file (and the body poses in the .poses file)\n"
    "  4    mbdae validate: at least one row of the validation table failed\n"
    "  5    out of memory: the message says where (loading the model, preparing the run, a step\n"
    "       at time t) and the model's size; the results up to then are in the CSV file\n"
    "  128+n stopped by signal n: 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT, 141 SIGPIPE,\n"
    "       138 SIGUSR1; the results up to that time are in the CSV file\n"
    "mbdae sweep: 0 when every case has a row in the table, failed cases included (their status\n"
    "  says why); 2 for a bad study file; 130 when interrupted (--resume goes on).\n";

// Where the documentation and the example models are: installed beside the program
// (PREFIX/share/doc/mbdae, PREFIX/share/mbdae/examples), else in the source tree it was built from.
std::string documentation_footer() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path prefix = ec ? fs::path() : exe.parent_path().parent_path();
  auto first = [&](const fs::path& installed, const fs::path& source) {
    return (!prefix.empty() && fs::is_directory(installed, ec) ? installed : source).string();
  };
  const std::string docs = first(prefix / "share" / "doc" / "mbdae", fs::path(MBDAE_SOURCE_DIR) / "docs");
  const std::string examples = first(prefix / "share" / "mbdae" / "examples", fs::path(MBDAE_SOURCE_DIR) / "examples");
  return "Documentation: " + docs + " (model-format.md: every key of a model file; analyses.md, viewer.md, " +
         "sweeps.md, python.md)\nExamples: " + examples + " (models/, studies/, python/; try: mbdae run " + examples +
         "/models/slider_crank.yaml --plot --animate)\n";
}
}  // namespace

int main(int argc, char** argv) {
  using namespace mbdae::cli;
  CLI::App app{"mbdae " MBDAE_VERSION " — dynamics of mechanisms of rigid bodies and joints", "mbdae"};
  app.set_version_flag("--version", "mbdae " MBDAE_VERSION);
  app.footer(documentation_footer() + kExitCodes);
  app.require_subcommand(1);

  RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "Simulate a model file and write the sensors to CSV");
  run_cmd->add_option("MODEL", run.model, "Model file (YAML or JSON; see docs/model-format.md)")
      ->required();
  run_cmd->add_option("--set", run.sets,
                      "Override a key before the checks: key=value, key a dotted path with [i] "
                      "indices, value in YAML (e.g. --set solver.type=ida --set bodies[0].mass=2)")
      ->type_name("KEY=VALUE");
  run_cmd->add_option("-o,--output", run.output,
                      "Results CSV (default: output.file of the model, else <model name>.csv)")
      ->type_name("FILE");
  run_cmd->add_flag("--plot", run.plot, "Also write <results>.png and <results>.svg (python3-matplotlib)");
  run_cmd->add_flag("-q,--quiet", run.quiet, "No progress bar, no warnings and no summary (errors still on stderr)");
  run_cmd->add_flag("!--no-poses", run.poses,
                    "Do not write <results>.poses (every body's pose at every output time: 8 + 28 n bytes "
                    "a frame for n bodies) and <results>.scene.json, which mbdae view reads");
  run_cmd->add_flag("--animate", run.animate,
                    "Also write <results>.html: the motion in 3D, one self-contained page (see mbdae view)");
  run_cmd->add_option("--three", run.three_js, "three.min.js to inline in the page (as for view)")
      ->type_name("FILE");
  run_cmd->add_flag("--allow-output-anywhere", run.output_anywhere,
                    "Let the model's output.file point outside the working folder and the model's folder");
  run_cmd->add_option("--save-state", run.save_state,
                      "Write the run's state to FILE at the end (also after a failure or Ctrl-C), for --restart; "
                      "docs/results-format.md")
      ->type_name("FILE");
  run_cmd->add_option("--save-at", run.save_at, "With --save-state: save at the first output time >= T instead")
      ->type_name("T")
      ->check(CLI::NonNegativeNumber);
  run_cmd->add_option("--restart", run.restart,
                      "Continue the run from a state file of --save-state (same model and solver.type) to the "
                      "model's end time; the first row repeats the saved time")
      ->type_name("FILE");
  run_cmd->footer(kExitCodes);

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand(
      "check",
      "Check a model without simulating it: bodies, joints, coordinates, Grübler count and true "
      "mobility, redundant constraints, initial constraint violation, mass and inertia");
  check_cmd->add_option("MODEL", check.model, "Model file")->required();
  check_cmd->add_option("--set", check.sets, "Override a key (as for run)")->type_name("KEY=VALUE");
  check_cmd->footer(kExitCodes);

  ImportOptions import_opt;
  CLI::App* import_cmd = app.add_subcommand(
      "import", "Write the model file equivalent to a robot description (URDF, MJCF, SDFormat; docs/import.md)");
  import_cmd->add_option("FILE", import_opt.input, "Robot description (.urdf; .xml or .mjcf: MJCF; .sdf: SDFormat)")->required();
  import_cmd->add_option("-o,--output", import_opt.output, "Model file to write (YAML)")->required()->type_name("FILE");
  import_cmd->add_flag("--strict", import_opt.strict, "Every element that is not mapped is an error, not a warning");
  import_cmd->add_flag("--collision", import_opt.collision,
                       "Map <collision> geometry (URDF) or geoms (MJCF) to contact shapes (neighbouring links' shapes then touch where "
                       "they overlap: mbdae has no pair exclusion)");
  import_cmd->add_option("--limit-stiffness", import_opt.limit_stiffness,
                         "Stiffness of the joint_limit stops of <limit>, N m/rad or N/m (default 1e5)")
      ->check(CLI::PositiveNumber);
  import_cmd->add_option("--limit-damping", import_opt.limit_damping,
                         "Damping of the joint_limit stops, N m s/rad or N s/m (default 0)")
      ->check(CLI::NonNegativeNumber);
  import_cmd->add_option("--end-time", import_opt.end_time, "solver.end_time of the model (default 1 s)")
      ->check(CLI::PositiveNumber);
  import_cmd->footer(kExitCodes);

  // The analyses: the same options each, plus their own.
  AnalysisOptions statics, modes, kinem, inverse;
  auto analysis_cmd = [&](const char* name, const char* help, AnalysisOptions& o, bool motion) {
    CLI::App* cmd = app.add_subcommand(name, help);
    cmd->add_option("MODEL", o.model, "Model file (YAML or JSON; see docs/model-format.md)")->required();
    cmd->add_option("--set", o.sets, "Override a key (as for run)")->type_name("KEY=VALUE");
    cmd->add_option("-o,--output", o.output, std::string("Results CSV (default: <model name>.") + name + ".csv)")
        ->type_name("FILE");
    cmd->add_flag("-q,--quiet", o.quiet, "No warnings");
    if (motion) {
      cmd->add_flag("--plot", o.plot, "Also write <results>.png and <results>.svg (python3-matplotlib)");
      cmd->add_flag("!--no-poses", o.poses, "Do not write <results>.poses and <results>.scene.json (for mbdae view)");
      cmd->add_flag("--animate", o.animate, "Also write <results>.html, the motion in 3D (see mbdae view)");
      cmd->add_option("--three", o.three_js, "three.min.js to inline in the page (as for view)")->type_name("FILE");
    }
    cmd->footer(kExitCodes);
    return cmd;
  };
  CLI::App* statics_cmd = analysis_cmd(
      "statics",
      "Static equilibrium: gravity and loads ramped over load steps, Newton with line search; prints the "
      "equilibrium positions, the joint reactions and the residual, and writes one CSV row per load step",
      statics, false);
  statics_cmd->add_option("-n,--load-steps", statics.load_steps, "Load steps (default 1)")->check(CLI::Range(1, 100000));
  statics_cmd->add_flag("--plot", statics.plot, "Also plot the CSV against the load fraction");
  CLI::App* modes_cmd = analysis_cmd(
      "modes",
      "Natural frequencies (Hz), damping ratios and mode shapes of the model linearised about its initial "
      "state or its static equilibrium; writes one CSV row per mode and a pose file per mode shape",
      modes, false);
  modes_cmd->add_flag("--at-equilibrium", modes.at_equilibrium, "Linearise about the static equilibrium (mbdae statics)");
  modes_cmd->add_option("-n,--load-steps", modes.load_steps, "Load steps of the equilibrium (default 1)")
      ->check(CLI::Range(1, 100000));
  modes_cmd->add_flag("!--no-poses", modes.poses, "Do not write the mode shapes' pose files and the scene");
  modes_cmd->add_flag("--plot", modes.plot, "Also plot the CSV (frequencies, damping ratios, shapes) against the mode number");
  modes_cmd->add_flag("--animate", modes.animate, "Also write <results>.html with the mode shapes to choose from");
  modes_cmd->add_option("--three", modes.three_js, "three.min.js to inline in the page (as for view)")->type_name("FILE");
  CLI::App* kinematics_cmd = analysis_cmd(
      "kinematics",
      "Kinematic analysis of a driven mechanism with no degree of freedom left: positions, velocities and "
      "accelerations of every body over time from the constraints alone",
      kinem, true);
  CLI::App* inverse_cmd = analysis_cmd(
      "inverse",
      "Inverse dynamics of a driven mechanism: the drive efforts (force or torque) and every joint's reaction "
      "along the prescribed motion",
      inverse, true);

  SensitivityOptions sens;
  CLI::App* sens_cmd = app.add_subcommand(
      "sensitivity",
      "Run a model with the forward sensitivities of its sensors to parameters (docs/sensitivities.md): the CSV of "
      "mbdae run plus a column d(COLUMN)/d(KEY) for every sensor column and parameter");
  sens_cmd->add_option("MODEL", sens.model, "Model file (YAML or JSON; see docs/model-format.md)")->required();
  sens_cmd->add_option("-p,--param", sens.params,
                       "A parameter: a numeric key of the model file as a --set key path (e.g. --param bodies[1].mass "
                       "--param forces[0].stiffness); repeatable")
      ->type_name("KEY")
      ->required();
  sens_cmd->add_option("--set", sens.sets, "Override a key (as for run)")->type_name("KEY=VALUE");
  sens_cmd->add_option("-o,--output", sens.output, "Results CSV (default: <model name>.sensitivity.csv)")
      ->type_name("FILE");
  sens_cmd->footer(kExitCodes);

  std::vector<std::string> plot_csvs, plot_columns;
  std::string plot_prefix;
  CLI::App* plot_cmd = app.add_subcommand(
      "plot", "Plot results CSVs of `mbdae run` (PNG and SVG); several are overlaid, one panel per unit");
  plot_cmd->add_option("RESULTS", plot_csvs, "CSV files written by mbdae run (or statics, kinematics, ...)")
      ->required();
  plot_cmd->add_option("-c,--columns", plot_columns,
                       "Column or sensor names to plot (default: every column; with several results, the "
                       "columns they all have; comma-separated or repeated)")
      ->delimiter(',')
      ->type_name("NAME");
  plot_cmd->add_option("-o,--output", plot_prefix,
                       "Output prefix: writes PREFIX.png and PREFIX.svg (default: the CSV path without .csv; "
                       "with several results, the first one's with .overlay)")
      ->type_name("PREFIX");
  plot_cmd->footer(kExitCodes);

  ViewOptions view;
  CLI::App* view_cmd = app.add_subcommand(
      "view",
      "Write one self-contained HTML page (works offline, from file://) that animates the results of "
      "mbdae run in 3D: bodies, joints, spring-dampers, ground, gravity, trails, a plot of any column");
  view_cmd->add_option("RESULTS", view.results,
                       "CSV file written by mbdae run (its .poses and .scene.json must be beside it)")
      ->required();
  view_cmd->add_option("-o,--output", view.output, "The page (default: the CSV path with .html)")
      ->type_name("FILE");
  view_cmd->add_option("--three", view.three_js,
                       "three.min.js to inline (default: $MBDAE_THREE_JS, else "
                       "/usr/share/javascript/three/three.min.js of Debian's libjs-three)")
      ->type_name("FILE");
  view_cmd->add_option("--poses", view.extra_poses,
                       "More pose files of the same model to choose from in the page (e.g. mode shapes)")
      ->type_name("FILE");
  view_cmd->add_flag("-q,--quiet", view.quiet, "Do not print the page's path");
  view_cmd->footer(kExitCodes);

  ValidateOptions validate;
  CLI::App* validate_cmd = app.add_subcommand(
      "validate",
      "Run the validation suite (published references, closed forms, convergence orders, "
      "cross-checks) and print one table: case, solver, quantity, reference, result, error, "
      "tolerance, norm, pass/fail, wall time");
  validate_cmd->add_flag("--full", validate.full, "Also run the slow cases");
  validate_cmd->add_option("--case", validate.cases, "Run only these cases (see --list)")->type_name("NAME");
  validate_cmd->add_option("--markdown", validate.markdown,
                           "Also write the table as Markdown, with the date and the git commit")
      ->type_name("FILE");
  validate_cmd->add_option("--csv", validate.csv, "Also write the table as CSV")->type_name("FILE");
  validate_cmd->add_option("--plots", validate.plots,
                           "Write work-precision plots (error vs step size or tolerance, "
                           "python3-matplotlib) and their data into DIR")
      ->type_name("DIR");
  validate_cmd->add_option("-j,--jobs", validate.jobs, "Cases run concurrently (default 2)")
      ->check(CLI::Range(1, 64));
  validate_cmd->add_flag("--list", validate.list, "List the cases and exit");
  validate_cmd->add_flag("-q,--quiet", validate.quiet, "No progress lines on stderr");
  validate_cmd->footer(kExitCodes);

  SweepOptions sweep;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep",
      "Run a parameter study (docs/sweeps.md): the cases of STUDY in parallel on all cores, or across "
      "the ranks of `mpirun -n K mbdae sweep STUDY`; one CSV row per case, written as cases finish");
  sweep_cmd->add_option("STUDY", sweep.study, "Study file (YAML; see docs/sweeps.md)")->required();
  sweep_cmd->add_option("-o,--output", sweep.table,
                        "Result table (default: output.table of the study, else <study name>.csv)")
      ->type_name("FILE");
  sweep_cmd->add_option("-j,--jobs", sweep.jobs,
                        "Worker processes (default: every processor of this machine; under MPI: per rank, "
                        "default 1)")
      ->check(CLI::Range(1, 4096));
  sweep_cmd->add_flag("--resume", sweep.resume,
                      "Continue the study of an existing table: its finished cases are kept, the rest are run");
  sweep_cmd->add_flag("--force", sweep.force, "Start again over an existing table");
  sweep_cmd->add_flag("--series", sweep.series,
                      "Also write each case's sensor rows to <table>.series/case-<n>.csv (as output.series)");
  sweep_cmd->add_flag("--plot", sweep.plot,
                      "Then plot the outputs against the parameters and write a sensitivity summary "
                      "(<table>.png, <table>.sensitivity.png/.csv; python3-matplotlib)");
  sweep_cmd->add_flag("--list", sweep.list,
                      "Print every case as the `mbdae run` command that runs it alone, and exit");
  sweep_cmd->add_flag("-q,--quiet", sweep.quiet, "No progress line");
  sweep_cmd->get_option("--force")->excludes("--resume");
  sweep_cmd->footer(kExitCodes);

  // A first word that is no command: name it (CLI11 would say "A subcommand is required" or that
  // the argument was not expected), with the closest command.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* c : app.get_subcommands({})) names.push_back(c->get_name());
    const std::string word = argv[1];
    if (std::find(names.begin(), names.end(), word) == names.end()) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      std::fprintf(stderr, "mbdae: unknown command '%s' (%scommands: %s); mbdae --help lists them\n", word.c_str(),
                   mbdae::io::did_you_mean(word, names).c_str(), list.c_str());
      return kBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return e.get_exit_code() == 0 ? code : kBadInput;
  }
  try {
    if (*run_cmd) return run_command(run);
    if (*check_cmd) return check_command(check);
    if (*import_cmd) return import_command(import_opt);
    if (*statics_cmd) return statics_command(statics);
    if (*modes_cmd) return modes_command(modes);
    if (*kinematics_cmd) return kinematics_command(kinem);
    if (*inverse_cmd) return inverse_command(inverse);
    if (*sens_cmd) return sensitivity_command(sens);
    if (*plot_cmd) return plot_command(plot_csvs, plot_prefix, plot_columns);
    if (*view_cmd) return view_command(view);
    if (*validate_cmd) return validate_command(validate);
    if (*sweep_cmd) return sweep_command(sweep);
  } catch (const std::system_error& e) {
    // fmt::print on a standard output that cannot be written (a full disk, a closed pipe).
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  } catch (const OutOfMemory& e) {
    std::fprintf(stderr, "mbdae: out of memory while %s\n", e.what());
    return kOutOfMemory;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "mbdae: out of memory (std::bad_alloc) in mbdae %s\n",
                 app.get_subcommands().empty() ? "" : app.get_subcommands().front()->get_name().c_str());
    return kOutOfMemory;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: internal error: %s\n", e.what());
    return kOtherError;
  }
  return kBadInput;
}
