#pragma once
/// @file commands.h
/// The subcommands of `mbdae`, and the exit codes they return.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <mbdae/io/ModelLoader.h>

namespace mbdae::cli {

/// Exit codes of the `mbdae` command (also in `mbdae --help`).
enum ExitCode : int {
  kSuccess = 0,
  kOtherError = 1,     ///< results could not be written, plotting failed, internal error
  kBadInput = 2,       ///< bad command line, model file or initial configuration
  kSolverFailure = 3,  ///< the solver stopped before the end time (results up to then are kept)
  kValidationFailure = 4,  ///< mbdae validate: at least one row failed
  kOutOfMemory = 5,    ///< memory ran out (loading, preparing or running; the rows so far are kept)
  kInterrupted = 130,  ///< Ctrl-C (SIGINT); results up to then are kept
};

struct RunOptions {
  std::string model;
  std::vector<std::string> sets;  ///< "key=value"
  std::string output;             ///< -o; empty: the model's output.file or <model stem>.csv
  bool plot = false;
  bool quiet = false;             ///< no progress bar, no warnings
  bool poses = true;              ///< write <results>.poses and <results>.scene.json
  bool animate = false;           ///< also write <results>.html (mbdae view)
  std::string three_js;           ///< three.min.js for the page (empty: the default)
  bool output_anywhere = false;   ///< output.file of the model may leave the working and model folders
  std::string save_state;         ///< write the run's state here (at the end, or at save_at)
  double save_at = -1;            ///< s; ≥ 0: save at the first output time ≥ save_at instead
  std::string restart;            ///< continue from this state file
};
int run_command(const RunOptions& o);

/// Options of the analyses `statics`, `modes`, `kinematics` and `inverse` (analyses.cpp).
struct AnalysisOptions {
  std::string model;
  std::vector<std::string> sets;  ///< "key=value"
  std::string output;             ///< -o; empty: <model stem>.<analysis>.csv
  bool plot = false;
  bool quiet = false;             ///< no warnings
  bool poses = true;              ///< kinematics, inverse: <results>.poses; modes: the mode shapes
  bool animate = false;           ///< also write the 3D page (mbdae view)
  std::string three_js;           ///< three.min.js for the page
  int load_steps = 1;             ///< statics, modes --at-equilibrium: load steps
  bool at_equilibrium = false;    ///< modes: about the static equilibrium
};
/// `mbdae statics`: static equilibrium with load steps (io::solve_statics).
int statics_command(const AnalysisOptions& o);
/// `mbdae modes`: frequencies, damping ratios and mode shapes (io::solve_modes).
int modes_command(const AnalysisOptions& o);
/// `mbdae kinematics`: kinematic analysis of a driven mechanism (io::solve_model_kinematics).
int kinematics_command(const AnalysisOptions& o);
/// `mbdae inverse`: drive efforts and joint reactions along the prescribed motion.
int inverse_command(const AnalysisOptions& o);

struct ViewOptions {
  std::string results;            ///< results CSV; the .poses, .scene.json, .meta.json beside it
  std::string output;             ///< the page; empty: the CSV path with .html
  std::string three_js;           ///< three.min.js (empty: $MBDAE_THREE_JS or Debian's libjs-three)
  std::vector<std::string> extra_poses;  ///< more pose files (e.g. mode shapes) to choose from
  bool quiet = false;
};
/// Writes one self-contained HTML page that animates the results in 3D (docs/viewer.md).
int view_command(const ViewOptions& o);

/// Options of `mbdae sensitivity` (sensitivity.cpp).
struct SensitivityOptions {
  std::string model;
  std::vector<std::string> sets;    ///< "key=value"
  std::vector<std::string> params;  ///< --param KEY: the parameters, as --set key paths
  std::string output;               ///< -o; empty: <model stem>.sensitivity.csv
};
/// `mbdae sensitivity`: the run's sensor columns and d(column)/d(parameter) (io::SensitivityRun).
int sensitivity_command(const SensitivityOptions& o);

struct CheckOptions {
  std::string model;
  std::vector<std::string> sets;
};
int check_command(const CheckOptions& o);

/// True for a robot description that `load_model` imports (.urdf; .xml, .mjcf: MJCF; .sdf: SDFormat; docs/import.md).
bool is_robot_file(const std::string& file);

struct ImportOptions {
  std::string input;
  std::string output;  ///< -o: the model file to write
  bool strict = false;
  bool collision = false;
  double limit_stiffness = 1e5, limit_damping = 0;
  double end_time = 1.0;
};
/// `mbdae import FILE -o model.yaml`: writes the model file equivalent to a URDF or MJCF file.
int import_command(const ImportOptions& o);

/// Loads a model with its --set overrides. A robot description (.urdf) is imported first; the
/// elements not mapped are printed as warnings. Prints every problem to stderr, one per line as
/// FILE:LINE:COL: KEY: message, and returns nullopt if there is any.
std::optional<io::LoadedModel> load_model(const std::string& file, const std::vector<std::string>& sets);
/// io::require_outputs(outputs, inputs); a refusal is printed on stderr as "mbdae: WHY" and gives false
/// (the command then exits kBadInput).
/// Memory ran out at a known place (what() says where and the model's size); main() reports it
/// with exit code kOutOfMemory.
class OutOfMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// "N bodies, N joints, N force elements, N contacts" of a loaded model.
std::string model_size(const io::LoadedModel& m);

bool outputs_allowed(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

/// Prints a problem of the model, the formulation or a solver to stderr, located at its item in
/// the model file (or at the file if it is about none): "FILE:LINE:COL: KEY: <prefix>message",
/// one line per line of the message.
void print_problem(const io::LoadedModel& m, const ModelProblem& p, const std::string& prefix = "");
/// Prints what building a run of `m` threw (ModelError: every problem; ItemError: at its item;
/// anything else: at the file).
void print_setup_error(const io::LoadedModel& m, const std::exception& e);
/// Prints what placing the bodies from the joints' initial coordinates did (m.placement), as
/// lines under the label "placement" on stdout; with `bodies`, also each placed body's pose and
/// velocity at t0. Nothing if no joint has initial coordinates.
void print_placement(const io::LoadedModel& m, bool bodies = false);
/// `s` as a JSON string literal (quotes, backslashes and control characters escaped).
std::string json_string(const std::string& s);

struct ValidateOptions {
  bool full = false;                ///< also the slow cases
  std::vector<std::string> cases;   ///< only these cases
  std::string markdown, csv, plots; ///< outputs (empty: not written)
  int jobs = 2;
  bool list = false;
  bool quiet = false;
};
/// Runs the validation suite; kValidationFailure if any row fails.
int validate_command(const ValidateOptions& o);

/// Writes <prefix>.png and <prefix>.svg from a results CSV (prefix: the CSV path without .csv).
/// Returns 0 on success; prints the reason otherwise.
int plot_command(const std::string& csv, const std::string& prefix, bool quiet = false);

/// The path of one of mbdae's scripts (plot_results.py, ...): the environment variable
/// `env_override` if it is set, else beside the executable, in ../share/mbdae, or in the source
/// tree; empty if it is nowhere.
std::string find_script(const std::string& name, const char* env_override = nullptr);

/// Runs Debian's python3 (or $MBDAE_PYTHON) with a script and its arguments, waits for it and
/// reports a failure on stderr prefixed with `who`. Returns kSuccess or kOtherError.
int run_python(const std::string& who, const std::vector<std::string>& script_and_args);

}  // namespace mbdae::cli
