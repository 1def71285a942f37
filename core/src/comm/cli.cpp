#include "ringlab/comm/cli.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <vector>

namespace ringlab {

// A whole number in [min, max], written as plain decimal digits. The text is rewritten without
// leading zeros before CLI11 converts it: CLI11 reads "010" as octal 8, a learner means ten. The
// error names the value and what is allowed: "--count: '-5' is not a whole number >= 0" (CLI11's
// own range check prints its bounds as 300-digit doubles, and calls "abc" out of range).
CLI::Validator whole_number_in(long long min, long long max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        const std::string allowed =
            "is not a whole number " + (max == std::numeric_limits<long long>::max()
                                            ? ">= " + std::to_string(min)
                                            : "from " + std::to_string(min) + " to " + std::to_string(max));
        const bool negative = !text.empty() && text[0] == '-';
        std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
        const bool digits = i < text.size() && text.find_first_not_of("0123456789", i) == std::string::npos;
        if (!digits) return "'" + text + "' " + allowed;
        while (i + 1 < text.size() && text[i] == '0') ++i;  // "007" -> "7", "000" -> "0"
        const std::string decimal = (negative ? "-" : "") + text.substr(i);
        long long value = 0;
        try {
          value = std::stoll(decimal);
        } catch (const std::exception&) {
          return "'" + text + "' is too large";  // more digits than any long long
        }
        if (value < min || value > max) return "'" + text + "' " + allowed;
        text = decimal;
        return {};
      },
      "");
}

CLI::Validator whole_number_at_least(long long min) {
  return whole_number_in(min, std::numeric_limits<long long>::max());
}

// A finite number in [min, max]: "nan" and "inf" parse as doubles, and would train a model of
// NaNs that every comparison then calls fine.
CLI::Validator finite_number_in(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::ostringstream allowed;
        allowed << "'" << text << "' is not a finite number from " << min << " to " << max;
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value) || value < min ||
            value > max)
          return allowed.str();
        return {};
      },
      "");
}

namespace {

// One of a few names (any case), mapped to its value: "--type: 'half' is not one of float,
// double, int32, int64". CLI11 runs the transform added last first: the name is checked, then
// mapped to the enum.
template <class E>
CLI::Option* one_of(CLI::Option* option, const std::vector<std::pair<std::string, E>>& choices) {
  std::string list;
  for (const auto& [name, value] : choices) list += (list.empty() ? "" : ", ") + name;
  auto known = [choices, list](std::string& text) -> std::string {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    for (const auto& [name, value] : choices)
      if (name == lower) return {};
    return "'" + text + "' is not one of " + list;
  };
  return option->transform(CLI::CheckedTransformer(choices, CLI::ignore_case).description(""))
      ->transform(CLI::Validator(known, "{" + list + "}"));
}

}  // namespace

void add_common_options(CLI::App& app, CommonOptions& opt) {
  app.add_option("--count", opt.count, "Elements per rank (>= 0)")
      ->capture_default_str()
      ->transform(whole_number_at_least(0));
  one_of<DType>(app.add_option("--type", opt.type, "Element type: float, double, int32, int64"),
                {{"float", DType::f32}, {"double", DType::f64}, {"int32", DType::i32}, {"int64", DType::i64}})
      ->default_str("float");
  add_number(app, "--iters", opt.iters, "Timed iterations per measurement (1 to 1000000)", 1, 1000000);
  add_number(app, "--warmup", opt.warmup, "Untimed iterations before timing (0 to 1000000)", 0, 1000000);
  app.add_flag("--check", opt.check, "Verify against the MPI reference; exit 1 on any wrong element");
  app.add_flag("--bench", opt.bench, "Print a benchmark table (nccl-tests columns)");
  one_of<Format>(app.add_option("--format", opt.format, "Output of --bench: table or csv"),
                 {{"table", Format::table}, {"csv", Format::csv}})
      ->default_str("table");
  app.add_option("--trace", opt.trace, "Write a trace of every transfer to FILE (and FILE.chrome.json)")
      ->envname("RINGLAB_TRACE");
  // --viz alone (an empty value) means "auto": this user's visualizer (Runtime::start).
  app.add_option("--viz", opt.viz,
                 "Stream trace events live to ringlab-viz --listen: alone (or auto) this user's "
                 "visualizer, unix:PATH, or HOST:PORT with --viz-token")
      ->expected(0, 1)
      ->envname("RINGLAB_VIZ");
  app.add_option(
         "--viz-token", opt.viz_token,
         "The token a TCP visualizer printed (--viz HOST:PORT needs it); better in RINGLAB_VIZ_TOKEN, "
         "which other users cannot read in the process list")
      ->envname("RINGLAB_VIZ_TOKEN");
  add_device_options(app, opt.device, opt.transport);
}

void add_device_options(CLI::App& app, DeviceChoice& device, Transport& transport) {
  one_of<DeviceChoice>(
      app.add_option("--device", device,
                     "Where the data lives: cpu, cuda (GPU local_rank % GPUs on the host), "
                     "auto (cuda when every rank sees a GPU), or sim (a GPU simulated in host memory: "
                     "host code that touches device data stops there, as it crashes on a GPU)"),
      {{"cpu", DeviceChoice::cpu},
       {"cuda", DeviceChoice::cuda},
       {"auto", DeviceChoice::automatic},
       {"sim", DeviceChoice::sim}})
      ->default_str("auto")
      ->envname("RINGLAB_DEVICE");
  one_of<Transport>(
      app.add_option(
          "--transport", transport,
          "How buffers move between ranks. GPU buffers: auto, nccl, ipc (CUDA IPC on one host), "
          "staged (through host memory and MPI). strict: on the CPU, MPI under the GPU transports' "
          "strictest rules (nothing moves before a wait, a wait finishes everything posted as one "
          "group, sends wait for their receive): what would deadlock under nccl deadlocks here"),
      {{"auto", Transport::automatic},
       {"nccl", Transport::nccl},
       {"ipc", Transport::ipc},
       {"staged", Transport::staged},
       {"strict", Transport::strict}})
      ->default_str("auto")
      ->envname("RINGLAB_TRANSPORT");
}

}  // namespace ringlab
