// Worker processes of `mbdae sweep`: forked once, fed case after case through a socket.
//
// Why processes and not threads: a case runs code over user input (models, expressions,
// solvers); if one of them ever crashes (a signal) or stops answering, only its worker dies or
// is killed, its case is recorded as crashed or timed out, a new worker takes its place and the
// study goes on. The cost is one fork per worker at the start and a few microseconds of socket
// traffic per case (measured in docs/sweeps.md), against tens of milliseconds of run.

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

namespace mbdae::cli {

namespace {

using Clock = std::chrono::steady_clock;

/// Frames on a stream socket: an 8-byte length, then the bytes.
bool write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}
bool read_all(int fd, char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = ::read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}
bool send_frame(int fd, const std::string& bytes) {
  const std::uint64_t n = bytes.size();
  return write_all(fd, reinterpret_cast<const char*>(&n), sizeof n) && write_all(fd, bytes.data(), bytes.size());
}
bool receive_frame(int fd, std::string& bytes) {
  std::uint64_t n = 0;
  if (!read_all(fd, reinterpret_cast<char*>(&n), sizeof n) || n > (1u << 30)) return false;
  bytes.resize(n);
  return read_all(fd, bytes.data(), n);
}

/// The process name `ps` shows (at most 15 characters): which case a worker runs.
void set_process_name(const std::string& name) { prctl(PR_SET_NAME, name.substr(0, 15).c_str(), 0, 0, 0); }

/// A worker's life: cases in, results out, until the socket closes.
[[noreturn]] void worker_main(const study::Study& study, int fd, const std::string& series_dir) {
  std::signal(SIGINT, SIG_IGN);  // Ctrl-C is the coordinator's to handle
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGPIPE, SIG_DFL);
  set_process_name("sweep idle");
  std::string frame;
  while (receive_frame(fd, frame)) {
    study::Case c;
    try {
      c = study::decode_case(frame);
    } catch (const std::exception&) {
      _exit(2);
    }
    set_process_name("case " + std::to_string(c.id));
    const std::string series =
        series_dir.empty() ? std::string() : series_dir + "/case-" + std::to_string(c.id) + ".csv";
    const study::CaseResult r = study::run_case(study, c, series);
    if (!send_frame(fd, study::encode(r))) _exit(0);
    set_process_name("sweep idle");
  }
  _exit(0);
}

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return "signal " + std::to_string(sig) + (abbrev ? std::string(" (SIG") + abbrev + ", " + strsignal(sig) + ")" : "");
}

}  // namespace

WorkerPool::WorkerPool(const study::Study& study, int n, std::string series_dir, double kill_after)
    : study_(study), series_dir_(std::move(series_dir)), kill_after_(kill_after), workers_(static_cast<size_t>(n)) {
  for (Worker& w : workers_) spawn(w);
}

WorkerPool::~WorkerPool() {
  for (Worker& w : workers_) {
    if (w.fd >= 0) ::close(w.fd);  // an idle worker ends on EOF
    if (w.pid > 0 && w.case_id >= 0) ::kill(w.pid, SIGKILL);
  }
  for (Worker& w : workers_)
    if (w.pid > 0)
      while (::waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
}

void WorkerPool::spawn(Worker& w) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(std::string("cannot create a socket for a worker: ") + std::strerror(errno));
  std::fflush(stdout);  // nothing buffered may be written twice
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // The worker dies with the coordinator (kill -9 included), so a killed study leaves nothing behind.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(0);
    ::close(sv[0]);
    for (const Worker& other : workers_)
      if (other.fd >= 0) ::close(other.fd);
    worker_main(study_, sv[1], series_dir_);
  }
  ::close(sv[1]);
  w.pid = pid;
  w.fd = sv[0];
  w.case_id = -1;
  w.killed = false;
}

int WorkerPool::busy_count() const {
  return static_cast<int>(std::count_if(workers_.begin(), workers_.end(), [](const Worker& w) { return w.case_id >= 0; }));
}

void WorkerPool::start(int index, const study::Case& c) {
  Worker& w = workers_[static_cast<size_t>(index)];
  w.case_id = c.id;
  w.started = Clock::now();
  w.killed = false;
  const std::string frame = study::encode(c);
  if (send_frame(w.fd, frame)) return;
  // The worker died while idle (killed from outside): the case goes to its replacement.
  ::close(w.fd);
  w.fd = -1;
  while (::waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  spawn(w);
  w.case_id = c.id;
  w.started = Clock::now();
  send_frame(w.fd, frame);  // a failure now is seen by wait() as a lost worker
}

study::CaseResult WorkerPool::lost(Worker& w) {
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  study::CaseResult r;
  r.id = w.case_id;
  r.t_reached = std::nan("");
  r.outputs.assign(study_.outputs.size(), std::nan(""));
  r.wall_time = std::chrono::duration<double>(Clock::now() - w.started).count();
  if (w.killed) {
    r.status = study::CaseStatus::Timeout;
    char buf[160];
    std::snprintf(buf, sizeof buf, "no result %g s after the time limit of %g s: the worker process was killed",
                  kill_after_ - study_.time_limit, study_.time_limit);
    r.message = buf;
  } else {
    r.status = study::CaseStatus::Crashed;
    r.message = WIFSIGNALED(status) ? "the worker process died: " + signal_text(WTERMSIG(status))
                                    : "the worker process exited with code " + std::to_string(WEXITSTATUS(status));
  }
  return r;
}

std::vector<WorkerPool::Finished> WorkerPool::wait(int timeout_ms) {
  std::vector<Finished> out;
  // Busy workers past their time: killed now, reported below when their socket closes.
  auto now = Clock::now();
  for (Worker& w : workers_) {
    if (w.case_id < 0 || kill_after_ <= 0 || w.killed) continue;
    const double remaining = kill_after_ - std::chrono::duration<double>(now - w.started).count();
    if (remaining <= 0) {
      ::kill(w.pid, SIGKILL);
      w.killed = true;
    } else {
      timeout_ms = std::min(timeout_ms, static_cast<int>(remaining * 1000) + 1);
    }
  }
  std::vector<pollfd> fds;
  for (const Worker& w : workers_) fds.push_back({w.fd, POLLIN, 0});
  const int k = ::poll(fds.data(), fds.size(), timeout_ms);
  if (k <= 0) return out;  // timeout or a signal
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    Worker& w = workers_[i];
    std::string frame;
    if (receive_frame(w.fd, frame)) {
      try {
        out.push_back({static_cast<int>(i), study::decode_result(frame)});
        w.case_id = -1;
        continue;
      } catch (const std::exception&) {
        ::kill(w.pid, SIGKILL);  // a worker that talks nonsense is replaced
      }
    }
    ::close(w.fd);
    w.fd = -1;
    const long id = w.case_id;
    study::CaseResult r = lost(w);
    spawn(w);
    if (id >= 0) out.push_back({static_cast<int>(i), std::move(r)});
  }
  return out;
}

void WorkerPool::kill_all() {
  for (Worker& w : workers_)
    if (w.pid > 0) ::kill(w.pid, SIGKILL);
}

}  // namespace mbdae::cli
