// The flags every lesson shares, spelled the same everywhere:
//   --count N  --type float|double|int32|int64  --iters N  --warmup N
//   --check  --bench  --format table|csv  --trace FILE  --viz HOST:PORT
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
  std::string trace;  // also RINGLAB_TRACE
  std::string viz;    // stream events live to ringlab-viz at HOST:PORT; also RINGLAB_VIZ
};

// Range checks for numeric flags, the common ones and each lesson's own; use with ->transform().
// The one-line error names the value and what is allowed. Whole numbers are decimal ("010" is
// ten, not octal eight) and must fit the range; other numbers must be finite (no nan, no inf).
// Bound each flag so that the products a lesson forms from it (global batch = batch x ranks, bytes
// per rank) cannot overflow, then check those products against what the run can hold.
CLI::Validator whole_number_in(long long min, long long max);
CLI::Validator whole_number_at_least(long long min);
CLI::Validator finite_number_in(double min, double max);

// Adds the common flags to `app` with `opt`'s current values as defaults.
void add_common_options(CLI::App& app, CommonOptions& opt);

}  // namespace ringlab
