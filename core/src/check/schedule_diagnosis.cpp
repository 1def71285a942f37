// Reference schedules and the first departure of a traced run from one (schedule_diagnosis.hpp).
#include "ringlab/check/schedule_diagnosis.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "ringlab/base/plural.hpp"

namespace ringlab {

namespace {
int wrap(int i, int n) { return ((i % n) + n) % n; }
}  // namespace

Schedule ring_allreduce_schedule(int n) {
  Schedule s;
  s.name = "the ring";
  s.ranks = n;
  s.shape = "each phase has n - 1 = " + plural(n - 1, "step") +
            " (s = 0 .. n - 2), one comm.sendrecv per step.";
  s.holes = {{"reduce-scatter", "reduce-scatter"}, {"allgather", "allgather"}};
  s.exercise = "05";
  s.adds_received = {"reduce-scatter"};
  for (const char* phase : {"reduce-scatter", "allgather"}) {
    const int shift = std::string(phase) == "allgather" ? 1 : 0;  // the allgather starts one chunk on
    for (int step = 0; step < n - 1; ++step)
      for (int r = 0; r < n; ++r) {
        s.transfers.push_back(
            {r, trace::Op::send, wrap(r + 1, n), wrap(r + shift - step, n), phase, step, "the rank after it", ""});
        s.transfers.push_back({r, trace::Op::recv, wrap(r - 1, n), wrap(r + shift - step - 1, n), phase, step,
                               "the rank before it", ""});
      }
  }
  // Reduce-scatter step s: rank r sends its input plus what reached it at the steps before, the
  // inputs of ranks r, r - 1, ..., r - s; the allgather passes finished sums, every input once.
  for (const auto& t : s.transfers) {
    if (t.op != trace::Op::send) continue;
    std::vector<int> m(static_cast<std::size_t>(n), t.phase == "allgather" ? 1 : 0);
    if (t.phase == "reduce-scatter")
      for (int k = 0; k <= t.step; ++k) m[static_cast<std::size_t>(wrap(t.rank - k, n))] = 1;
    s.carries.push_back(m);
  }
  s.result.assign(static_cast<std::size_t>(n), 1);
  s.result_chunked = true;
  return s;
}

namespace {

// The tree as written: right (v counted from the root, peers turned back into real ranks), the
// two ways of mixing the numberings up, a send test that lets the child v + mask = n through (no
// rank: absolute() wraps it round to the root), the rounds run from the largest mask down (a
// scatter's order), and every send and receive swapped (data flowing to the root, a reduce's
// direction). Each is a schedule of its own.
enum class Tree { right, peers_not_absolute, rank_as_v, child_n_wraps, largest_mask_first, towards_root };

std::vector<Transfer> tree_transfers(int n, int root, Tree variant) {
  std::vector<Transfer> out;
  std::vector<int> masks;  // round k's mask
  for (int mask = 1; mask < n; mask <<= 1) masks.push_back(mask);
  if (variant == Tree::largest_mask_first) std::reverse(masks.begin(), masks.end());
  for (int k = 0; k < static_cast<int>(masks.size()); ++k)
    for (int r = 0, mask = masks[static_cast<std::size_t>(k)]; r < n; ++r) {
      const int v = variant == Tree::rank_as_v ? r : wrap(r - root, n);
      auto peer = [&](int u) { return variant == Tree::peers_not_absolute ? u : (u + root) % n; };
      const int children_below = variant == Tree::child_n_wraps ? n + 1 : n;
      const bool turned = variant == Tree::towards_root;
      if (v < mask && v + mask < children_below)
        out.push_back({r, turned ? trace::Op::recv : trace::Op::send, peer(v + mask), -1, "bcast-tree", k, "its child", ""});
      else if (v >= mask && v < 2 * mask)
        out.push_back({r, turned ? trace::Op::send : trace::Op::recv, peer(v - mask), -1, "bcast-tree", k, "its parent", ""});
    }
  return out;
}

}  // namespace

Schedule binomial_tree_schedule(int n, int root) {
  Schedule s;
  s.name = "the binomial tree";
  s.context = "root " + std::to_string(root);
  s.ranks = n;
  s.step_word = "round";
  int rounds = 0;
  for (int mask = 1; mask < n; mask <<= 1) ++rounds;
  s.shape = "on " + plural(n, "rank") + " the tree has " + plural(rounds, "round") +
            " (mask = 1, 2, 4, ... while mask < n), and every rank but the root receives exactly once.";
  s.holes = {{"bcast-tree", "binomial tree"}};
  s.exercise = "03";
  s.before_first_receive = "it has no data yet to send";
  s.root_advice = "look at where the root enters your code: the tree's arithmetic (who sends, who receives, "
                  "how far) is on v, the rank's number counted from the root, and the root is needed only to "
                  "turn a peer's v back into a rank";
  s.transfers = tree_transfers(n, root, Tree::right);
  // Every message, and every rank's result, is the root's buffer.
  s.result.assign(static_cast<std::size_t>(n), 0);
  s.result[static_cast<std::size_t>(root)] = 1;
  for (const auto& t : s.transfers)
    if (t.op == trace::Op::send) s.carries.push_back(s.result);
  s.look_alikes = {{tree_transfers(n, root, Tree::child_n_wraps),
                    "a tree whose test before the send lets the child v + mask = n through",
                    "v + mask = n is no rank, and absolute(n, root, n) wraps round to the root, which never "
                    "receives it: a child exists only where v + mask is a rank."},
                   {tree_transfers(n, root, Tree::largest_mask_first),
                    "a tree whose rounds run from the largest mask down to 1",
                    "in round k only the first 2^k ranks (counted from the root) hold the data, so the masks must "
                    "grow, 1, 2, 4, ...: from the largest down, a rank sends on what it has not received yet."},
                   {tree_transfers(n, root, Tree::towards_root),
                    "a tree whose sends and receives are swapped: in every round the child sends to its parent",
                    "the data flows towards the root, as in a reduce; in a broadcast the rank that holds it (v < mask) "
                    "sends to its child v + mask, and the child (mask <= v < 2 * mask) receives from its parent v - mask."}};
  if (root != 0) {  // the tree's two numberings mixed up: each is a schedule of its own
    const std::string r = std::to_string(root);
    s.look_alikes.insert(s.look_alikes.end(), {
        {tree_transfers(n, 0, Tree::right), "the tree from rank 0, but the root is rank " + r,
         "count ranks from the root (v = relative(rank, root, n)) and turn v back into a rank with "
         "absolute(v, root, n) before each send and receive."},
        {tree_transfers(n, root, Tree::peers_not_absolute),
         "the tree from rank " + r + " with the peers v + mask and v - mask used as real ranks",
         "v counts from the root, comm.send and comm.recv want real ranks: turn each peer back into one "
         "with absolute(v + mask, root, n) and absolute(v - mask, root, n)."},
        {tree_transfers(n, root, Tree::rank_as_v),
         "a tree where each rank's own number comm.rank() stands in for v, its number counted from the root",
         "compute v = relative(comm.rank(), root, n) once and use v, not comm.rank(), in the round's tests and "
         "the peers."}});
  }
  // (a look-alike that is the right tree on these n ranks is no mistake: n a power of two, root 0)
  std::erase_if(s.look_alikes, [&](const LookAlike& a) { return a.transfers == s.transfers; });
  return s;
}

Schedule chain_schedule(int n) {
  Schedule s;
  s.name = "the chain";
  s.ranks = n;
  s.shape = "rank r receives once from r - 1 (not rank 0) and sends once to r + 1 (not the last).";
  s.holes = {{"forward", "receive"}};
  s.exercise = "02";
  for (int r = 0; r < n; ++r) {
    if (r > 0) s.transfers.push_back({r, trace::Op::recv, r - 1, -1, "forward", r, "the rank before it", "receive"});
    if (r < n - 1) s.transfers.push_back({r, trace::Op::send, r + 1, -1, "forward", r, "the rank after it", "send"});
  }
  return s;
}

Schedule parameter_server_schedule(int n, int steps) {
  Schedule s;
  s.name = "the parameter server";
  s.ranks = n;
  s.shape = "in every step each worker sends once to the server (push), then receives once from it (pull).";
  s.exercise = "04";
  const std::string server = "server step", worker = "worker step";  // the holes
  for (int k = 0; k < steps; ++k) {
    for (int w = 1; w < n; ++w) s.transfers.push_back({0, trace::Op::recv, w, -1, "push", k, "a worker", server});
    for (int w = 1; w < n; ++w) s.transfers.push_back({w, trace::Op::send, 0, -1, "push", k, "the server", worker});
    for (int w = 1; w < n; ++w) s.transfers.push_back({0, trace::Op::send, w, -1, "pull", k, "a worker", server});
    for (int w = 1; w < n; ++w) s.transfers.push_back({w, trace::Op::recv, 0, -1, "pull", k, "the server", worker});
  }
  return s;
}

namespace {

// Where a transfer happens, in the schedule's words: "reduce-scatter step 1", "round 2".
std::string where(const Schedule& s, const std::string& phase, int step) {
  if (phase.empty()) return "";
  const bool own = std::any_of(s.transfers.begin(), s.transfers.end(),
                               [&](const Transfer& t) { return t.phase == phase; });
  const std::string context = s.context.empty() ? "" : " (" + s.context + ")";
  if (own && s.step_word != "step") return s.step_word + " " + std::to_string(step) + context;
  return phase + " step " + std::to_string(step) + context;
}

// The hole that makes one transfer: its own where the schedule names one (the chain's receive and
// send are two holes of one phase), else its phase's; "" when the schedule names none.
std::string hole_of(const Schedule& s, const Transfer& t) {
  if (!t.hole.empty()) return t.hole;
  for (const auto& [p, hole] : s.holes)
    if (p == t.phase) return hole;
  return "";
}

// " That is your reduce-scatter hole; `./ringlab hint 05` gives its rule, one hint at a time."
std::string hole_for(const Schedule& s, const Transfer& t) {
  const std::string hole = hole_of(s, t);
  if (hole.empty()) return "";
  return " That is your " + hole + " hole; `./ringlab hint " + s.exercise + "` gives its rule, one hint at a time.";
}

// Each step's position in time, (phase, step) -> 0, 1, ...: puts places of different ranks in
// order. A place the schedule does not have comes after all of them.
class Places {
 public:
  explicit Places(const Schedule& s) {
    for (const auto& t : s.transfers)  // (emplace keeps the first position of a step seen again)
      slot_.emplace(std::make_pair(t.phase, t.step), static_cast<int>(slot_.size()));
  }
  int after_all() const { return static_cast<int>(slot_.size()); }
  int of(const std::string& phase, int step) const {
    auto it = slot_.find({phase, step});
    return it == slot_.end() ? after_all() : it->second;
  }

 private:
  std::map<std::pair<std::string, int>, int> slot_;
};

std::string upper_first(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

// The one departure told: where it is in the schedule (the step's position, a send before a
// receive, then the rank) and what to say.
struct Departure {
  std::tuple<int, int, int> order;
  std::string text;
};

std::string first_departure(const Schedule& reference, const std::vector<trace::Event>& events) {
  const int n = reference.ranks;
  const Places places(reference);  // puts departures of different ranks in order
  const int after_all = places.after_all();
  auto slot_of = [&](const std::string& phase, int step) { return places.of(phase, step); };

  // Phase names are compared only when the run gives them (the algorithm calls tc.at).
  const bool labelled = std::any_of(events.begin(), events.end(), [](const trace::Event& e) {
    return (e.op == trace::Op::send || e.op == trace::Op::recv) && !e.phase.empty();
  });

  std::optional<Departure> first;  // the earliest in the schedule
  for (int r = 0; r < n; ++r)
    for (trace::Op op : {trace::Op::send, trace::Op::recv}) {
      std::vector<const trace::Event*> got;
      for (const auto& e : events)
        if (e.rank == r && e.op == op) got.push_back(&e);
      std::stable_sort(got.begin(), got.end(),
                       [](const trace::Event* a, const trace::Event* b) { return a->t0 < b->t0; });
      std::vector<const Transfer*> want;
      for (const auto& t : reference.transfers)
        if (t.rank == r && t.op == op) want.push_back(&t);

      const bool send = op == trace::Op::send;
      const std::string sent = send ? "sent" : "received", to = send ? " to rank " : " from rank ";
      const std::string verb = send ? "send" : "receive";
      auto same_place = [&](const trace::Event& e, const Transfer& t) {
        return !labelled || (e.phase == t.phase && e.step == t.step);
      };
      auto same_message = [&](const trace::Event& e, const Transfer& t) {
        return e.peer == t.peer && (t.chunk < 0 || e.chunk < 0 || e.chunk == t.chunk);
      };
      // The chunks this rank sent (`way` send) or received in `phase`, in the order it made the
      // calls, and the schedule's there: what the two readings below compare.
      auto chunks_in = [&](const std::string& phase, trace::Op way) {
        std::vector<std::pair<decltype(trace::Event::t0), int>> timed;  // (start, chunk)
        for (const auto& e : events)
          if (e.rank == r && e.op == way && e.phase == phase) timed.push_back({e.t0, e.chunk});
        std::stable_sort(timed.begin(), timed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::pair<std::vector<int>, std::vector<int>> mine_theirs;
        for (const auto& [t0, chunk] : timed) mine_theirs.first.push_back(chunk);
        for (const auto& t : reference.transfers)
          if (t.rank == r && t.op == way && t.phase == phase) mine_theirs.second.push_back(t.chunk);
        return mine_theirs;
      };
      // The chunks this rank sent and those it received in `phase` are the schedule's for that
      // phase turned round: every step right, taken last first (a loop counting down). Both: an
      // index that runs the other way (r + s for r - s) turns one of them round alone.
      auto reversed_in_phase = [&](const std::string& phase) {
        if (!labelled) return false;
        for (trace::Op way : {trace::Op::send, trace::Op::recv}) {
          const auto [mine, theirs] = chunks_in(phase, way);
          const bool turned = mine.size() > 1 && mine != theirs && std::equal(mine.begin(), mine.end(), theirs.rbegin(), theirs.rend());
          if (!turned && (way == op || !theirs.empty())) return false;
        }
        return true;
      };
      // The chunks this rank sent (received) in `phase` lie as far from chunk r as the schedule's,
      // on the other side, every step: the index runs the other way round the ring.
      auto mirrored_in_phase = [&](const std::string& phase) {
        if (!labelled || n < 3) return false;
        const auto [mine, theirs] = chunks_in(phase, op);
        if (mine.size() != theirs.size()) return false;
        int differ = 0;  // (a mirror shows only where the two differ: two such steps at least)
        for (std::size_t k = 0; k < mine.size(); ++k) {
          if (mine[k] < 0 || theirs[k] < 0 || ((mine[k] + theirs[k] - 2 * r) % n + n) % n != 0) return false;
          differ += mine[k] != theirs[k] ? 1 : 0;
        }
        return differ >= 2;
      };
      // The chunk this rank sent (received) is the one the schedule has it receive (send) at the same
      // place, and its other transfer there took the chunk this one should have: its send and
      // receive views in each other's place. "" when not (one chunk alone is also an index one off).
      auto swapped_views = [&](const trace::Event& e, const Transfer& t) -> std::string {
        const auto other = std::find_if(reference.transfers.begin(), reference.transfers.end(), [&](const Transfer& x) {
          return x.rank == r && x.op != op && x.phase == t.phase && x.step == t.step;
        });
        if (!labelled || t.chunk < 0 || other == reference.transfers.end() || e.chunk != other->chunk) return "";
        const bool both = std::any_of(events.begin(), events.end(), [&](const trace::Event& x) {
          return x.rank == r && x.op != op && x.phase == t.phase && x.step == t.step && x.chunk == t.chunk;
        });
        if (!both) return "";
        const std::string evidence = ", the chunk " + reference.name + " has it " + (send ? "receive into" : "send") +
                                     " there, and its " + (send ? "receive" : "send") + " took chunk " +
                                     std::to_string(t.chunk) + ", this " + verb + "'s";
        const std::string how = " (comm.sendrecv(out, next, in, prev): what to send first, where to receive third)";
        // On 2 ranks chunk c - 1 is chunk c + 1: both indices one step off look the same.
        if (reference.ranks == 2)
          return evidence + " — on 2 ranks one possibility is the send and receive views in each other's place" + how +
                 "; another, both chunk indices one step off (of 2 chunks, each is the other's neighbour both ways).";
        return evidence + ": the send and receive views are in each other's place" + how + ".";
      };
      std::size_t k = 0;
      while (k < got.size() && k < want.size() && same_message(*got[k], *want[k]) &&
             same_place(*got[k], *want[k]))
        ++k;
      if (k == got.size() && k == want.size()) continue;

      // How many this rank exchanged with `peer`, against the schedule: says "extra" or
      // "missing" in numbers.
      auto counts_text = [&](int peer) {
        const auto mine = std::count_if(got.begin(), got.end(), [&](auto* e) { return e->peer == peer; });
        const auto theirs = std::count_if(want.begin(), want.end(), [&](auto* t) { return t->peer == peer; });
        return "rank " + std::to_string(r) + " " + sent + " " + plural(mine, "message") + to + std::to_string(peer) + " in this call, " + reference.name + " " +
               verb + "s " + std::to_string(theirs) + ".";
      };
      auto chunk_text = [](int chunk) {
        return chunk >= 0 ? " chunk " + std::to_string(chunk) : std::string();
      };
      // "rank 2 sent chunk 0 to rank 0": what the run did.
      auto did = [&](const trace::Event& e) {
        return "rank " + std::to_string(r) + " " + sent + chunk_text(e.chunk) + to + std::to_string(e.peer);
      };
      const int op_order = send ? 0 : 1;
      Departure d;
      if (got.size() > want.size()) {
        // One more than the schedule: the first that does not fit is the extra one.
        const trace::Event& e = *got[k];
        std::string at = where(reference, e.phase, e.step);
        int at_slot = labelled ? slot_of(e.phase, e.step) : after_all;
        if (at.empty() || !labelled) {
          // (want may be empty: a rank the schedule gives no message of this kind, a tree's leaf)
          at = k < want.size() ? where(reference, want[k]->phase, want[k]->step)
               : want.empty()  ? std::string("in this call")
                               : "after " + where(reference, want.back()->phase, want.back()->step);
          if (k < want.size()) at_slot = slot_of(want[k]->phase, want[k]->step);
        }
        d.order = {at_slot, op_order, r};
        d.text = at + ": " + did(e) + ", a " + verb + " that " + reference.name +
                 " does not have — an extra " + verb + ": ";
        // A send where the schedule has the rank still waiting for its data: said by its role.
        const Transfer* first_recv = nullptr;
        for (const auto& t : reference.transfers)
          if (t.rank == r && t.op == trace::Op::recv) {
            first_recv = &t;
            break;
          }
        if (send && labelled && first_recv && !reference.before_first_receive.empty() &&
            slot_of(first_recv->phase, first_recv->step) >= at_slot) {
          const bool same = slot_of(first_recv->phase, first_recv->step) == at_slot;
          // In the round of its receive, a send made after that receive is the data passed on
          // at once: the schedule has the rank send it only from the next round on.
          const bool passed_on = same && std::any_of(events.begin(), events.end(), [&](const trace::Event& x) {
            return x.rank == r && x.op == trace::Op::recv && x.peer == first_recv->peer && x.t0 < e.t0;
          });
          if (passed_on)
            d.text += "rank " + std::to_string(r) + " received from rank " + std::to_string(first_recv->peer) +
                      (first_recv->role.empty() ? "" : " (" + first_recv->role + ")") + " and passed the data on in the same " +
                      reference.step_word + ": " + reference.name + " has a rank send only from the " + reference.step_word +
                      " after the one it receives in — in a " + reference.step_word +
                      ", only the ranks that had the data before it send. Look at the test that decides which ranks send in a " +
                      reference.step_word + "." + hole_for(reference, *first_recv);
          else
            d.text += "rank " + std::to_string(r) + " sends before its first receive: " + reference.name + " has rank " +
                      std::to_string(r) + " receive from rank " + std::to_string(first_recv->peer) +
                      (first_recv->role.empty() ? "" : " (" + first_recv->role + ")") +
                      (same ? " in this " + reference.step_word : " only in " + where(reference, first_recv->phase, first_recv->step)) +
                      ", so " + reference.before_first_receive + ". Look at the test that decides which ranks send in a " +
                      reference.step_word + "." + hole_for(reference, *first_recv);
        } else {
          d.text += counts_text(e.peer) + " " + upper_first(reference.shape);
        }
      } else if (got.size() < want.size()) {
        const Transfer& t = *want[k];
        d.order = {slot_of(t.phase, t.step), op_order, r};
        d.text = where(reference, t.phase, t.step) + ": rank " + std::to_string(r) + " never " + verb + "s" +
                 chunk_text(t.chunk) + to + std::to_string(t.peer) + " — ";
        // Nothing at all in a phase the schedule has (and the run names its phases): say so.
        const bool phase_missing =
            labelled &&
            std::none_of(got.begin(), got.end(), [&](const trace::Event* e) { return e->phase == t.phase; });
        const bool several_phases = std::any_of(reference.transfers.begin(), reference.transfers.end(),
                                                [&](const Transfer& x) { return x.phase != t.phase; });
        if (phase_missing && several_phases)
          d.text += "the " + t.phase + " phase is missing: rank " + std::to_string(r) + " " + sent +
                    " nothing in it." + hole_for(reference, t);
        else
          d.text += "a " + verb + " is missing: " + counts_text(t.peer) + " " + upper_first(reference.shape);
      } else {
        const trace::Event& e = *got[k];
        const Transfer& t = *want[k];
        d.order = {slot_of(t.phase, t.step), op_order, r};
        d.text = where(reference, t.phase, t.step) + ": " + did(e);
        const std::string look = hole_for(reference, t);
        if (e.peer != t.peer)
          d.text += ", expected rank " + std::to_string(t.peer) + " — the peer is wrong." + look;
        else if (!same_message(e, t) && reversed_in_phase(t.phase))
          d.text += ", expected chunk " + std::to_string(t.chunk) + ": rank " + std::to_string(r) + " " + sent +
                    " the " + t.phase + "'s chunks in the schedule's order turned round (its last step's first) — the "
                    "steps run backward; the chunk index is right for each step s." + look;
        else if (!same_message(e, t) && mirrored_in_phase(t.phase))
          d.text += ", expected chunk " + std::to_string(t.chunk) + ": each chunk rank " + std::to_string(r) + " " +
                    sent + " in the " + t.phase + " lies as far from chunk " + std::to_string(r) +
                    " (the rank's own number) as the schedule's, on the other side — the chunk index runs the other way round the ring "
                    "(+ s where - s belongs)." + look;
        else if (!same_message(e, t)) {
          const std::string swapped = swapped_views(e, t);  // else the index itself is wrong
          d.text += ", expected chunk " + std::to_string(t.chunk) +
                    (swapped.empty() ? " — the chunk index is wrong." : swapped) + look;
        } else {
          // A label of a later place that the schedule gives another phase: the tc.at calls are
          // swapped, or one sits before a transfer it should follow. (A label of an earlier place
          // is one carried over: the tc.at of this step is missing.)
          const bool other_phase = !e.phase.empty() && e.phase != t.phase &&
                                   slot_of(e.phase, e.step) < after_all &&
                                   slot_of(e.phase, e.step) > slot_of(t.phase, t.step);
          d.text += " as " + reference.name + " does, but its trace says " +
                    (e.phase.empty() ? std::string("no phase at all") : where(reference, e.phase, e.step)) +
                    (other_phase ? ", the schedule's other phase: this transfer is the " + t.phase +
                                       ", so the tc.at labels are swapped or on the wrong side of it"
                                 : std::string()) +
                    " — call tc.at(\"" + t.phase + "\", " + (reference.step_word == "round" ? "k" : "s") +
                    ") at the start of each " + reference.step_word +
                    ", so that the trace and the watchdog know where you are.";
        }
      }
      if (!first || d.order < first->order) first = std::move(d);
    }
  return first ? first->text : "";
}
}  // namespace

// Every transfer right: does some rank add into the chunk a step of an adds_received phase
// receives, before that step's receive? (An add into another chunk may be a step before's, done
// late: not this.) The earliest such step (then the lowest rank) is told; "" when none does.
std::string added_before_received(const Schedule& reference, const std::vector<trace::Event>& events) {
  std::set<std::tuple<int, std::string, int>> received;  // (rank, phase, step) whose receive is done
  const trace::Event* first = nullptr;
  const Transfer* recv = nullptr;  // the schedule's receive of first's step
  for (const auto& e : events) {
    const bool adds = std::find(reference.adds_received.begin(), reference.adds_received.end(), e.phase) !=
                      reference.adds_received.end();
    if (!adds) continue;
    if (e.op == trace::Op::recv) received.insert({e.rank, e.phase, e.step});
    if (e.op != trace::Op::reduce || e.chunk < 0 || received.count({e.rank, e.phase, e.step})) continue;
    const auto its = std::find_if(reference.transfers.begin(), reference.transfers.end(), [&](const Transfer& t) {
      return t.rank == e.rank && t.op == trace::Op::recv && t.phase == e.phase && t.step == e.step;
    });
    if (its == reference.transfers.end() || its->chunk != e.chunk) continue;
    if (!first || std::tie(e.step, e.rank) < std::tie(first->step, first->rank)) first = &e, recv = &*its;
  }
  if (!first) return "";
  return where(reference, first->phase, first->step) + ": rank " + std::to_string(first->rank) + " added into chunk " +
         std::to_string(first->chunk) + " before that step's receive (of chunk " + std::to_string(recv->chunk) + " from rank " +
         std::to_string(recv->peer) + ") had brought anything: it added what the landing buffer held before " +
         "(the step before's message, or memory never written). Receive first, then add what arrived." +
         hole_for(reference, *recv);
}

namespace {
// Every transfer right: did some rank's algorithm end at a step of one of the schedule's phases
// past that phase's last? Its loop ran on for steps that make no call there (a round count of n
// where the tree has ceil(log2 n)); the end event carries the last place the rank announced.
// The first such rank is told; "" when none went past.
std::string ran_past_last_step(const Schedule& reference, const std::vector<trace::Event>& events) {
  for (const auto& e : events) {
    if (e.op != trace::Op::end || e.phase.empty()) continue;
    int last = -1;
    for (const auto& t : reference.transfers)
      if (t.phase == e.phase) last = std::max(last, t.step);
    if (last < 0 || e.step <= last) continue;
    return "every transfer is " + reference.name + "'s, but rank " + std::to_string(e.rank) + " went on to " +
           where(reference, e.phase, e.step) + ", past " + reference.name + "'s last, " +
           where(reference, e.phase, last) + ": its loop runs more " + reference.step_word + "s than " +
           reference.name + " has, and makes no call in the extra ones — " + reference.shape + " Look at the "
           "loop's condition." + hole_for(reference, reference.transfers.front());
  }
  return "";
}
}  // namespace

std::string root_changed(const Schedule& s) {
  if (s.right_with_root < 0) return "";
  return " With root " + std::to_string(s.right_with_root) + " every rank made " + s.name +
         "'s calls and got the right values; this call differs only in its root (" + s.context + ")" +
         (s.root_advice.empty() ? "." : ": " + s.root_advice + ".");
}

std::string diagnose_schedule(const Schedule& reference, const std::vector<trace::Event>& events) {
  const std::string departure = first_departure(reference, events);
  if (departure.empty()) {
    if (const std::string past = ran_past_last_step(reference, events); !past.empty()) return past;
    return added_before_received(reference, events);
  }
  const bool silent = std::none_of(events.begin(), events.end(), [](const trace::Event& e) {
    return e.op == trace::Op::send || e.op == trace::Op::recv;
  });
  if (silent && !reference.holes.empty())  // nothing written yet, most likely
    return "no rank sent or received anything, and " + reference.name + " makes " +
           std::to_string(reference.transfers.size() / 2) + " sends here. Start with the " +
           reference.holes.front().second + " hole: `./ringlab hint " + reference.exercise +
           "` gives its rule, one hint at a time.";
  // A run that is exactly another schedule, a known mistake, gets that mistake's name first.
  for (const auto& a : reference.look_alikes) {
    Schedule other = reference;
    other.transfers = a.transfers;
    if (first_departure(other, events).empty()) {
      // The departure is evidence here: its own verdict (a wrong peer, say) is the look-alike's echo.
      std::string evidence = departure;
      for (const auto& [verdict, end] : {std::pair<std::string, std::string>{" — the peer is wrong.", "."},
                                         {" — the chunk index is wrong.", "."},
                                         {" — a send is missing:", ":"},
                                         {" — a receive is missing:", ":"}})
        if (const auto at = evidence.find(verdict); at != std::string::npos) evidence.replace(at, verdict.size(), end);
      return "every rank sent and received as in " + a.what + ": " + a.advice + " The first departure: " + evidence;
    }
  }
  return departure + root_changed(reference);
}

namespace {

// "receive from rank 1", "send to rank 4": a call, as the watchdog and the schedule say it.
// A receive from peer < 0 that waits is MPI's "any source" (recv_from_any); one that was refused
// (`refused`: the Communicator stops a call whose peer is no rank) named that rank, r - 1 on rank 0.
std::string call_text(bool send, int peer, bool refused = false) {
  if (peer < 0 && !send && !refused) return "receive from any rank";
  return (send ? "send to rank " : "receive from rank ") + std::to_string(peer);
}

// "the binomial tree has rank 3 receive from rank 1 in round 1 (its parent)"
std::string has_text(const Schedule& s, const Transfer& t, const std::string& when) {
  return s.name + " has rank " + std::to_string(t.rank) + " " + call_text(t.op == trace::Op::send, t.peer) +
         when + (t.role.empty() ? "" : " (" + t.role + ")");
}

}  // namespace

watchdog::Comparison compare_hang(const Schedule& reference, const std::vector<watchdog::Report>& reports) {
  std::map<int, const watchdog::Report*> blocked;
  for (const auto& r : reports)
    if (r.blocked) blocked[r.rank] = &r;
  auto has_phase = [&](const std::string& phase) {
    return std::any_of(reference.transfers.begin(), reference.transfers.end(),
                       [&](const Transfer& t) { return t.phase == phase; });
  };
  const Places places(reference);
  watchdog::Comparison out;
  std::string lines, first;  // first: the first departure, for the diagnosis line
  const Transfer* first_hole = nullptr;
  // A blocked call that IS the schedule's, whose partner call never came: the partner rank is in
  // no call, or already past the place of that call. Told when no call departs (a wrong call
  // comes first: the missing partner may be only its echo).
  std::string missing, missing_line;
  const Transfer* missing_hole = nullptr;
  bool missing_names_holes = false;  // the sentence names the holes itself (a tag both sides use)
  std::vector<Transfer> calls;  // every blocked call compared, as a transfer at its place
  for (const auto& [rank, report] : blocked) {
    // The place the rank is at; a rank outside the schedule's phases is not compared.
    const bool labelled = !report->phase.empty();
    if (labelled && !has_phase(report->phase)) continue;
    const std::string at = labelled ? where(reference, report->phase, report->step) : "";
    std::vector<const Transfer*> here;  // the schedule's calls of this rank at that place
    for (const auto& t : reference.transfers)
      if (t.rank == rank && (!labelled || (t.phase == report->phase && t.step == report->step)))
        here.push_back(&t);
    // A receive from any rank is never the schedule's (it always names the peer): it departs.
    for (const auto& p : report->waits) {
      const trace::Op op = p.send ? trace::Op::send : trace::Op::recv;
      calls.push_back({rank, op, p.peer, -1, report->phase, report->step, "", ""});
      const std::string verb = p.send ? "send" : "receive";
      // A peer that is no rank: the call was refused at once (the watchdog's error report).
      const bool no_such_rank = p.peer >= reference.ranks || (p.peer < 0 && (p.send || report->failed));
      const std::string did = (at.empty() ? "" : at + ": ") + "rank " + std::to_string(rank) +
                              (report->failed ? " tried to " : " waits to ") + call_text(p.send, p.peer, report->failed) +
                              (no_such_rank ? ", which does not exist (ranks 0.." +
                                                  std::to_string(reference.ranks - 1) + ")"
                                            : "");
      const Transfer* same = nullptr;
      const Transfer* other_peer = nullptr;
      const Transfer* other_op = nullptr;
      for (const Transfer* t : here) {
        if (t->op == op && t->peer == p.peer) same = t;
        else if (t->op == op && !other_peer) other_peer = t;
        else if (t->op != op && !other_op) other_op = t;
      }
      const std::string there = labelled ? " there" : " in this call";
      // The schedule's call, but the rank has started more transfers at this place than the
      // schedule has it make there: this one is made once too often (its partner made its one).
      if (same && labelled && report->started_here > static_cast<int>(here.size())) {
        out.departs = true;
        const std::string why = "; " + reference.name + " has rank " + std::to_string(rank) + " make " +
                                plural(static_cast<long long>(here.size()), "call") + there + ", and this " + verb +
                                " is call " + std::to_string(report->started_here) + " of this rank" + there +
                                ": it is made once too often — a loop around it, or the same call made twice.";
        if (first.empty()) first = did + why, first_hole = same;
        else lines += "  " + did + why + "\n";
        continue;
      }
      if (same) {
        lines += "  " + did + ", as " + reference.name + " has it.";
        // What the schedule has the peer do for it, when the peer is not doing it: in no call at
        // all, or blocked at a later place (it went past that call without making it).
        // (of the peer's calls that pair with this one, the one at the same place; else the
        // latest before it in that phase: the chain's partner is a step earlier)
        const Transfer* mate = nullptr;
        for (const auto& t : reference.transfers) {
          if (t.rank != p.peer || t.op == op || t.peer != rank) continue;
          const bool exact = t.phase == same->phase && t.step == same->step;
          const bool before = t.phase == same->phase && t.step <= same->step;
          if (!mate || exact || (before && !(mate->phase == same->phase && mate->step == same->step))) mate = &t;
          if (exact) break;
        }
        const auto peer = blocked.find(p.peer);
        const bool gone = peer == blocked.end();
        // Gone, and already out of the collective this rank is in (it started it, and is in none or
        // a later one), where the schedule has it make a call before that one: it made that and
        // left the algorithm without making this one. (With no call before it, it is the plain
        // missing call below.)
        const auto peer_report = std::find_if(reports.begin(), reports.end(), [&](const auto& r) { return r.rank == p.peer; });
        const bool earlier = mate && std::any_of(reference.transfers.begin(), reference.transfers.end(), [&](const Transfer& t) {
          return t.rank == p.peer && places.of(t.phase, t.step) < places.of(mate->phase, mate->step);
        });
        // (With no call before it, it left without making any: a return before its first call.)
        const bool returned = gone && peer_report != reports.end() && report->scope >= 0 &&
                              peer_report->scopes > report->scope && peer_report->scope != report->scope;
        // Inside the collective still, but waiting in a call every rank makes (a barrier): that call
        // cannot end while this rank waits for it, so it stands where the schedule has a transfer.
        const bool in_collective = gone && !returned && peer_report != reports.end() &&
                                   !peer_report->collective.empty() && peer_report->scope >= 0;
        const bool past = !gone && mate && labelled && !peer->second->phase.empty() &&
                          places.of(peer->second->phase, peer->second->step) > places.of(mate->phase, mate->step);
        // The message was sent after all when it sits unreceived somewhere: with another tag on this
        // rank, or on a rank it was not meant for. That, not a missing send, is then the evidence.
        const std::string stray = p.send || !mate ? "" : watchdog::stray_text(reports, p.peer, rank, p.tag);
        if (!stray.empty() && missing.empty()) {
          const std::string has = has_text(reference, *mate, " in " + where(reference, mate->phase, mate->step));
          const int to = watchdog::stray_at(reports, p.peer, rank);
          const bool scheduled = std::any_of(reference.transfers.begin(), reference.transfers.end(), [&](const Transfer& t) {
            return t.rank == p.peer && t.op == trace::Op::send && t.peer == to;
          });
          const std::string sender = "rank " + std::to_string(p.peer);
          const std::string send_hole = hole_of(reference, *mate), recv_hole = hole_of(reference, *same);
          if (to < 0)  // the same two ranks, another tag: which side's tag is wrong, the holes' checks tell
            missing = did + ", as " + reference.name + " has it; " + stray + " " + upper_first(sender) +
                      "'s send" + (send_hole.empty() ? "" : " (your " + send_hole + " hole)") + " and rank " +
                      std::to_string(rank) + "'s receive" +
                      (recv_hole.empty() || recv_hole == send_hole ? "" : " (your " + recv_hole + " hole)") +
                      " must use the same tag.";
          else if (!scheduled)
            missing = did + ", as " + reference.name + " has it; " + has + ". " + upper_first(stray) + " " +
                      upper_first(reference.name) + " has " + sender + " make no send to rank " +
                      std::to_string(to) + ": the peer of " + sender + "'s send is wrong.";
          else
            missing = did + ", as " + reference.name + " has it; " + has + ". " + upper_first(stray) +
                      " One possibility is that " + sender + " sends to rank " + std::to_string(to) +
                      " where it should send to rank " + std::to_string(rank) + ", or makes its sends in another order.";
          missing_line = "  " + did + ", as " + reference.name + " has it.\n";
          lines += "\n";
          missing_hole = to < 0 ? nullptr : mate;
          missing_names_holes = to < 0;
          continue;
        }
        if (mate && (gone || past)) {
          const std::string mate_verb = p.send ? "receive" : "send";
          const std::string has = has_text(reference, *mate, " in " + where(reference, mate->phase, mate->step));
          // Past the mate's place after fewer calls there than the schedule has: a loop there that
          // stopped short (the watchdog's report says what the peer left and how many it made).
          int there_calls = 0;
          for (const Transfer& t : reference.transfers)
            there_calls += t.rank == p.peer && t.phase == mate->phase && t.step == mate->step;
          const bool short_loop = past && peer_report != reports.end() && peer_report->left_phase == mate->phase &&
                                  peer_report->left_step == mate->step && peer_report->left_here >= 0 &&
                                  peer_report->left_here < there_calls;
          // Past it and in a later call of the algorithm than this rank (one call per step): it
          // returned from the call that has that transfer, so the transfer is not late but missing.
          const bool next_call = past && !short_loop && peer_report != reports.end() && report->scope >= 0 &&
                                 peer_report->scope > report->scope;
          const std::string state =
              "rank " + std::to_string(p.peer) +
              (returned ? " has already returned from " + reference.name +
                              (peer_report->collective.empty() ? "" : " (it waits in " + peer_report->collective + ")")
               : in_collective ? " is in no point-to-point call: it waits in " + peer_report->collective +
                                      ", a call every rank makes"
               : gone   ? " is in no point-to-point call"
               : short_loop
                   ? " left " + where(reference, mate->phase, mate->step) + " after " +
                         std::to_string(peer_report->left_here) + " of the " + std::to_string(there_calls) +
                         " calls " + reference.name + " has it make there, and is at " +
                         where(reference, peer->second->phase, peer->second->step)
                   : " is already at " + where(reference, peer->second->phase, peer->second->step) + ", past it" +
                         (next_call ? ", in a later call of " + reference.name : ""));
          const std::string line = " " + upper_first(has) + "; " + state +
                                   (gone && !in_collective ? ", so that " + mate_verb + " is missing on rank " + std::to_string(p.peer) +
                                               ", or it went elsewhere."
                                         : ".");
          lines += line;
          if (missing.empty()) {
            missing = did + ", as " + reference.name + " has it; " + has + ", but " + state +
                      (returned && earlier
                           ? ": it left before making that " + mate_verb +
                                 " — one possibility is a loop it leaves too early (a break or return once it "
                                 "has done an earlier call); another, that " +
                                 mate_verb + " inside a condition that leaves this rank out."
                       : returned ? ": it left without making that " + mate_verb +
                                        ", its first call there — one possibility is a return before it (the "
                                        "function ends early on this rank); another, that " +
                                        mate_verb + " inside a condition that leaves this rank out, or no " + mate_verb + " at all."
                       : in_collective
                           ? ", which ends only when every rank is in it, and rank " + std::to_string(rank) +
                                 " waits for this transfer first — one possibility is " + peer_report->collective +
                                 " called before that " + mate_verb + " (where the schedule has that " + mate_verb +
                                 " come first), or called by only some of the ranks."
                       : gone ? ": it never made that " + mate_verb +
                                    (p.send ? "" : " (or made it to another rank)") +
                                    " — look at which ranks make it (the condition around it) and to whom."
                       : short_loop
                           ? ": the loop that makes them stopped short — one possibility is a bound one too "
                             "small (< where <= belongs, or a count one less than the ranks it serves); another, a "
                             "condition that skips some of its calls."
                       : next_call
                           ? ": it returned from the call that has that " + mate_verb + " without making it, so that " +
                                 mate_verb + " is missing (or inside a condition that leaves rank " +
                                 std::to_string(p.peer) + " out)."
                           : ": it skipped that " + mate_verb + ", or makes it later — look at the order of its calls.");
            missing_line = "  " + did + ", as " + reference.name + " has it." + line + "\n";
            // A partner held in a call every rank makes: that call may stand in any hole (the one
            // that fails on its own says which), not in the one the missing transfer belongs to.
            missing_hole = in_collective ? nullptr : mate;
            missing_names_holes = in_collective;
          }
        }
        lines += "\n";
        continue;
      }
      out.departs = true;
      std::string why;
      // The hole that makes this kind of call on this rank (a receive comes from the receive hole).
      const Transfer* hole = other_peer;
      for (const auto& t : reference.transfers)
        if (t.op == op && (!hole || (t.rank == rank && hole->rank != rank))) hole = &t;
      if (!hole) hole = other_op ? other_op : here.empty() ? nullptr : here.front();
      if (other_peer)
        why = "; " + has_text(reference, *other_peer, there) + ": the peer is wrong.";
      else if (other_op)
        why = "; " + has_text(reference, *other_op, there) + ", and no " + verb + ": " +
              reference.name + " does not have this call" + (labelled ? " at this step." : ".") +
              (!no_such_rank ? ""
               // Its first call here, where the schedule has the other kind: the test that picks who
               // makes that one (an if, with this call in its else) left this rank out.
               : report->started_here == 1
                   ? " A call to a rank that does not exist, made first at this step by a rank that " + reference.name +
                         " has " + (other_op->op == trace::Op::send ? "send" : "receive") + " here: the test that " +
                         "picks this step's " + (other_op->op == trace::Op::send ? "senders" : "receivers") +
                         " leaves rank " + std::to_string(rank) + " out, and the " + verb + " took it instead."
                   : " A call to a rank that does not exist, on a rank that makes no " + verb +
                         " here: the condition around the " + verb + " lets this rank through.");
      else
        why = "; " + reference.name + " has rank " + std::to_string(rank) + " make no call" + there + ".";
      // The same call at another place of this rank's schedule: the calls are out of order.
      if (labelled && !other_peer)
        for (const auto& t : reference.transfers)
          if (t.rank == rank && t.op == op && t.peer == p.peer) {
            const bool later = places.of(t.phase, t.step) > places.of(report->phase, report->step);
            why += " Rank " + std::to_string(rank) + " makes this " + verb + " in " + where(reference, t.phase, t.step) +
                   (later ? ", later: its calls are in the wrong order (this one comes too early)."
                          : ", earlier: it is made again, or the one before was not.");
            if (later && other_op) hole = other_op;
            break;
          }
      if (first.empty()) {  // the first departure becomes the diagnosis; the others are listed
        first = did + why;
        first_hole = hole;
      } else {
        lines += "  " + did + why + "\n";
      }
    }
  }
  if (lines.empty() && first.empty()) return out;
  out.text = "compared with " + reference.name + ", the schedule of exercise " + reference.exercise + ":\n";
  if (first.empty() && !missing.empty()) {  // every blocked call is right; a partner's call never came
    out.departs = true;
    first = missing;
    first_hole = missing_hole;
    lines.erase(lines.find(missing_line), missing_line.size());  // said once, as the diagnosis
  }
  // A rank that left its place before this one after more transfers than the schedule has there
  // made an extra call there: earlier than any blocked call, its message was taken by a later
  // call of its peer, and every pairing after it is off by one. That is the first departure.
  for (const auto& r : reports) {
    if (r.left_phase.empty() || r.left_here < 0 || !has_phase(r.left_phase)) continue;
    const Transfer* one = nullptr;
    int there = 0;
    for (const auto& t : reference.transfers)
      if (t.rank == r.rank && t.phase == r.left_phase && t.step == r.left_step) ++there, one = &t;
    if (r.left_here <= there) continue;
    for (const auto& t : reference.transfers)
      if (!one && t.rank == r.rank && t.phase == r.left_phase) one = &t;  // (its hole, when it makes none there)
    const std::string extra =
        where(reference, r.left_phase, r.left_step) + ": rank " + std::to_string(r.rank) + " started " +
        plural(r.left_here, "transfer") + " there before it went on, where " + reference.name + " has it make " +
        plural(there, "call") + ": " + (r.left_here - there == 1 ? "one" : std::to_string(r.left_here - there)) +
        " too many — an extra send or receive there, whose message a later call of its peer takes in place of its "
        "own, so every pairing after it is off by one.";
    // (a partner's call that never came is this one's echo: said as it stands, not as a cause)
    if (!first.empty()) lines = (first == missing ? missing_line : "  " + first + "\n") + lines;
    first = extra;
    first_hole = one;
    out.departs = true;
    break;
  }
  if (!out.departs) {
    out.text += lines + "  Every blocked call is one " + reference.name + " makes at that step: the peers are right.\n";
    return out;
  }
  // Blocked calls that are all another schedule's, a known mistake: its name first. Only when
  // some blocked call is not the reference's: blocked calls that are all the reference's own (a
  // partner's call never came) are every look-alike's too, and tell none of them.
  auto in = [](const std::vector<Transfer>& schedule, const Transfer& c) {
    return std::any_of(schedule.begin(), schedule.end(), [&](const Transfer& t) {
      return t.rank == c.rank && t.op == c.op && t.peer == c.peer &&
             (c.phase.empty() || (t.phase == c.phase && t.step == c.step));
    });
  };
  const bool calls_depart =
      std::any_of(calls.begin(), calls.end(), [&](const Transfer& c) { return !in(reference.transfers, c); });
  for (const auto& a : reference.look_alikes)
    if (calls_depart &&
        std::all_of(calls.begin(), calls.end(), [&](const Transfer& c) { return in(a.transfers, c); })) {
      first = "the blocked calls are those of " + a.what + ": " + a.advice + " The first departure: " + first;
      break;
    }
  std::string hole;
  if (first_hole) hole = hole_for(reference, *first_hole);
  else if (missing_names_holes && first == missing) hole = "";
  else if (!reference.holes.empty())
    hole = " That is your " + reference.holes.front().second + " hole; `./ringlab hint " + reference.exercise +
           "` gives its rule, one hint at a time.";
  out.text += "diagnosis: " + first + root_changed(reference) + hole + "\n" + lines;
  return out;
}

std::string place_of(const Schedule& s, const std::string& phase, int step) { return where(s, phase, step); }

WatchSchedule::WatchSchedule(Schedule reference) {
  watchdog::compare_with([reference = std::move(reference)](const std::vector<watchdog::Report>& reports, int) {
    return compare_hang(reference, reports);
  });
}
WatchSchedule::~WatchSchedule() { watchdog::compare_with({}); }

}  // namespace ringlab
