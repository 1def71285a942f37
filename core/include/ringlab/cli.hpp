// The flags every lesson shares, spelled the same everywhere:
//   --count N  --type float|double|int32|int64  --iters N  --warmup N
//   --check  --bench  --format table|csv  --trace FILE  --viz [auto|unix:PATH|HOST:PORT] --viz-token T
#pragma once
#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "ringlab/dtype.hpp"

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
};

// Adds the common flags to `app` with `opt`'s current values as defaults.
void add_common_options(CLI::App& app, CommonOptions& opt);

}  // namespace ringlab
