// `mpirun -n K mbdae sweep STUDY`: the study across the ranks of an MPI job.
//
// Every rank reads the study and the model once and forks its worker processes before MPI_Init
// (so no worker inherits MPI's state). Rank 0 is the coordinator: it writes the table and hands
// out cases one at a time; it also runs cases in its own workers, because its share of the work
// is a few microseconds per case (docs/sweeps.md, the scaling model).
//
// Protocol (point to point, MPI_BYTE messages):
//   request (rank r -> 0, tag 1): [int32 slot][uint8 has_result][CaseResult bytes]
//   assign  (0 -> rank r, tag 2): [int32 slot][uint8 has_case][Case bytes]   (no case: stop)
// Each worker slot of a rank sends two requests at the start and one with every result, so that
// one case waits in the slot's queue while another runs: the slot never idles for a reply. Rank 0
// answers every request at once, with the next case or with "stop"; it ends when every case is
// in the table and every request is answered (slot: 2 + its results).

#include <cstring>
#include <deque>
#include <iterator>
#include <list>
#include <stdexcept>
#include <memory>

#include <mpi.h>
#include <fmt/core.h>

#include "commands.h"
#include "sweep.h"

namespace mbdae::cli {

namespace {

constexpr int kRequestTag = 1, kAssignTag = 2;
constexpr int kPrefetch = 2;  // requests a slot keeps open: the running case and the next one

std::string pack(int slot, const std::string* bytes) {
  std::string m(sizeof(std::int32_t) + 1, '\0');
  const std::int32_t s = slot;
  std::memcpy(m.data(), &s, sizeof s);
  m[sizeof s] = bytes ? 1 : 0;
  if (bytes) m += *bytes;
  return m;
}

struct Message {
  int source = 0;
  int slot = 0;
  bool has = false;
  std::string_view bytes;
  std::string buffer;
};

/// Receives a waiting message with `tag` from `source` (MPI_ANY_SOURCE allowed); false if none.
bool receive(int source, int tag, Message& m) {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st);
  if (!flag) return false;
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  m.buffer.resize(static_cast<size_t>(n));
  MPI_Recv(m.buffer.data(), n, MPI_BYTE, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (n < static_cast<int>(sizeof(std::int32_t) + 1)) throw std::runtime_error("malformed study message: too short");
  std::int32_t slot = 0;
  std::memcpy(&slot, m.buffer.data(), sizeof slot);
  m.source = st.MPI_SOURCE;
  m.slot = slot;
  m.has = m.buffer[sizeof slot] != 0;
  m.bytes = std::string_view(m.buffer).substr(sizeof slot + 1);
  return true;
}

/// Non-blocking sends: a rank never waits in a send (two ranks each sending a message larger
/// than MPI's eager limit to the other would wait for ever), and the buffers live until done.
class Outbox {
 public:
  void send(int dest, int tag, std::string m) {
    pending_.push_back({std::move(m), MPI_REQUEST_NULL});
    Pending& p = pending_.back();
    MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_BYTE, dest, tag, MPI_COMM_WORLD, &p.request);
    // Completed sends are dropped as new ones come.
    for (auto it = pending_.begin(); it != pending_.end() && std::next(it) != pending_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? pending_.erase(it) : std::next(it);
    }
  }
  /// Waits until every message has left.
  void flush() {
    for (Pending& p : pending_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    pending_.clear();
  }

 private:
  struct Pending {
    std::string bytes;
    MPI_Request request;
  };
  std::list<Pending> pending_;  // stable addresses for MPI
};

[[noreturn]] void abort_job() {
  MPI_Abort(MPI_COMM_WORLD, kInterrupted);
  std::_Exit(kInterrupted);
}

int coordinate(const study::Study& study, const std::vector<study::Case>& cases, const SweepOptions& o,
               const std::string& table, WorkerPool& pool, int size) {
  Coordinator co(study, cases, table, o.quiet);
  int rc = co.open(o.resume, o.force);
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rc != kSuccess) return rc;
  const int jobs = pool.size();
  const std::string workers =
      fmt::format("{} rank{} × {} process{} (MPI)", size, size == 1 ? "" : "s", jobs, jobs == 1 ? "" : "es");
  // Per remote slot (rank r, slot s at r * jobs + s): requests answered, results received.
  std::vector<long> answered(static_cast<size_t>(size * jobs), 0), results(static_cast<size_t>(size * jobs), 0);
  auto requests_open = [&] {
    for (int r = 1; r < size; ++r)
      for (int s = 0; s < jobs; ++s) {
        const size_t k = static_cast<size_t>(r * jobs + s);
        if (answered[k] != kPrefetch + results[k]) return true;
      }
    return false;
  };
  Message m;
  Outbox out;
  while (!co.all_done() || requests_open()) {
    if (sweep_interrupted()) {
      pool.kill_all();
      co.finish(true, workers);
      abort_job();
    }
    bool busy = false;
    while (receive(MPI_ANY_SOURCE, kRequestTag, m)) {
      busy = true;
      if (m.slot < 0 || m.slot >= jobs) throw std::runtime_error("malformed study message: bad slot");
      const size_t k = static_cast<size_t>(m.source * jobs + m.slot);
      if (m.has) {
        co.record(study::decode_result(m.bytes));
        ++results[k];
      }
      const study::Case* c = co.next();
      const std::string bytes = c ? study::encode(*c) : std::string();
      out.send(m.source, kAssignTag, pack(m.slot, c ? &bytes : nullptr));
      ++answered[k];
    }
    for (int w = 0; w < pool.size(); ++w)
      if (!pool.busy(w))
        if (const study::Case* c = co.next()) pool.start(w, *c);
    // Requests cannot wake poll(): look for them every millisecond.
    for (const WorkerPool::Finished& f : pool.wait(busy ? 0 : 1)) co.record(f.result);
    co.tick();
  }
  out.flush();
  return co.finish(false, workers);
}

int serve(WorkerPool& pool) {
  int rc = 0;
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rc != kSuccess) return kSuccess;  // rank 0 said why
  const size_t jobs = static_cast<size_t>(pool.size());
  std::vector<std::deque<study::Case>> queue(jobs);
  std::vector<bool> stopped(jobs, false);
  std::vector<long> sent(jobs, 0), answered(jobs, 0);
  Outbox out;
  for (size_t s = 0; s < jobs; ++s)
    for (int k = 0; k < kPrefetch; ++k, ++sent[s]) out.send(0, kRequestTag, pack(static_cast<int>(s), nullptr));
  Message m;
  for (;;) {
    if (sweep_interrupted()) {
      pool.kill_all();
      abort_job();
    }
    while (receive(0, kAssignTag, m)) {
      const size_t s = static_cast<size_t>(m.slot);
      if (s >= jobs) throw std::runtime_error("malformed study message: bad slot");
      if (m.has) queue[s].push_back(study::decode_case(m.bytes));
      else stopped[s] = true;
      ++answered[s];
    }
    bool done = true, starving = false;
    for (size_t s = 0; s < jobs; ++s) {
      if (!pool.busy(static_cast<int>(s)) && !queue[s].empty()) {
        pool.start(static_cast<int>(s), queue[s].front());
        queue[s].pop_front();
      }
      const bool idle = !pool.busy(static_cast<int>(s)) && queue[s].empty();
      done = done && idle && stopped[s] && answered[s] == sent[s];
      starving = starving || (idle && !stopped[s]);
    }
    if (done) {
      out.flush();
      return kSuccess;
    }
    // A slot waiting for its first case looks for the answer every millisecond; otherwise the
    // next case is already queued and the results wake poll().
    for (const WorkerPool::Finished& f : pool.wait(starving ? 1 : 20)) {
      const std::string bytes = study::encode(f.result);
      out.send(0, kRequestTag, pack(f.worker, &bytes));
      ++sent[static_cast<size_t>(f.worker)];
    }
  }
}

}  // namespace

int sweep_mpi(const study::Study& study, const std::vector<study::Case>& cases, const SweepOptions& o,
              const std::string& table, const std::string& series_dir, double kill_after) {
  // The workers first: forked before MPI exists in this process.
  auto pool = std::make_unique<WorkerPool>(study, o.jobs > 0 ? o.jobs : 1, series_dir, kill_after);
  MPI_Init(nullptr, nullptr);
  catch_interrupts();
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = kSuccess;
  try {
    rc = rank == 0 ? coordinate(study, cases, o, table, *pool, size) : serve(*pool);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae sweep: rank %d: %s\n", rank, e.what());
    pool.reset();
    MPI_Abort(MPI_COMM_WORLD, kOtherError);
  }
  pool.reset();
  MPI_Finalize();
  if (rank == 0 && rc == kSuccess && o.plot) rc = plot_study(study, table, o.quiet);
  return rc;
}

}  // namespace mbdae::cli
