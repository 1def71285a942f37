// Runs `lesson_05 --schedule` (the command given after the options) and checks what it prints
// against the rule the comment in ring_allreduce.hpp states:
//   reduce-scatter step s: rank r sends chunk (r - s) mod n to rank r+1
//   allgather step s:      rank r sends chunk (r + 1 - s) mod n to rank r+1
// The rule is the core's reference schedule (ring_allreduce_schedule, schedule_diagnosis.hpp),
// the one --check compares every run's trace with: so that reference is itself checked here,
// against a real run and the comment's picture.
// It also replays the ring from the printed start values and checks every printed chunk's
// values and the final sums, and, given the header, that the comment's 3-rank diagram shows
// the same sends the 3-rank run printed.
//   check_schedule NP [--diagram ring_allreduce.hpp] -- COMMAND...
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "ringlab/base/chunks.hpp"
#include "ringlab/check/schedule_diagnosis.hpp"

namespace {
int failures = 0;
void fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  ++failures;
}
int wrap(int i, int n) { return ((i % n) + n) % n; }

std::vector<double> numbers(const std::string& text) {
  std::vector<double> v;
  std::istringstream in(text);
  for (double x; in >> x;) v.push_back(x);
  return v;
}

struct Send {
  std::string phase;
  int step, rank, chunk, peer;
  std::vector<double> values;
};
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: check_schedule NP [--diagram FILE] -- COMMAND...\n");
    return 2;
  }
  const int n = std::stoi(argv[1]);
  std::string diagram, command;
  int i = 2;
  if (std::string(argv[i]) == "--diagram") {
    diagram = argv[i + 1];
    i += 2;
  }
  for (++i; i < argc; ++i) command += std::string(" '") + argv[i] + "'";  // after "--"
  FILE* p = popen(command.c_str(), "r");
  if (!p) return 2;
  std::string output;
  char buf[4096];
  while (std::size_t got = fread(buf, 1, sizeof buf, p)) output.append(buf, got);
  const int rc = pclose(p);
  std::printf("%s", output.c_str());
  if (rc != 0) fail("the command exited with status " + std::to_string(rc));

  const std::regex title(R"(ring allreduce of (\d+) \S+ on (\d+) ranks?)");
  const std::regex start(R"(^\s*start\s+rank (\d+) holds \[([^\]]*)\])");
  const std::regex end(R"(^\s*end\s+rank (\d+) holds \[([^\]]*)\])");
  const std::regex step(R"(^(reduce-scatter|allgather) step (\d+):)");
  const std::regex send(R"(^\s*rank (\d+) sends chunk (\d+) \[([^\]]*)\] to rank (\d+))");
  std::size_t count = 0;
  std::map<int, std::vector<double>> starts, ends;
  std::vector<Send> sends;
  std::string phase;
  int cur_step = -1;
  std::istringstream lines(output);
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, title)) {
      count = std::stoul(m[1]);
      if (std::stoi(m[2]) != n)
        fail("title says " + std::string(m[2]) + " ranks, expected " + std::to_string(n));
    } else if (std::regex_search(line, m, start)) {
      starts[std::stoi(m[1])] = numbers(m[2]);
    } else if (std::regex_search(line, m, end)) {
      ends[std::stoi(m[1])] = numbers(m[2]);
    } else if (std::regex_search(line, m, step)) {
      phase = m[1];
      cur_step = std::stoi(m[2]);
    } else if (std::regex_search(line, m, send)) {
      sends.push_back({phase, cur_step, std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[4]), numbers(m[3])});
    }
  }
  if (static_cast<int>(starts.size()) != n) fail("expected a start line per rank");
  if (static_cast<int>(ends.size()) != n) fail("expected an end line per rank");
  if (static_cast<int>(sends.size()) != 2 * n * (n - 1))
    fail("expected " + std::to_string(2 * n * (n - 1)) + " sends, got " + std::to_string(sends.size()));

  // The rule, send by send, and the values, by replaying the ring on the printed start values.
  std::vector<std::vector<double>> bufs(n);
  for (int r = 0; r < n; ++r) bufs[r] = starts[r];
  auto chunk_values = [&](int r, int c) {
    const auto ch = ringlab::chunk_of(count, n, c);
    return std::vector<double>(bufs[r].begin() + ch.offset, bufs[r].begin() + ch.offset + ch.count);
  };
  const ringlab::Schedule reference = ringlab::ring_allreduce_schedule(n);
  std::size_t k = 0;
  for (const char* ph : {"reduce-scatter", "allgather"}) {
    for (int s = 0; s < n - 1; ++s) {
      std::vector<std::vector<double>> sent(n);
      std::vector<int> sent_chunk(n, -1);
      for (int r = 0; r < n && k < sends.size(); ++r, ++k) {
        const Send& e = sends[k];
        const std::string where = std::string(ph) + " step " + std::to_string(s) + ", line for rank " +
                                  std::to_string(e.rank) + ": ";
        if (e.phase != ph || e.step != s)
          fail(where + "printed under " + e.phase + " step " + std::to_string(e.step));
        if (e.rank != r) fail(where + "expected the line of rank " + std::to_string(r));
        const ringlab::Transfer* want = nullptr;  // the core's reference schedule: the rule
        for (const auto& t : reference.transfers)
          if (t.op == ringlab::trace::Op::send && t.phase == ph && t.step == s && t.rank == e.rank) want = &t;
        if (!want)
          fail(where + "the ring's schedule has no send of rank " + std::to_string(e.rank) + " here");
        else if (e.chunk != want->chunk)
          fail(where + "sends chunk " + std::to_string(e.chunk) + ", rule says " +
               std::to_string(want->chunk));
        else if (e.peer != want->peer) fail(where + "sends to rank " + std::to_string(e.peer));
        if (e.rank >= 0 && e.rank < n && e.chunk >= 0 && e.chunk < n) {
          if (e.values != chunk_values(e.rank, e.chunk)) fail(where + "values differ from the replayed ring");
          sent[wrap(e.rank + 1, n)] = e.values;
          sent_chunk[wrap(e.rank + 1, n)] = e.chunk;
        }
      }
      for (int r = 0; r < n; ++r) {  // the receivers add (reduce-scatter) or overwrite (allgather)
        if (sent_chunk[r] < 0) continue;
        const auto ch = ringlab::chunk_of(count, n, sent_chunk[r]);
        for (std::size_t j = 0; j < ch.count && j < sent[r].size(); ++j)
          bufs[r][ch.offset + j] =
              std::string(ph) == "reduce-scatter" ? bufs[r][ch.offset + j] + sent[r][j] : sent[r][j];
      }
    }
  }
  std::vector<double> sum(count, 0);
  for (int r = 0; r < n; ++r)
    for (std::size_t j = 0; j < count && j < starts[r].size(); ++j) sum[j] += starts[r][j];
  for (int r = 0; r < n; ++r) {
    if (ends[r] != sum) fail("rank " + std::to_string(r) + "'s end values are not the element-wise sum");
    if (bufs[r] != sum)
      fail("replaying the printed sends does not give rank " + std::to_string(r) + " the sum");
  }

  // The comment's picture: lines "step S   r0 --chunk C--> r1, ..." (reduce-scatter first).
  if (!diagram.empty()) {
    std::ifstream f(diagram);
    if (!f) fail("cannot read " + diagram);
    const std::regex arrow(R"(r(\d+) --chunk (\d+)--> r(\d+))");
    std::vector<Send> drawn;
    int row = 0;
    for (std::string line; std::getline(f, line);) {
      if (line.find("step") == std::string::npos || line.find("-->") == std::string::npos) continue;
      for (auto it = std::sregex_iterator(line.begin(), line.end(), arrow); it != std::sregex_iterator();
           ++it)
        drawn.push_back({row < n - 1 ? "reduce-scatter" : "allgather",
                         row % (n - 1),
                         std::stoi((*it)[1]),
                         std::stoi((*it)[2]),
                         std::stoi((*it)[3]),
                         {}});
      ++row;
    }
    if (drawn.size() != sends.size())
      fail("the diagram draws " + std::to_string(drawn.size()) + " sends, the run printed " +
           std::to_string(sends.size()));
    for (std::size_t j = 0; j < drawn.size() && j < sends.size(); ++j) {
      const auto &d = drawn[j], &e = sends[j];
      if (d.phase != e.phase || d.step != e.step || d.rank != e.rank || d.chunk != e.chunk ||
          d.peer != e.peer)
        fail("diagram shows " + d.phase + " step " + std::to_string(d.step) + ": r" + std::to_string(d.rank) +
             " --chunk " + std::to_string(d.chunk) + "--> r" + std::to_string(d.peer) +
             ", the run printed rank " + std::to_string(e.rank) + " sends chunk " + std::to_string(e.chunk) +
             " to rank " + std::to_string(e.peer));
    }
  }
  std::printf("%s: %zu sends checked\n", failures ? "FAILED" : "OK", sends.size());
  return failures ? 1 : 0;
}
