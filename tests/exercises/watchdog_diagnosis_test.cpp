// The watchdog's diagnosis from hand-made reports: no MPI run, no waiting.
#include "catch.hpp"
#include "ringlab/comm/watchdog.hpp"

using ringlab::watchdog::Pending;
using ringlab::watchdog::Report;

namespace {
Report blocked(int rank, std::vector<Pending> waits, std::string where = "", std::string phase = "", int step = -1) {
  Report r;  // (set one by one: the rest keep their defaults)
  r.rank = rank;
  r.blocked = true;
  r.where = std::move(where);
  r.waits = std::move(waits);
  r.phase = std::move(phase);
  r.step = step;
  return r;
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("a report survives encoding and decoding") {
  Report r = blocked(2, {{true, 3, 7, 4096}, {false, 1, 7, 100}}, "ring_allreduce, allgather step 1");
  Report back;
  REQUIRE(ringlab::watchdog::decode(ringlab::watchdog::encode(r), back));
  CHECK(back.rank == 2);
  CHECK(back.blocked);
  CHECK(back.where == "ring_allreduce, allgather step 1");
  REQUIRE(back.waits.size() == 2);
  CHECK(back.waits[0].send);
  CHECK(back.waits[0].peer == 3);
  CHECK(back.waits[0].tag == 7);
  CHECK(back.waits[0].bytes == 4096);
  CHECK_FALSE(back.waits[1].send);
  CHECK_FALSE(ringlab::watchdog::decode("nonsense 1\n", back));
  r.strays = {{false, 0, 5, 8}};
  REQUIRE(ringlab::watchdog::decode(ringlab::watchdog::encode(r), back));
  REQUIRE(back.strays.size() == 1);
  CHECK(back.strays[0].peer == 0);
  CHECK(back.strays[0].tag == 5);
  CHECK(back.strays[0].bytes == 8);
}

TEST_CASE("a receive whose message arrived with another tag is told as a tag mismatch, not a missing send") {
  Report waiting = blocked(1, {{false, 0, 1, 8}}, "chain_sum, forward step 1");
  waiting.strays = {{false, 0, 0, 8}};
  const std::string text = ringlab::watchdog::diagnose({waiting}, 2, 10);
  CHECK(has(text, "rank 1 holds a message from rank 0 (8 B, tag 0) that no receive took"));
  CHECK(has(text, "rank 1 waits to receive from rank 0 (rank 1 is in chain_sum, forward step 1): rank 0's message did "
                  "reach rank 1, with tag 0, and rank 1 waits for tag 1: the tags do not match."));
  CHECK_FALSE(has(text, "it never sends this message"));
}

TEST_CASE("a receive whose message sits on another rank names the rank it went to") {
  Report last = blocked(2, {{false, 1, 0, 8}});
  last.strays = {{false, 0, 0, 8}};
  const std::string text = ringlab::watchdog::diagnose({blocked(1, {{false, 0, 0, 8}}), last}, 3, 10);
  CHECK(has(text, "rank 0 sent rank 2 a message (8 B, tag 0) that no receive took, and rank 1 holds none from it: "
                  "rank 0's message went to rank 2."));
}

TEST_CASE("a ring of sends is reported as a deadlock cycle with the fix") {
  std::vector<Report> reports;
  for (int r = 0; r < 4; ++r) reports.push_back(blocked(r, {{true, (r + 1) % 4, 0, 8 << 20}}));
  const std::string text = ringlab::watchdog::diagnose(reports, 4, 3);
  CHECK(has(text,
            "deadlock: rank 0 waits to send to 1; rank 1 waits to send to 2; rank 2 waits to send to 3; "
            "rank 3 waits to send to 0."));
  CHECK(has(text, "sends before it receives"));
  CHECK(has(text, "rank 2 waits to send 8 MiB to rank 3 (tag 0)"));
}

TEST_CASE("the cycle is found among ranks that are not all blocked") {
  // rank 0 waits to receive from 3, rank 3 waits to receive from 0; ranks 1 and 2 are elsewhere.
  std::vector<Report> reports{blocked(0, {{false, 3, 0, 64}}, "naive_allreduce, reduce step 2"),
                              blocked(3, {{false, 0, 0, 64}})};
  const std::string text = ringlab::watchdog::diagnose(reports, 4, 10);
  CHECK(has(text, "deadlock: rank 0 waits to receive from 3; rank 3 waits to receive from 0."));
  CHECK(has(text, "nobody sends"));
  CHECK(has(text, "rank 1 is not in a point-to-point call"));
  CHECK(has(text, "in naive_allreduce, reduce step 2"));
}

TEST_CASE("a receive from a rank that moved on names that rank") {
  std::vector<Report> reports{blocked(1, {{false, 2, 0, 1024}})};
  const std::string text = ringlab::watchdog::diagnose(reports, 3, 10);
  CHECK(has(text,
            "rank 1 waits to receive from rank 2, which is not in a point-to-point call: it never sends"));
  CHECK_FALSE(has(text, "deadlock:"));
}

TEST_CASE("a send and a receive that differ only in tag are reported as a tag mismatch") {
  std::vector<Report> reports{blocked(0, {{true, 1, 1, 1 << 20}}), blocked(1, {{false, 0, 0, 1 << 20}})};
  const std::string text = ringlab::watchdog::diagnose(reports, 2, 10);
  CHECK(has(text, "deadlock:"));
  CHECK(has(text, "Rank 0 sends to rank 1 with tag 1, but rank 1 waits for tag 0: the tags must match."));
}

TEST_CASE("a rank waiting on itself is told to check the peer arithmetic, not to use sendrecv") {
  std::vector<Report> reports{blocked(1, {{false, 1, 0, 64}}, "ring_allreduce, reduce-scatter step 0")};
  const std::string text = ringlab::watchdog::diagnose(reports, 3, 10);
  CHECK(has(text,
            "rank 1 waits to receive from itself (in ring_allreduce, reduce-scatter step 0): a rank never "
            "waits on itself, so the peer arithmetic is wrong"));
  CHECK_FALSE(has(text, "deadlock:"));
  CHECK_FALSE(has(text, "sendrecv"));
}

TEST_CASE("a wait on a rank that is not in a transfer names a missing or extra call on both sides") {
  std::vector<Report> reports{blocked(0, {{true, 2, 0, 8 << 20}}, "bcast_tree, round 1")};
  const std::string text = ringlab::watchdog::diagnose(reports, 3, 10);
  CHECK(has(text,
            "A missing or extra call: an extra send on rank 0, or a receive missing on rank 2 (rank 0 is "
            "in bcast_tree, round 1)"));
}

TEST_CASE("two ranks blocked in different collectives are out of step") {
  std::vector<Report> reports{blocked(0, {{false, 1, 0, 64}}, "ring_allreduce, allgather step 1"),
                              blocked(1, {{false, 2, 0, 64}}, "naive_allreduce, reduce step 0")};
  const std::string text = ringlab::watchdog::diagnose(reports, 3, 10);
  CHECK(has(text, "rank 0 waits for rank 1, but rank 1 is elsewhere, in naive_allreduce, reduce step 0"));
  CHECK(has(text, "out of step"));
}

TEST_CASE("a cycle of ranks at different steps is out of step, not an ordering problem") {
  std::vector<Report> reports{blocked(0, {{true, 1, 0, 400000}}, "parameter_server, pull step 0"),
                              blocked(1, {{true, 0, 0, 400000}}, "parameter_server, push step 1")};
  const std::string text = ringlab::watchdog::diagnose(reports, 2, 10);
  CHECK(has(text, "deadlock: rank 0 waits to send to 1; rank 1 waits to send to 0."));
  CHECK(has(text, "rank 0 in parameter_server, pull step 0; rank 1 in parameter_server, push step 1"));
  CHECK(has(text, "out of step: one of them made a missing or extra call"));
  CHECK_FALSE(has(text, "sendrecv"));
}

TEST_CASE("a cycle of receives at different places: a rank receives where it should send first") {
  std::vector<Report> reports{blocked(0, {{false, 1, 0, 400000}}, "parameter_server, push step 0"),
                              blocked(1, {{false, 0, 0, 400000}}, "parameter_server, pull step 0")};
  const std::string text = ringlab::watchdog::diagnose(reports, 2, 10);
  CHECK(has(text, "deadlock: rank 0 waits to receive from 1; rank 1 waits to receive from 0."));
  CHECK(has(text, "Every rank in this cycle waits to receive, so nobody sends."));
  CHECK(has(text, "rank 0 in parameter_server, push step 0; rank 1 in parameter_server, pull step 0"));
  CHECK(has(text, "receives where it should send first"));
  CHECK_FALSE(has(text, "reordering the calls will not help"));
}

TEST_CASE("a report's phase and step survive encoding and decoding") {
  Report r = blocked(3, {{false, 0, 0, 64}}, "bcast_tree, bcast-tree step 1", "bcast-tree", 1);
  Report back;
  REQUIRE(ringlab::watchdog::decode(ringlab::watchdog::encode(r), back));
  CHECK(back.phase == "bcast-tree");
  CHECK(back.step == 1);
  CHECK(back.where == "bcast_tree, bcast-tree step 1");
}

TEST_CASE("a rank waiting on itself is not told the ring's neighbour arithmetic") {
  std::vector<Report> reports{blocked(2, {{false, 2, 0, 64}}, "bcast_tree, bcast-tree step 1")};
  const std::string text = ringlab::watchdog::diagnose(reports, 4, 10);
  CHECK(has(text, "the peer arithmetic is wrong"));
  CHECK_FALSE(has(text, "next ="));
  CHECK_FALSE(has(text, "prev ="));
}

TEST_CASE("a schedule's comparison comes after the ranks' states and, when a call departs, replaces the guesses") {
  // The cycle of a tree whose ranks receive from the wrong parent: the watchdog alone would say
  // "reorder the calls"; the schedule says which receive is not the tree's.
  std::vector<Report> reports{blocked(1, {{true, 3, 0, 8 << 20}}, "bcast_tree, bcast-tree step 1"),
                              blocked(2, {{false, 1, 0, 8 << 20}}, "bcast_tree, bcast-tree step 1"),
                              blocked(3, {{false, 2, 0, 8 << 20}}, "bcast_tree, bcast-tree step 1")};
  const ringlab::watchdog::Comparison departs{"diagnosis: rank 2's receive is not the tree's.\n", true};
  const std::string text = ringlab::watchdog::diagnose(reports, 4, 10, departs);
  CHECK(has(text, "deadlock: "));
  CHECK(has(text, "diagnosis: rank 2's receive is not the tree's."));
  CHECK(text.find("rank 3 waits to receive") < text.find("diagnosis:"));
  CHECK_FALSE(has(text, "Reorder the calls"));

  const ringlab::watchdog::Comparison agrees{"  Every blocked call is one the tree makes at that step.\n", false};
  const std::string guessed = ringlab::watchdog::diagnose(reports, 4, 10, agrees);
  CHECK(has(guessed, "Every blocked call is one the tree makes"));
  CHECK(has(guessed, "Reorder the calls"));
}

namespace {
// A rank that is in no transfer but waits in a call every rank makes (wait_collective's answer).
Report in_collective(int rank, std::string call, long long scopes, long long scope) {
  Report r;
  r.rank = rank;
  r.blocked = false;
  r.collective = std::move(call);
  r.scopes = scopes;
  r.scope = scope;
  return r;
}
}  // namespace

TEST_CASE("a rank's collective call and its count of collectives survive encoding and decoding") {
  Report back;
  REQUIRE(ringlab::watchdog::decode(ringlab::watchdog::encode(in_collective(1, "the end of the run", 7, -1)), back));
  CHECK_FALSE(back.blocked);
  CHECK(back.collective == "the end of the run");
  CHECK(back.scopes == 7);
  CHECK(back.scope == -1);
}

TEST_CASE("a partner that started fewer collectives than the blocked rank's skipped one") {
  Report waiting = blocked(0, {{false, 1, 0, 64}}, "ring_allreduce_fast, reduce-scatter step 0");
  waiting.scope = 4;  // its 5th collective
  waiting.scopes = 5;
  const std::string text = ringlab::watchdog::diagnose({waiting, in_collective(1, "comm.all_ok", 4, -1)}, 2, 10);
  CHECK(has(text, "rank 1 waits in comm.all_ok, a call every rank makes"));
  CHECK(has(text, "rank 1 has started 4 collective calls; rank 0 is in its 5th (ring_allreduce_fast): rank 1 "
                  "skipped a collective call that rank 0 made"));
  CHECK_FALSE(has(text, "is not in a point-to-point call"));
}

TEST_CASE("a partner that called the collective and left it made a send too few") {
  Report waiting = blocked(0, {{false, 1, 0, 64}}, "parameter_server, pull step 2");
  waiting.scope = 2;
  waiting.scopes = 3;
  const std::string later = ringlab::watchdog::diagnose({waiting, in_collective(1, "the end of the run", 3, -1)}, 2, 10);
  CHECK(has(later, "rank 1 did call parameter_server, and left it without the send rank 0 waits for: a send missing "
                   "on rank 1, or an extra receive on rank 0"));
  const std::string same = ringlab::watchdog::diagnose({waiting, in_collective(1, "comm.barrier", 3, 2)}, 2, 10);
  CHECK(has(same, "rank 1 is in the same call (parameter_server) and went on without the send rank 0 waits for"));
}
