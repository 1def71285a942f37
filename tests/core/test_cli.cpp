// The common lesson flags (add_common_options): good values parse into CommonOptions, bad ones
// throw a CLI11 error whose message names the bad value.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ringlab/comm/cli.hpp"

using ringlab::CommonOptions;

namespace {
// Parses `args` as a lesson would; returns the options.
CommonOptions parse(std::vector<std::string> args) {
  CLI::App app{"test"};
  CommonOptions opt;
  ringlab::add_common_options(app, opt);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes argv reversed
  app.parse(reversed);
  return opt;
}

// The message of the CLI11 error that `parse()` throws ("" when it does not throw).
template <class F> std::string error_of(F&& parse) {
  try {
    parse();
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("good values of the common flags parse") {
  const auto opt = parse({"--count", "12", "--type", "int64", "--iters", "3", "--warmup", "0", "--check",
                          "--bench", "--format", "csv", "--trace", "t.jsonl"});
  CHECK(opt.count == 12);
  CHECK(opt.type == ringlab::DType::i64);
  CHECK(opt.iters == 3);
  CHECK(opt.warmup == 0);
  CHECK(opt.check);
  CHECK(opt.bench);
  CHECK(opt.format == ringlab::Format::csv);
  CHECK(opt.trace == "t.jsonl");
}

TEST_CASE("type names are accepted in any case") {
  CHECK(parse({"--type", "DOUBLE"}).type == ringlab::DType::f64);
  CHECK(parse({"--type", "Int32"}).type == ringlab::DType::i32);
}

TEST_CASE("defaults hold when no flag is given") {
  const auto opt = parse({});
  CHECK(opt.count == CommonOptions{}.count);
  CHECK(opt.type == ringlab::DType::f32);
  CHECK(opt.format == ringlab::Format::table);
  CHECK_FALSE(opt.check);
}

TEST_CASE("bad values throw, and the message names the value and what is allowed") {
  struct Case {
    std::vector<std::string> args;
    std::string must_mention;
  };
  const Case cases[] = {
      {{"--count", "-5"}, "'-5' is not a whole number >= 0"},
      {{"--count", "abc"}, "'abc' is not a whole number >= 0"},
      {{"--count", "1e3"}, "'1e3'"},
      {{"--count", "99999999999999999999"}, "'99999999999999999999' is too large"},
      {{"--type", "half"}, "'half' is not one of float, double, int32, int64"},
      {{"--iters", "0"}, "'0' is not a whole number from 1 to 1000000"},
      {{"--iters", "2000000000"}, "'2000000000' is not a whole number from 1 to 1000000"},
      {{"--warmup", "-1"}, "'-1'"},
      {{"--format", "xml"}, "'xml' is not one of table, csv"},
      {{"--bogus"}, "--bogus"},
      {{"--count"}, "--count"},
  };
  for (const auto& c : cases) {
    INFO("args: " << c.args[0] << (c.args.size() > 1 ? " " + c.args[1] : ""));
    const std::string message = error_of([&] { parse(c.args); });
    REQUIRE_FALSE(message.empty());
    CHECK(message.find(c.must_mention) != std::string::npos);
  }
}

TEST_CASE("each kind of bad input throws the matching CLI11 error") {
  CHECK_THROWS_AS(parse({"--count", "-5"}), CLI::ValidationError);
  CHECK_THROWS_AS(parse({"--type", "half"}), CLI::ValidationError);
  CHECK_THROWS_AS(parse({"--bogus"}), CLI::ExtrasError);
  CHECK_THROWS_AS(parse({"--count"}), CLI::ArgumentMismatch);
}

TEST_CASE("whole numbers are decimal: a leading zero does not make them octal") {
  CHECK(parse({"--count", "010"}).count == 10);
  CHECK(parse({"--count", "0"}).count == 0);
  CHECK(parse({"--count", "+007"}).count == 7);
  CHECK(parse({"--iters", "08"}).iters == 8);  // octal would refuse the digit 8
}

TEST_CASE("a lesson's own numbers: ranges checked, nan and inf refused, with the value in the message") {
  CLI::App app{"test"};
  double lr = 0;
  int batch = 0;
  app.add_option("--lr", lr)->transform(ringlab::finite_number_in(0, 10));
  app.add_option("--batch", batch)->transform(ringlab::whole_number_in(1, 1 << 20));
  auto error_of_args = [&](std::vector<std::string> args) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes argv reversed
    return error_of([&] { app.parse(reversed); });
  };
  CHECK(error_of_args({"--lr", "0.5", "--batch", "064"}).empty());
  CHECK(lr == 0.5);
  CHECK(batch == 64);
  CHECK(error_of_args({"--lr", "nan"}).find("'nan' is not a finite number from 0 to 10") !=
        std::string::npos);
  CHECK(error_of_args({"--lr", "inf"}).find("'inf' is not a finite number") != std::string::npos);
  CHECK(error_of_args({"--lr", "1e999"}).find("'1e999' is not a finite number") != std::string::npos);
  CHECK(error_of_args({"--lr", "11"}).find("'11' is not a finite number from 0 to 10") != std::string::npos);
  CHECK(
      error_of_args({"--batch", "1073741824"}).find("'1073741824' is not a whole number from 1 to 1048576") !=
      std::string::npos);
}
