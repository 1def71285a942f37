// The trace format (docs/trace-format.md): every field of an event and of the header survives
// encode -> decode, and lines that are not valid events or headers are refused with a reason.
#include <string>
#include <tuple>

#include "catch.hpp"
#include "ringlab/trace/trace.hpp"

using namespace ringlab::trace;

namespace {
Event full_event() {
  return Event{.rank = 3,
               .op = Op::send,
               .peer = 0,
               .coll = "ring_allreduce",
               .call = 7,
               .phase = "reduce-scatter",
               .step = 2,
               .chunk = 1,
               .bytes = 4096,
               .count = 1024,
               .dtype = "float",
               .t0 = 12.5,
               .t1 = 14.25,
               .name = "loss",
               .value = 0.125,
               .values = {1, -2.5, 3e10},
               .where = "device",
               .transport = "staged",
               .gpu_t0 = 13.0,
               .gpu_t1 = 13.75};
}
}  // namespace

// Two events are equal when every field is; a failed comparison shows both as trace lines.
namespace ringlab::trace {
bool operator==(const Event& a, const Event& b) {
  auto fields = [](const Event& e) {
    return std::tie(e.rank, e.op, e.peer, e.coll, e.call, e.phase, e.step, e.chunk, e.bytes, e.count, e.dtype,
                    e.t0, e.t1, e.name, e.value, e.values, e.where, e.transport, e.gpu_t0, e.gpu_t1);
  };
  return fields(a) == fields(b);
}
}  // namespace ringlab::trace
template <> struct Catch::StringMaker<Event> {
  static std::string convert(const Event& e) { return encode(e); }
};

// Each of `bad` is refused by `decode`, which says why.
template <std::size_t N, class Decode> void refused_with_a_reason(const char* (&bad)[N], Decode decode) {
  for (const char* line : bad) {
    INFO("line: " << line);
    std::string error;
    CHECK_FALSE(decode(line, &error));
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE("an event with every field set survives encode and decode") {
  const Event e = full_event();
  std::string error;
  auto back = decode_event(encode(e), &error);
  REQUIRE(back);
  CHECK(error.empty());
  CHECK(*back == e);
}

TEST_CASE("every op name round-trips") {
  for (Op op : {Op::begin, Op::end, Op::send, Op::recv, Op::reduce, Op::copy, Op::compute, Op::metric}) {
    Event e = full_event();
    e.op = op;
    auto back = decode_event(encode(e));
    REQUIRE(back);
    CHECK(back->op == op);
    CHECK(parse_op(op_name(op)) == op);
  }
}

TEST_CASE("an event with default fields round-trips to the same defaults") {
  Event e;
  e.rank = 0;
  e.op = Op::reduce;
  const std::string line = encode(e);
  CHECK(line.find("peer") == std::string::npos);  // absent means default
  auto back = decode_event(line);
  REQUIRE(back);
  CHECK(*back == e);
}

TEST_CASE("GPU times are written only when the GPU timed the event, and get a row of their own") {
  Event host = full_event();
  host.gpu_t0 = host.gpu_t1 = 0;
  CHECK(encode(host).find("gpu_t0") == std::string::npos);  // today's traces are unchanged
  Event gpu = full_event();
  gpu.rank = 1;
  const std::string chrome = to_chrome_json({host, gpu});
  // One GPU row, for rank 1 only (rows: ranks 0..3, compute 4..7, GPUs 8..11), at the GPU's times.
  CHECK(chrome.find("\"rank 1 GPU\"") != std::string::npos);
  CHECK(chrome.find("\"rank 3 GPU\"") == std::string::npos);
  CHECK(chrome.find("\"tid\":9,\"ts\":13.0") != std::string::npos);
  CHECK(chrome.find("\"dur\":0.75") != std::string::npos);
}

TEST_CASE("the header survives encode and decode") {
  const Header h{.ranks = 5, .program = "lesson_05", .args = "--check --count 8"};
  auto back = decode_header(encode(h));
  REQUIRE(back);
  CHECK(back->version == 1);
  CHECK(back->ranks == 5);
  CHECK(back->program == "lesson_05");
  CHECK(back->args == "--check --count 8");
}

TEST_CASE("malformed event lines are refused with a reason") {
  const char* bad[] = {
      "",                                                        // empty
      "not json",                                                // not JSON
      "[1,2,3]",                                                 // not an object
      R"({"op":"send","t0":0,"t1":0})",                          // no rank
      R"({"rank":0,"t0":0,"t1":0})",                             // no op
      R"({"rank":0,"op":"teleport"})",                           // unknown op
      R"({"rank":-1,"op":"send"})",                              // negative rank
      R"({"rank":"zero","op":"send"})",                          // rank of the wrong type
      R"({"rank":0,"op":"send","step":"two"})",                  // step of the wrong type
      R"({"rank":0,"op":"send","values":[1,"x"]})",              // a value that is not a number
      R"({"rank":0,"op":"send","bytes":-5})",                    // bytes cannot be negative
      R"({"rank":0,"op":"send","chunk":1.5})",                   // a chunk index is whole
      R"({"rank":4294967297,"op":"send"})",                      // would be rank 1 in 32 bits
      R"({"rank":0,"op":"send","peer":-4294967295})",            // would be peer 1 in 32 bits
      R"({"rank":0,"op":7})",                                    // op of the wrong type
      R"({"rank":0,"op":"send","coll":["x"]})",                  // a name that is not a string
      R"({"rank":0,"op":"send","t0":"soon"})",                   // a time that is not a number
      R"({"rank":0,"op":"send","values":{"a":1}})",              // values that are not a list
      R"({"rank":0,"op":"send","call":1e300})",                  // a huge float for a whole number
      R"({"rank":0,"op":"send","count":18446744073709551616})",  // past 64 bits
  };
  refused_with_a_reason(bad, decode_event);
}

TEST_CASE("malformed headers are refused with a reason") {
  const char* bad[] = {
      "{}",
      R"({"format":"other","version":1,"ranks":2})",
      R"({"format":"ringlab-trace","version":2,"ranks":2})",
      R"({"format":"ringlab-trace","version":1,"ranks":0})",
      R"({"format":"ringlab-trace","version":1,"ranks":"two"})",
      R"({"format":[]})",  // format of the wrong type
      R"({"format":{"a":1},"version":1,"ranks":2})",
      R"({"format":"ringlab-trace","version":1,"ranks":4294967298})",  // would be 2 in 32 bits
      R"({"format":"ringlab-trace","version":4294967297,"ranks":2})",  // would be version 1
      R"({"format":"ringlab-trace","version":1,"ranks":2,"program":5})",
      "garbage",
  };
  refused_with_a_reason(bad, decode_header);
}

TEST_CASE("a refused field is named in the reason") {
  std::string error;
  CHECK_FALSE(decode_event(R"({"rank":4294967297,"op":"send"})", &error));
  CHECK(error.find("'rank'") != std::string::npos);
  CHECK(error.find("2147483647") != std::string::npos);
  CHECK_FALSE(decode_event(R"({"rank":0,"op":"send","t0":"soon"})", &error));
  CHECK(error == "field 't0' must be a number");
  CHECK_FALSE(decode_header(R"({"format":"ringlab-trace","version":1,"ranks":2,"args":[1]})", &error));
  CHECK(error == "field 'args' must be a string");
}

TEST_CASE("bytes that are not UTF-8 (a Latin-1 file name) are encoded, not thrown") {
  const Header h{.program = "lesson_05", .args = "--trace /tmp/caf\xe9.trace"};  // Latin-1 e-acute: not UTF-8
  std::string line;
  REQUIRE_NOTHROW(line = encode(h));
  auto back = decode_header(line);
  REQUIRE(back);
  CHECK(back->args == "--trace /tmp/caf\xef\xbf\xbd.trace");  // U+FFFD in its place
  Event e;
  e.name = "loss\xff";
  REQUIRE_NOTHROW(line = encode(e));
  REQUIRE(decode_event(line));
  CHECK(decode_event(line)->name == "loss\xef\xbf\xbd");
}

TEST_CASE("a capture collects what is recorded while it lives, and tracing is off again after it") {
  REQUIRE_FALSE(enabled());
  {
    Capture capture;
    CHECK(enabled());
    Event e;
    e.op = Op::send;
    e.peer = 3;
    e.chunk = 2;
    record(e);
    const auto got = capture.take();
    REQUIRE(got.size() == 1);
    CHECK(got[0].peer == 3);
    CHECK(got[0].chunk == 2);
    CHECK(capture.take().empty());  // take starts again from empty
  }
  CHECK_FALSE(enabled());
}

TEST_CASE("a loop that steps a million times without a transfer is stopped with its collective and step") {
  const int data[1] = {0};
  ringlab::trace::Collective tc("spin", data, 1);
  long long k = 0;
  auto spin = [&](long long steps) {
    for (long long i = 0; i < steps; ++i, ++k) tc.at("round", static_cast<int>(k));
  };
  SECTION("a transfer now and then: never stopped") {
    for (int j = 0; j < 3; ++j) {
      spin(ringlab::trace::Collective::kIdleSteps - 1);
      ringlab::trace::note_transfer();
    }
  }
  SECTION("transfers, but the step never moves on: stopped at the same place's limit, saying where") {
    auto trade = [&](long long times) {
      for (long long i = 0; i < times; ++i) {
        tc.at("round", 7);
        ringlab::trace::note_transfer();
      }
    };
    trade(ringlab::trace::Collective::kSamePlace - 1);
    tc.at("round", 8);  // a step that moves on starts the count again
    trade(ringlab::trace::Collective::kSamePlace - 1);
    CHECK_THROWS_WITH(trade(1),
                      "spin: at round step 7 100000 times in a row: the loop never moves on — its step never "
                      "changes (a step that is not advanced, a mask that does not grow), so it makes the same "
                      "calls forever.");
  }
  SECTION("none: stopped at the limit, saying where") {
    CHECK_THROWS_WITH(spin(ringlab::trace::Collective::kIdleSteps),
                      "spin: 1000000 steps in a row without a send or a receive, now at round step 999999: the loop "
                      "never ends — what its condition tests never changes (a step that stays 0, a bound that moves "
                      "with it) — or it skips every call it should make.");
  }
}
