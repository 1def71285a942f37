// The Runtime is the first line of every lesson's main(): it starts MPI, sets up rank-prefixed
// logging and the world communicator, parses the command line the same way on every rank, and
// at the end writes the trace and shuts MPI down.
//
// Errors in what the user typed are found on every rank (each parses the same argv), so every
// rank exits with code 2 together: nobody waits forever for a rank that gave up.
#pragma once
#include <CLI/CLI.hpp>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

#include "ringlab/comm/comm.hpp"
#include "ringlab/comm/device.hpp"

namespace ringlab {

struct CommonOptions;

class Runtime {
 public:
  Runtime(int& argc, char**& argv);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  Communicator& comm() { return *world_; }
  int rank() const { return world_->rank(); }
  int size() const { return world_->size(); }

  // Parses argv. Returns an exit code when main() should return now: 0 after --help, 2 after a
  // bad flag (one line on stderr from rank 0). Returns nothing when the lesson should go on.
  std::optional<int> parse(CLI::App& app, int argc, char** argv);
  // parse() plus the checks every lesson with CommonOptions needs: the buffers fit in memory
  // (`buffers` arrays of --count elements per rank) and the trace file can be written.
  std::optional<int> start(CLI::App& app, CommonOptions& opt, int argc, char** argv, int buffers = 3);

  // --device / --transport: picks where this rank's collectives keep their data (start() calls
  // it; lesson 01 calls it alone). auto is cuda only when every rank sees a GPU. cuda with no
  // GPU: one line on every rank and 77 back (the test suites' "skipped"); a lesson that runs on
  // the CPU only (runs_on_gpu false) refuses --device cuda with exit 2, and one that the
  // simulated GPU cannot run (runs_on_sim false) refuses --device sim.
  std::optional<int> select_device(const CommonOptions& opt);

  // Every rank passes its own verdict. If any rank is `bad`, the lowest such rank prints
  // "error: <message>" and every rank gets 2 back to return from main(); else nothing.
  std::optional<int> fail_if(bool bad, const std::string& message);

  // Sizes the user chose must fit this host's memory, shared by its ranks: if `bytes_per_rank`
  // (computed in double, so that no product of flags can wrap) is more than a rank's share,
  // "error: <what> need X GiB per rank, more than ..." and 2 on every rank.
  std::optional<int> fail_if_over_memory(double bytes_per_rank, const std::string& what);

  // Every lesson accepts the common flags, but not every lesson uses all of them (lesson 06
  // trains a float model: --type means nothing there). A flag the user gave that this lesson
  // would silently ignore is an error instead: "--type does not apply here: <why>", exit 2.
  std::optional<int> refuse_unused(const CLI::App& app, std::initializer_list<const char*> flags,
                                   const std::string& why);

 private:
  void write_trace_file();  // collective: every rank's trace lines to rank 0's file
  std::unique_ptr<Communicator> world_;
  std::string program_, args_;
};

// Prints `text` from rank 0 only (the usual way to print one result for the whole run).
void print_once(Communicator& comm, const std::string& text);
// Every rank's line, printed by rank 0 in rank order.
void print_in_rank_order(Communicator& comm, const std::string& line);

}  // namespace ringlab
