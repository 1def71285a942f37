#include "ringlab/cli.hpp"

#include <map>

namespace ringlab {

void add_common_options(CLI::App& app, CommonOptions& opt) {
  app.add_option("--count", opt.count, "Elements per rank")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  const std::map<std::string, DType> types{
      {"float", DType::f32}, {"double", DType::f64}, {"int32", DType::i32}, {"int64", DType::i64}};
  app.add_option("--type", opt.type, "Element type: float, double, int32, int64")
      ->transform(CLI::CheckedTransformer(types, CLI::ignore_case))
      ->default_str("float");
  app.add_option("--iters", opt.iters, "Timed iterations per measurement")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", opt.warmup, "Untimed iterations before timing")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--check", opt.check, "Verify against the MPI reference; exit 1 on any wrong element");
  app.add_flag("--bench", opt.bench, "Print a benchmark table (nccl-tests columns)");
  const std::map<std::string, Format> formats{{"table", Format::table}, {"csv", Format::csv}};
  app.add_option("--format", opt.format, "Output of --bench: table or csv")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case))
      ->default_str("table");
  app.add_option("--trace", opt.trace, "Write a trace of every transfer to FILE (and FILE.chrome.json)")
      ->envname("RINGLAB_TRACE");
  app.add_option("--viz", opt.viz, "Stream trace events live to a visualizer at HOST:PORT (ringlab-viz --listen)")
      ->envname("RINGLAB_VIZ");
}

}  // namespace ringlab
