#include "ringlab/comm/runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <sstream>
#include <string>

#include "ringlab/comm/cli.hpp"
#include "ringlab/comm/sim_device.hpp"
#include "ringlab/base/log.hpp"
#include "ringlab/trace/trace.hpp"
#include "ringlab/trace/viz_stream.hpp"
#include "fault_report.hpp"

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

// "<what> need 3 GiB per rank, more than the 2 GiB each of the 4 ranks on this host can have"
std::string too_much(const std::string& what, double need, double have, int ranks, const std::string& place) {
  std::ostringstream msg;
  msg << what << " need " << need / (1 << 30) << " GiB per rank, more than the " << have / (1 << 30)
      << " GiB each of the " << ranks << " ranks " << place << " can have";
  return msg.str();
}

double physical_memory_bytes() {
  return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

}  // namespace

Runtime::Runtime(int& argc, char**& argv) {
  // SERIALIZED: MPI may be called from more than one thread, never from two at once (lesson
  // 08's progress thread communicates while the training thread computes).
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  world_ = std::make_unique<Communicator>(MPI_COMM_WORLD);
  set_log_rank(world_->rank(), world_->size());
  std::set_terminate(on_terminate);
  fault_report::start(world_->rank(), world_->size());  // a fault says where it happened
  if (argc > 0 && argv[0]) program_ = std::filesystem::path(argv[0]).filename();
  for (int i = 1; i < argc; ++i) args_ += (i > 1 ? " " : "") + std::string(argv[i]);
  // A common time origin for the trace: every rank starts its clock right after one barrier.
  world_->barrier();
  trace::start_clock(world_->rank());
}

void Runtime::write_trace_file() {  // rank 0 gathers the lines, the trace layer merges and writes them
  if (trace::file_path().empty()) return;
  std::string all;
  for (const std::string& lines : world_->gather_strings(trace::local_lines())) all += lines;
  if (world_->rank() == 0) trace::write_merged(all, world_->size(), program_, args_);
}

Runtime::~Runtime() {
  std::fflush(stdout);
  // No message left behind: a transfer never finished, or a message no receive took, fails the
  // run (exit 1) even when the program's own results came out right.
  const bool clean = world_->finish();
  write_trace_file();
  world_.reset();
  MPI_Finalize();
  if (!clean) {
    std::fflush(nullptr);
    std::_Exit(1);
  }
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

std::optional<int> Runtime::select_device(const CommonOptions& opt) {
  const DeviceChoice device = opt.device;
  const Transport transport = opt.transport;
  const bool runs_on_gpu = opt.runs_on_gpu;
  // --device sim: the simulated GPU (sim_device.hpp), on any machine. Its buffers move as staged
  // moves a GPU's, through MPI or, with --transport strict, under the contract's strictest rules.
  if (device == DeviceChoice::sim) {
    if (auto code = fail_if(!opt.runs_on_sim,
                            std::string("--device sim: this lesson ") +
                                (runs_on_gpu ? "runs its model on a real GPU only (cuBLAS)" : "runs on the CPU only") +
                                "; lessons 01, 03, 05, 06 and 07 run on the simulated GPU"))
      return code;
    const bool movable = transport == Transport::automatic || transport == Transport::staged ||
                         transport == Transport::strict || transport == Transport::mpi;
    if (auto code = fail_if(!movable, std::string("--device sim: --transport ") + transport_name(transport) +
                                          " needs real GPUs; the simulated one moves its buffers staged "
                                          "(auto, staged, mpi or strict)"))
      return code;
    if (transport == Transport::strict) world_->use_strict();
    sim_device::start(rank(), size());
    world_->use_sim_device();
    return std::nullopt;
  }
  // --transport strict is the CPU's stand-in for nccl (transport.hpp): host buffers through MPI
  // under the strictest rules. It needs no GPU, and it is refused with one.
  if (transport == Transport::strict) {
    if (auto code = fail_if(device == DeviceChoice::cuda,
                            "--transport strict runs on the CPU (host buffers through MPI under NCCL's rules); "
                            "with --device cuda use nccl, ipc or staged"))
      return code;
    world_->use_strict();
    return std::nullopt;
  }
  // Any other --transport says how *device* buffers move; host buffers move through MPI, so on
  // the CPU such a --transport is accepted and has nothing to do (RINGLAB_TRANSPORT may be set
  // for a whole session that also runs CPU lessons).
  if (device == DeviceChoice::cpu) return std::nullopt;
  if (!runs_on_gpu)
    return fail_if(
        device == DeviceChoice::cuda,
        "--device cuda: this lesson runs on the CPU only (lessons 01, 02, 03, 05, 06 and 07 run on GPUs)");
  const int gpus = cuda_device_count();
  const bool everyone = comm().all_ok(gpus > 0);
  if (!everyone && device == DeviceChoice::automatic) {
    // A GPU that is there but cannot be used because the driver is too old must not pass in
    // silence: the run would go on, slowly, on the CPU.
    const std::string why = why_no_gpu();
    if (why.find("is older than") != std::string::npos)
      log(Level::warning) << "--device auto: running on the CPU: " << why;
    return std::nullopt;
  }
  if (!everyone) {  // --device cuda where some rank has no GPU: every rank says why it stops
    std::string why = gpus > 0 ? "another rank sees no GPU" : why_no_gpu();
    std::fprintf(stderr, "error: rank %d on %s: --device cuda: %s (exit 77: skipped)\n", rank(),
                 comm().host().c_str(), why.c_str());
    return 77;
  }
  const int gpu = comm().local_rank() % gpus;  // Horovod's set_device(local_rank)
  use_gpu(gpu);
  std::string error;
  const bool ok = world_->use_device(gpu, transport, &error);
  return fail_if(!ok, error);
}

std::optional<int> Runtime::start(CLI::App& app, CommonOptions& opt, int argc, char** argv, int buffers) {
  if (auto code = parse(app, argc, argv)) return code;
  if (auto code = select_device(opt)) return code;

  // Will `buffers` arrays of --count elements fit? (In double: --count x 8 x 3 cannot overflow.)
  // Ranks on one host share its memory (and ranks on one GPU share that GPU's).
  const double need = static_cast<double>(opt.count) * dtype_size(opt.type) * buffers;
  std::ostringstream what;
  what << "--count " << opt.count << ": " << buffers << " buffers of that many " << dtype_name(opt.type);
  if (auto code = fail_if_over_memory(need, what.str())) return code;
  if (comm().where() == Where::device && !sim_device::on()) {  // the same buffers on the GPU, shared by its ranks
    const int gpus = cuda_device_count(), gpu = comm().gpu();
    int sharing = 0;  // local ranks that picked this GPU (local_rank % gpus == gpu)
    for (int l = 0; l < comm().local_size(); ++l) sharing += l % gpus == gpu;
    const double gpu_have = static_cast<double>(gpu_info(gpu).memory_bytes) / std::max(sharing, 1);
    const std::string on_gpu = too_much(what.str(), need, gpu_have, sharing, "on GPU " + std::to_string(gpu));
    if (auto code = fail_if(need > 0.8 * gpu_have, on_gpu)) return code;
  }

  if (!opt.trace.empty()) {
    std::string error;
    const bool ok = rank() != 0 || trace::can_write(opt.trace, &error);  // only rank 0 writes it
    if (auto code = fail_if(!ok, error)) return code;
    trace::collect_for_file(opt.trace);
  }
  const CLI::Option* viz_flag = app.get_option_no_throw("--viz");
  if (viz_flag && viz_flag->count() > 0 && opt.viz.empty())
    opt.viz = "auto";      // --viz alone: this user's visualizer
  if (!opt.viz.empty()) {  // live view: optional, so an absent visualizer is one warning, not an error
    std::string error;
    viz_stream::Address where;
    if (auto code = fail_if(!viz_stream::parse_address(opt.viz, where, &error), error)) return code;
    if (auto code = fail_if(where.tcp && opt.viz_token.empty(),
                            "--viz " + opt.viz + ": a TCP visualizer needs its token (it printed it): " +
                                "RINGLAB_VIZ_TOKEN=T or --viz-token T"))
      return code;
    const bool ok = viz_stream::connect(opt.viz, opt.viz_token, rank(), size(), program_, args_, &error);
    if (!comm().all_ok(ok) && rank() == 0)
      log(Level::warning) << (ok ? "visualizer at " + where.text() + " not reachable from every rank" : error)
                          << "; running without it";
  }
  return std::nullopt;
}

std::optional<int> Runtime::fail_if_over_memory(double bytes_per_rank, const std::string& what) {
  // Ranks on one host share its memory; leave a fifth of it to everything else.
  const double have = physical_memory_bytes() / comm().local_size();
  const std::string on_host = too_much(what, bytes_per_rank, have, comm().local_size(), "on this host");
  return fail_if(!(bytes_per_rank <= 0.8 * have), on_host);
}

void print_once(Communicator& comm, const std::string& text) {
  if (comm.rank() != 0) return;
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

void print_in_rank_order(Communicator& comm, const std::string& line) {
  for (const auto& l : comm.gather_strings(line)) std::printf("%s\n", l.c_str());
  std::fflush(stdout);
}

}  // namespace ringlab
