// The flags every lesson shares, spelled the same everywhere:
//   --count N  --type float|double|int32|int64  --iters N  --warmup N
//   --check  --bench  --format table|csv  --trace FILE  --viz [auto|unix:PATH|HOST:PORT] --viz-token T
//   --device cpu|cuda|auto  --transport auto|nccl|ipc|staged|strict
#pragma once
#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <type_traits>

#include "ringlab/comm/device.hpp"
#include "ringlab/base/dtype.hpp"

namespace ringlab {

enum class Format { table, csv };

struct CommonOptions {
  long long count = 1 << 20;  // elements per rank (signed, so "-5" is an error, not 2^64-5)
  DType type = DType::f32;
  int iters = 20;
  int warmup = 5;
  bool check = false;
  bool bench = false;
  Format format = Format::table;
  std::string trace;      // also RINGLAB_TRACE
  std::string viz;        // stream events live to ringlab-viz: auto, unix:PATH, HOST:PORT; also RINGLAB_VIZ
  std::string viz_token;  // a TCP visualizer's token; also RINGLAB_VIZ_TOKEN
  // Where the collectives' data lives, and how device data moves (also RINGLAB_DEVICE,
  // RINGLAB_TRANSPORT). auto: the GPU when every rank sees one, else the CPU.
  DeviceChoice device = DeviceChoice::automatic;
  Transport transport = Transport::automatic;
  // Set by a lesson that runs its collectives on GPUs (01, 02, 03, 05, 06, 07) before Runtime::start; the
  // others refuse --device cuda instead of silently computing on the CPU.
  bool runs_on_gpu = false;
  // Set by a lesson whose device data the simulated GPU can hold (--device sim, sim_device.hpp:
  // buffers, and the replica's model): 01, 03, 05, 06, 07. Lessons 02 and 09 run their device
  // model with cuBLAS, on a real GPU only.
  bool runs_on_sim = false;
};

// Adds --device and --transport alone (lesson 01 has no other common flag).
void add_device_options(CLI::App& app, DeviceChoice& device, Transport& transport);
// Range checks for numeric flags, the common ones and each lesson's own; use with ->transform().
// The one-line error names the value and what is allowed. Whole numbers are decimal ("010" is
// ten, not octal eight) and must fit the range; other numbers must be finite (no nan, no inf).
// Bound each flag so that the products a lesson forms from it (global batch = batch x ranks, bytes
// per rank) cannot overflow, then check those products against what the run can hold.
CLI::Validator whole_number_in(long long min, long long max);
CLI::Validator whole_number_at_least(long long min);
CLI::Validator finite_number_in(double min, double max);

// A numeric flag the way every lesson declares one: its default shown in --help, its range
// checked (whole_number_in for an integer variable, finite_number_in for a floating-point one).
template <class T> using NumberBound = std::conditional_t<std::is_integral_v<T>, long long, double>;
template <class T> CLI::Option* add_number(CLI::App& app, const std::string& name, T& value,
                                           const std::string& help, NumberBound<T> min, NumberBound<T> max) {
  CLI::Option* option = app.add_option(name, value, help)->capture_default_str();
  if constexpr (std::is_integral_v<T>) return option->transform(whole_number_in(min, max));
  else return option->transform(finite_number_in(min, max));
}

// Adds the common flags to `app` with `opt`'s current values as defaults.
void add_common_options(CLI::App& app, CommonOptions& opt);

}  // namespace ringlab
