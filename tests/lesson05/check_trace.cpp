// Reads the files `--trace FILE` wrote for one ring allreduce (lesson_05 --schedule) and checks
// them: a version 1 header with the run's rank count, every line a valid event, on every rank
// 2(n-1) sends and 2(n-1) receives of ring_allreduce, each of the chunk the ring's rule says,
// a begin and an end; and FILE.chrome.json a JSON array with one row name per rank.
//   check_trace FILE NP
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ringlab/trace/trace.hpp"

using namespace ringlab::trace;

namespace {
int failures = 0;
void fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  ++failures;
}
int wrap(int i, int n) { return ((i % n) + n) % n; }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: check_trace FILE NP\n");
    return 2;
  }
  const std::string path = argv[1];
  const int n = std::stoi(argv[2]);
  std::ifstream in(path);
  if (!in) {
    fail("cannot open " + path);
    return 1;
  }
  std::string line, error;
  std::getline(in, line);
  auto header = decode_header(line, &error);
  if (!header) fail("header: " + error);
  else {
    if (header->version != 1) fail("header version " + std::to_string(header->version));
    if (header->ranks != n)
      fail("header says " + std::to_string(header->ranks) + " ranks, ran " + std::to_string(n));
  }
  std::vector<int> sends(n), recvs(n), begins(n), ends(n);
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    auto e = decode_event(line, &error);
    if (!e) {
      fail("line " + std::to_string(lines + 1) + ": " + error);
      continue;
    }
    if (e->rank < 0 || e->rank >= n) {
      fail("event of rank " + std::to_string(e->rank));
      continue;
    }
    if (e->coll != "ring_allreduce") continue;
    if (e->op == Op::begin) ++begins[e->rank];
    if (e->op == Op::end) ++ends[e->rank];
    if (e->op != Op::send && e->op != Op::recv) continue;
    (e->op == Op::send ? sends : recvs)[e->rank]++;
    const bool rs = e->phase == "reduce-scatter";
    if (!rs && e->phase != "allgather") fail("transfer in phase '" + e->phase + "'");
    if (e->step < 0 || e->step >= n - 1) fail("step " + std::to_string(e->step) + " out of range");
    // The rank that sends at step s sends chunk (r - s) in reduce-scatter, (r + 1 - s) in
    // allgather; its receiver gets the chunk its sender sent.
    const int sender = e->op == Op::send ? e->rank : wrap(e->rank - 1, n);
    const int want = rs ? wrap(sender - e->step, n) : wrap(sender + 1 - e->step, n);
    if (e->chunk != want)
      fail(std::string(op_name(e->op)) + " on rank " + std::to_string(e->rank) + ", " + e->phase + " step " +
           std::to_string(e->step) + ": chunk " + std::to_string(e->chunk) + ", expected " +
           std::to_string(want));
    if (e->peer != wrap(e->rank + (e->op == Op::send ? 1 : -1), n))
      fail("transfer with peer " + std::to_string(e->peer));
    if (e->t1 < e->t0) fail("event ends before it starts");
  }
  for (int r = 0; r < n; ++r) {
    const std::string who = "rank " + std::to_string(r) + ": ";
    if (sends[r] != 2 * (n - 1))
      fail(who + std::to_string(sends[r]) + " sends, expected " + std::to_string(2 * (n - 1)));
    if (recvs[r] != 2 * (n - 1))
      fail(who + std::to_string(recvs[r]) + " recvs, expected " + std::to_string(2 * (n - 1)));
    if (begins[r] != 1 || ends[r] != 1) fail(who + "expected one begin and one end event");
  }

  std::ifstream chrome(path + ".chrome.json");
  if (!chrome) fail("cannot open " + path + ".chrome.json");
  else {
    auto j = nlohmann::json::parse(chrome, nullptr, /*allow_exceptions=*/false);
    if (!j.is_array()) fail(path + ".chrome.json is not a JSON array");
    else {
      // "rank 3" rows; a run on GPUs adds "rank 3 GPU" rows (the GPU's own times), one per rank.
      int rows = 0, gpu_rows = 0;
      for (const auto& e : j) {
        if (e.value("name", "") != "thread_name") continue;
        const std::string row = e["args"].value("name", "");
        if (row.ends_with(" GPU")) ++gpu_rows;
        else ++rows;
      }
      if (rows != n)
        fail("chrome trace names " + std::to_string(rows) + " rows, expected " + std::to_string(n));
      if (gpu_rows != 0 && gpu_rows != n)
        fail("chrome trace names " + std::to_string(gpu_rows) + " GPU rows, expected 0 or " +
             std::to_string(n));
    }
  }
  std::printf("%s: %d events read from %s\n", failures ? "FAILED" : "OK", lines, path.c_str());
  return failures ? 1 : 0;
}
