#pragma once
/// @file sweep.h
/// `mbdae sweep`: the pieces shared by the local mode (sweep.cpp) and the MPI mode
/// (sweep_mpi.cpp).
///
/// Cases run in worker processes forked by the command (WorkerPool), never in the process that
/// keeps the table: a case that crashes the process (a signal) or hangs past its time limit is
/// recorded and its worker replaced, and the study goes on. The Coordinator hands out the cases
/// in order, one at a time to whichever worker is free (dynamic load balancing), and writes each
/// result to the table when it comes.

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include <mbdae/study/CaseRun.h>
#include <mbdae/study/Study.h>

namespace mbdae::cli {

struct SweepOptions {
  std::string study;
  std::string table;   ///< -o; empty: the study's output.table or <study stem>.csv
  int jobs = 0;        ///< worker processes (per rank under MPI); 0: the default
  bool resume = false;
  bool force = false;  ///< start again over an existing table
  bool series = false; ///< also each case's sensor rows (or output.series in the study)
  bool plot = false;
  bool list = false;   ///< print the cases and exit
  bool quiet = false;
};
int sweep_command(const SweepOptions& o);

/// Worker processes that run cases (study::run_case) and send back their results through a
/// socket. Created by fork(): the study (and the model's text) is in every worker without being
/// sent. A worker that dies is reported (its case Crashed) and replaced; one still busy at
/// `kill_after` seconds is killed (its case Timeout).
class WorkerPool {
 public:
  /// @param study       what the workers run (must outlive the pool)
  /// @param n           number of workers, ≥ 1
  /// @param series_dir  folder for each case's sensor rows (case-<id>.csv), or empty for none
  /// @param kill_after  s after which a busy worker is killed; 0: never
  /// @throws std::runtime_error if a process or socket cannot be created.
  WorkerPool(const study::Study& study, int n, std::string series_dir, double kill_after);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()); }
  bool busy(int w) const { return workers_[static_cast<size_t>(w)].case_id >= 0; }
  int busy_count() const;
  /// Hands case `c` to idle worker `w`.
  void start(int w, const study::Case& c);

  struct Finished {
    int worker;
    study::CaseResult result;
  };
  /// Waits up to timeout_ms (0: not at all; returns early on a signal) for workers to finish;
  /// returns the results that came, those of dead or killed workers included.
  std::vector<Finished> wait(int timeout_ms);
  /// Ends every worker now (SIGKILL), e.g. when the study is interrupted.
  void kill_all();

 private:
  struct Worker {
    pid_t pid = -1;
    int fd = -1;
    long case_id = -1;
    std::chrono::steady_clock::time_point started;
    bool killed = false;  // by the pool, for its time limit
  };
  void spawn(Worker& w);
  study::CaseResult lost(Worker& w);  // the result of a worker that died

  const study::Study& study_;
  std::string series_dir_;
  double kill_after_;
  std::vector<Worker> workers_;
};

/// The coordinator's side of a study: which cases are left, the table, the counts, the progress
/// line and the summary.
class Coordinator {
 public:
  Coordinator(const study::Study& study, const std::vector<study::Case>& cases, std::string table, bool quiet);
  ~Coordinator();
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;

  /// Opens the table: reads it back with resume (the cases it holds are done), refuses an
  /// existing one without resume or force. Prints the reason and returns an exit code (0: ok).
  int open(bool resume, bool force);
  /// The cases start now (after the workers are up): the origin of the wall time, the rate and
  /// the coordinator's processor time per case.
  void begin();
  /// The next case to run, in order; nullopt when every case is done or handed out.
  const study::Case* next();
  /// Writes a result to the table.
  void record(const study::CaseResult& r);
  /// Flushes the table and updates the progress line (call regularly).
  void tick();
  bool all_done() const { return done_ == static_cast<long>(cases_.size()); }
  long remaining() const { return static_cast<long>(cases_.size()) - done_; }
  /// Flushes, rewrites a complete table in case order, prints the summary. Returns the exit code.
  int finish(bool interrupted, const std::string& workers);
  const std::string& table() const { return table_; }

 private:
  void progress(bool final);
  const study::Study& study_;
  const std::vector<study::Case>& cases_;
  std::string table_;
  bool quiet_;
  std::FILE* file_ = nullptr;
  std::vector<std::string> rows_;   // by case id; empty: not done
  size_t next_ = 0;
  long done_ = 0, resumed_ = 0, run_now_ = 0;
  long counts_[5] = {0, 0, 0, 0, 0};  // by CaseStatus
  double busy_ = 0, load_ = 0, setup_ = 0, solve_ = 0;  // sums over the cases run now
  double cpu_at_begin_ = 0;  // s of processor time used before the cases started
  std::string write_error_;
  std::vector<std::string> failures_;  // the first few, for the summary
  std::chrono::steady_clock::time_point start_, last_flush_, last_progress_;
  bool dirty_ = false, tty_ = false, progress_shown_ = false;
};

/// Writes the plots of a study's table (scripts/plot_sweep.py); returns an exit code.
int plot_study(const study::Study& study, const std::string& table, bool quiet);

/// Set by SIGINT and SIGTERM while a study runs.
bool sweep_interrupted();
/// Installs the handlers of SIGINT and SIGTERM that set sweep_interrupted().
void catch_interrupts();

/// True when this process was started by mpirun/srun (an MPI launcher's environment).
bool launched_by_mpi();
#ifdef MBDAE_WITH_MPI
/// The study across the ranks of MPI_COMM_WORLD: rank 0 coordinates and writes the table, every
/// rank (0 included) runs cases in `jobs` worker processes of its own. Returns the exit code.
int sweep_mpi(const study::Study& study, const std::vector<study::Case>& cases, const SweepOptions& o,
              const std::string& table, const std::string& series_dir, double kill_after);
#endif

}  // namespace mbdae::cli
