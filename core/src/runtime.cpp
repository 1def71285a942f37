#include "ringlab/runtime.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>

#include "ringlab/cli.hpp"
#include "ringlab/log.hpp"
#include "ringlab/trace.hpp"
#include "ringlab/viz_stream.hpp"

namespace ringlab {
namespace {

// An exception nobody caught: print it as one line and take the whole job down, rather than
// leaving the other ranks waiting for this one forever.
[[noreturn]] void on_terminate() {
  std::string what = "unknown error";
  if (auto e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      what = ex.what();
    } catch (...) {
    }
  }
  log(Level::error) << what;
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

std::string basename_of(const char* path) {
  std::string p = path ? path : "";
  auto slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

double physical_memory_bytes() {
  return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

}  // namespace

Runtime::Runtime(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  world_ = std::make_unique<Communicator>(MPI_COMM_WORLD);
  set_log_rank(world_->rank(), world_->size());
  std::set_terminate(on_terminate);
  program_ = basename_of(argc > 0 ? argv[0] : nullptr);
  for (int i = 1; i < argc; ++i) args_ += (i > 1 ? " " : "") + std::string(argv[i]);
  // A common time origin for the trace: every rank starts its clock right after one barrier.
  world_->barrier();
  trace::start_clock(world_->rank());
}

Runtime::~Runtime() {
  std::fflush(stdout);
  trace::write_file(world_->rank(), world_->size(), program_, args_);
  world_.reset();
  MPI_Finalize();
}

std::optional<int> Runtime::parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank() == 0) std::printf("%s", app.help().c_str());
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    if (rank() == 0) std::printf("%s", app.help("", CLI::AppFormatMode::All).c_str());
    return 0;
  } catch (const CLI::ParseError& e) {
    // Every rank parsed the same argv and failed the same way; rank 0 speaks for all.
    if (rank() == 0) std::fprintf(stderr, "error: %s (see --help)\n", e.what());
    return 2;
  }
  return std::nullopt;
}

std::optional<int> Runtime::fail_if(bool bad, const std::string& message) {
  // The lowest rank that found a problem reports it; everyone learns that someone did.
  int mine = bad ? rank() : size(), first = size();
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size()) return std::nullopt;
  if (rank() == first) std::fprintf(stderr, "error: %s\n", message.c_str());
  return 2;
}

std::optional<int> Runtime::refuse_unused(const CLI::App& app, std::initializer_list<const char*> flags,
                                          const std::string& why) {
  std::string given;
  for (const char* flag : flags)
    if (app.count(flag) > 0) given += (given.empty() ? "" : ", ") + std::string(flag);
  return fail_if(!given.empty(), given + " does not apply to this lesson: " + why);
}

std::optional<int> Runtime::start(CLI::App& app, CommonOptions& opt, int argc, char** argv, int buffers) {
  if (auto code = parse(app, argc, argv)) return code;

  // Will `buffers` arrays of --count elements fit? (In double: --count x 8 x 3 cannot overflow.)
  std::ostringstream what;
  what << "--count " << opt.count << ": " << buffers << " buffers of that many " << dtype_name(opt.type);
  if (auto code =
          fail_if_over_memory(static_cast<double>(opt.count) * dtype_size(opt.type) * buffers, what.str()))
    return code;

  if (!opt.trace.empty()) {
    std::string error;
    const bool ok = rank() != 0 || trace::can_write(opt.trace, &error);  // only rank 0 writes it
    if (auto code = fail_if(!ok, error)) return code;
    trace::collect_for_file(opt.trace);
  }
  if (!opt.viz.empty()) {  // live view: optional, so an absent visualizer is one warning, not an error
    std::string error;
    if (auto code = fail_if(!viz_stream::valid_address(opt.viz, &error), error)) return code;
    const bool ok = viz_stream::connect(opt.viz, rank(), size(), program_, args_, &error);
    if (!comm().all_ok(ok) && rank() == 0)
      log(Level::warning) << (ok ? "visualizer at " + opt.viz + " not reachable from every rank" : error)
                          << "; running without it";
  }
  return std::nullopt;
}

std::optional<int> Runtime::fail_if_over_memory(double bytes_per_rank, const std::string& what) {
  // Ranks on one host share its memory; leave a fifth of it to everything else.
  const double have = physical_memory_bytes() / comm().local_size();
  std::ostringstream msg;
  msg << what << " need " << bytes_per_rank / (1 << 30) << " GiB per rank, more than the " << have / (1 << 30)
      << " GiB each of the " << comm().local_size() << " ranks on this host can have";
  return fail_if(!(bytes_per_rank <= 0.8 * have), msg.str());
}

void print_once(Communicator& comm, const std::string& text) {
  if (comm.rank() != 0) return;
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

void print_in_rank_order(Communicator& comm, const std::string& line) {
  auto lines = comm.gather_strings(line);
  for (const auto& l : lines) std::printf("%s\n", l.c_str());
  std::fflush(stdout);
}

}  // namespace ringlab
