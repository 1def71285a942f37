// Lesson 08's --check, every step:
//   the averaged gradient == the same local gradient averaged lesson 06's way, all at once
//   the replicas bit-identical after the update
//   the bucket plan (plan_problem): the rule above plan_buckets, checked on the buckets it made —
//   every tensor in exactly one bucket, each slice exactly its tensors and inside the gradient,
//   each bucket's tensors listed in the order they become ready, and sizes against bucket_bytes. A slice outside the gradient cannot even be averaged, so
//   that part (slice_outside) is checked before the first step, with or without --check.
//   the bucket schedule (schedule_problem): the averaged gradient can be right while the
//   overlap is lost (a bucket packed in forward order, a wait right after each start). The
//   scheduler logs what it did in one step; this reads the log and says what is wrong, if
//   anything, in one line ("" when the schedule is right).
// Each message says what happened (which bucket, which tensors, how big) and which hole made
// it; the rule itself comes from `./ringlab hint 08`, one hint at a time.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "gradient_buckets.hpp"
#include "ringlab/base/plural.hpp"
#include "ringlab/ml/mlp.hpp"
#include "shared/training.hpp"
#include "step.hpp"

namespace lesson08 {

inline std::string tensor_name(const Mlp::Tensor& t) {
  std::string name = (t.is_weight ? "W" : "b") + std::to_string(t.layer);
  if (t.block)  // one block of a split W's rows
    name += "[rows " + std::to_string(t.first_row) + "-" + std::to_string(t.first_row + t.rows - 1) + "]";
  return name;
}

// " That is your plan hole; ..." — said after every message about the buckets plan_buckets made.
inline const char* const kPlanHole = " That is your plan hole; `./ringlab hint 08` gives its rule, one hint at a time.";

// "b3, W3, b2" (an index that is no tensor is said as such)
inline std::string tensor_names(const std::vector<int>& ids, const std::vector<Mlp::Tensor>& tensors) {
  std::string names;
  for (int t : ids)
    names += (names.empty() ? "" : ", ") + (t >= 0 && static_cast<std::size_t>(t) < tensors.size()
                                                ? tensor_name(tensors[static_cast<std::size_t>(t)])
                                                : "tensor " + std::to_string(t) + " (there is none)");
  return names;
}

// "[6280, 16018)": a slice of the gradient, in floats.
inline std::string range_text(std::size_t begin, std::size_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

// "22.6 kB"
inline std::string bytes_text(std::size_t bytes) {
  return bytes < 1000 ? std::to_string(bytes) + " B" : lessons::format("%.1f kB", static_cast<double>(bytes) / 1e3);
}

// Every index a bucket lists must be a tensor's: one past either end is a loop's bound off by one,
// and what such an index read (tensors[size]) is memory nobody wrote. "" when every one is.
inline std::string index_outside(const std::vector<Bucket>& buckets, const std::vector<Mlp::Tensor>& tensors) {
  const int n = static_cast<int>(tensors.size());
  // Every bucket's count is that of the tensors one below the indices it lists: the walk was right
  // (it read each size at its t) and what it recorded is t + 1.
  const bool recorded_plus_one = std::all_of(buckets.begin(), buckets.end(), [&](const Bucket& k) {
    std::size_t count = 0;
    for (int t : k.tensors) {
      if (t < 1 || t > n) return false;
      count += tensors[static_cast<std::size_t>(t - 1)].count;
    }
    return !k.tensors.empty() && count == k.count;
  });
  for (std::size_t b = 0; b < buckets.size(); ++b)
    for (int t : buckets[b].tensors)
      if (t < 0 || t >= n)
        return "bucket " + std::to_string(b) + " lists tensor " + std::to_string(t) + ", and there are " +
               std::to_string(n) + " tensors, 0 to " + std::to_string(n - 1) +
               (t == n && recorded_plus_one
                    ? ": one past the last — every index a bucket lists is one more than that of the tensor whose "
                      "size its count holds (tensor 0 is in none): the walk read the right tensors, and what it "
                      "recorded is t + 1 where t belongs"
                : t == n ? ": one past the last — the walk starts at tensors.size(), where the last tensor is "
                           "tensors.size() - 1, and reads what lies past the array"
                : t == -1 ? ": one before the first — the walk goes on past tensor 0"
                          : ": not a tensor's index") +
               "." + kPlanHole;
  return "";
}

// Which of a bucket's two numbers is off, when its tensors say where its slice should be ([lo, hi)):
// the offset left at its first tensor's (the walk goes backward, so each tensor that joins lies
// before the ones already in: the offset must move down to it), the offset at the end of the last
// tensor to join, a count carried over from the buckets before it (not started at 0 when the bucket
// opened), or a count in bytes. "" when no reading fits.
inline std::string slice_reading(const std::vector<Bucket>& buckets, std::size_t b,
                                 const std::vector<Mlp::Tensor>& tensors, std::size_t lo, std::size_t hi) {
  const Bucket& k = buckets[b];
  if (k.tensors.empty()) return "";
  const Mlp::Tensor& first = tensors[static_cast<std::size_t>(k.tensors.front())];
  const Mlp::Tensor& last = tensors[static_cast<std::size_t>(k.tensors.back())];
  if (k.count == hi - lo && k.offset != lo && k.offset == first.offset && last.offset == lo)
    return "; its count is right, but its offset is its first tensor's (" + tensor_name(first) + ", at " +
           std::to_string(first.offset) + "), not the last one's to join (" + tensor_name(last) + ", at " +
           std::to_string(lo) + "): the offset must move down to each tensor as it joins, since the walk goes "
           "backward and each lies before the ones already in";
  if (k.count == hi - lo && k.offset != lo && k.offset == last.offset + last.count)
    return "; its count is right, but its offset, " + std::to_string(k.offset) + ", is where the last tensor to "
           "join (" + tensor_name(last) + ", at " + std::to_string(last.offset) + ") ends, not where it starts: "
           "the offset is a tensor's start (its offset), not its offset + count";
  std::size_t earlier = 0;  // what the buckets before it hold
  for (std::size_t c = 0; c < b; ++c)
    for (int t : buckets[c].tensors) earlier += tensors[static_cast<std::size_t>(t)].count;
  if (k.offset == lo && earlier > 0 && k.count == hi - lo + earlier)
    return "; its offset is right, but its count, " + std::to_string(k.count) + ", is its tensors' " +
           std::to_string(hi - lo) + " plus the " + std::to_string(earlier) +
           " of the buckets before it: the count carried over — a bucket that opens starts from count 0 "
           "(a whole new Bucket, not only an empty tensor list)";
  // Bytes where floats belong: every tensor counted sizeof(float) = 4 times.
  if (k.offset == lo && k.count == (hi - lo) * sizeof(float))
    return "; its offset is right, but its count, " + std::to_string(k.count) + ", is 4 times its tensors' " +
           std::to_string(hi - lo) + " floats: the count is in bytes (count * sizeof(float)), where Bucket::count "
           "counts floats";
  return "";
}

// A slice that does not lie inside the gradient (`gradient_count` floats) cannot be averaged at
// all: what the averaging would read is not this rank's gradient. The first such bucket, said
// with its tensors and where they are; "" when every slice fits. Checked before the first step.
inline std::string slice_outside(const std::vector<Bucket>& buckets, const std::vector<Mlp::Tensor>& tensors,
                                 std::size_t gradient_count) {
  if (const std::string bad = index_outside(buckets, tensors); !bad.empty()) return bad;  // its slice is garbage
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    const Bucket& k = buckets[b];
    if (k.offset <= gradient_count && k.count <= gradient_count - k.offset) continue;
    std::string where;  // where its tensors are, for comparison
    std::size_t lo = gradient_count, hi = 0;
    for (int t : k.tensors)
      if (t >= 0 && static_cast<std::size_t>(t) < tensors.size()) {
        lo = std::min(lo, tensors[static_cast<std::size_t>(t)].offset);
        hi = std::max(hi, tensors[static_cast<std::size_t>(t)].offset + tensors[static_cast<std::size_t>(t)].count);
      }
    if (lo < hi) where = "; its tensors " + tensor_names(k.tensors, tensors) + " lie in " + range_text(lo, hi);
    return "bucket " + std::to_string(b) + "'s slice " + range_text(k.offset, k.offset + k.count) +
           " does not lie inside the gradient " + range_text(0, gradient_count) + where +
           ": it cannot be averaged" + (lo < hi ? slice_reading(buckets, b, tensors, lo, hi) : "") + "." + kPlanHole;
  }
  return "";
}

// Which size the plan really closes its buckets at. A plan that keeps "close a bucket on the
// first tensor that brings it to T bytes or more" pins T between two numbers: every closed bucket
// reached T, and no bucket had reached it before its last tensor. One plan leaves T wide open
// (one bucket says only "more than"), so plan_buckets is asked again at smaller sizes, bucket_bytes
// / 2, / 4, ... / 16, and each answer narrows k = T / size. Returns what k is measured to be, as
// evidence; a cause only when one known factor alone fits (4: a float's bytes). "" when k = 1
// fits (the size is read right: what is wrong is elsewhere) or no threshold explains some plan.
inline std::string threshold_used(const std::vector<Mlp::Tensor>& tensors, std::size_t bucket_bytes) {
  double k_lo = 0, k_hi = 1e300;  // k in (k_lo, k_hi]
  for (std::size_t size = bucket_bytes; size >= bucket_bytes / 16 && size > 0; size /= 2) {
    const std::vector<Bucket> plan = plan_buckets(tensors, size);
    double lo = 0, hi = 1e300;  // T in (lo, hi], in bytes
    for (std::size_t b = 0; b < plan.size(); ++b) {
      double bytes = 0, last = 0;
      for (int t : plan[b].tensors) {
        if (t < 0 || static_cast<std::size_t>(t) >= tensors.size()) return "";
        last = static_cast<double>(tensors[static_cast<std::size_t>(t)].count * sizeof(float));
        bytes += last;
      }
      lo = std::max(lo, bytes - last);                   // it had not closed before its last tensor
      if (b + 1 < plan.size()) hi = std::min(hi, bytes);  // it closed at its last tensor
    }
    k_lo = std::max(k_lo, lo / static_cast<double>(size));
    k_hi = std::min(k_hi, hi / static_cast<double>(size));
  }
  if (k_lo >= k_hi || (k_lo < 1 && 1 <= k_hi)) return "";
  std::string text = " Asked again at bucket_bytes / 2, / 4, ... / 16, plan_buckets closes its buckets as if the "
                     "size were " +
                     (k_hi > 1e299 ? "more than " + lessons::format("%.2g", k_lo) + " times"
                                   : "between " + lessons::format("%.2g", k_lo) + " and " +
                                         lessons::format("%.2g", k_hi) + " times") +
                     " the one given";
  auto fits = [&](double k) { return k_lo < k && k <= k_hi; };
  if (fits(sizeof(float)) && !fits(2) && !fits(8))
    return text + ": 4 times, the bytes of a float — the bucket's count of floats is compared with a size in bytes.";
  return text + ".";
}

// The buckets plan_buckets made, against the rule above it (`bucket_bytes` as it was given; the
// gradient is `gradient_count` floats). "" when they keep it; else the first thing wrong.
inline std::string plan_problem(const std::vector<Bucket>& buckets, const std::vector<Mlp::Tensor>& tensors,
                                std::size_t bucket_bytes, std::size_t gradient_count) {
  // 1. Every tensor in exactly one bucket, or its gradient is never averaged (or averaged twice).
  if (buckets.empty() && !tensors.empty())
    return std::string("plan_buckets made no bucket: no gradient is averaged.") + kPlanHole;
  // 0. Every index a bucket lists is a tensor's.
  if (const std::string bad = index_outside(buckets, tensors); !bad.empty()) return bad;
  std::vector<int> in(tensors.size(), 0);
  for (const auto& b : buckets)
    for (int t : b.tensors)
      if (t >= 0 && static_cast<std::size_t>(t) < tensors.size()) ++in[static_cast<std::size_t>(t)];
  std::vector<int> none, several;
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    if (in[t] == 0) none.push_back(static_cast<int>(t));
    if (in[t] > 1) several.push_back(static_cast<int>(t));
  }
  if (!none.empty() || !several.empty()) {
    std::vector<int> all(none);
    all.insert(all.end(), several.begin(), several.end());
    std::string what = "tensor" + std::string(all.size() == 1 ? " " : "s ") + tensor_names(all, tensors) +
                       (all.size() == 1 ? " is" : " are") + " not in exactly one bucket:";
    // "they" when one kind says it all, the names when both are there.
    const bool both = !none.empty() && !several.empty();
    const std::string they = all.size() == 1 ? "it is" : "they are";
    if (!none.empty()) {
      what += " " + (both ? tensor_names(none, tensors) + (none.size() == 1 ? " is" : " are") : they) +
              " in none, so never averaged";
      // The backward pass makes tensor 0 ready last: missing tensors 0 .. k-1 are the end of the walk.
      const bool tail = none.back() == static_cast<int>(none.size()) - 1;
      if (tail && none.size() < tensors.size())
        what += " (the last " + ringlab::plural(static_cast<long long>(none.size()), "tensor") +
                " the backward pass makes ready)";
    }
    if (!several.empty())
      what += std::string(both ? ";" : "") + " " +
              (both ? tensor_names(several, tensors) + (several.size() == 1 ? " is" : " are") : they) +
              " in more than one, so averaged more than once";
    return what + "." + kPlanHole;
  }
  const std::string outside = slice_outside(buckets, tensors, gradient_count);
  if (!outside.empty()) return outside;

  // 2. A bucket's slice is exactly its tensors, side by side (the averaging reads the slice).
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    if (buckets[b].tensors.empty())
      return "bucket " + std::to_string(b) + " holds no tensor: its slice " +
             range_text(buckets[b].offset, buckets[b].offset + buckets[b].count) + " belongs to none." + kPlanHole;
    std::vector<const Mlp::Tensor*> mine;
    for (int t : buckets[b].tensors) mine.push_back(&tensors[static_cast<std::size_t>(t)]);
    std::sort(mine.begin(), mine.end(), [](auto* x, auto* y) { return x->offset < y->offset; });
    const std::size_t lo = mine.front()->offset, hi = mine.back()->offset + mine.back()->count;
    for (std::size_t i = 1; i < mine.size(); ++i)
      if (mine[i - 1]->offset + mine[i - 1]->count != mine[i]->offset)
        return "bucket " + std::to_string(b) + "'s tensors " + tensor_names(buckets[b].tensors, tensors) +
               " do not lie side by side: " + tensor_name(*mine[i - 1]) + " ends at " +
               std::to_string(mine[i - 1]->offset + mine[i - 1]->count) + ", " + tensor_name(*mine[i]) +
               " starts at " + std::to_string(mine[i]->offset) + "." + kPlanHole;
    if (buckets[b].offset != lo || buckets[b].count != hi - lo)
      return "bucket " + std::to_string(b) + "'s slice is " +
             range_text(buckets[b].offset, buckets[b].offset + buckets[b].count) + ", but its tensors " +
             tensor_names(buckets[b].tensors, tensors) + " lie in " + range_text(lo, hi) +
             ": the averaging would miss part of them, or average what is not theirs" +
             slice_reading(buckets, b, tensors, lo, hi) + "." + kPlanHole;
  }

  // 3. Each bucket lists its tensors in the order the backward pass makes them ready (the highest
  //    index first): the schedule reads the buckets' lists one after the other as that order.
  //    Said here only when the walk itself went backward (bucket 0 holds the last tensors): a walk
  //    in forward order is the schedule's to explain (schedule_problem), and the sizes are not
  //    checked (part 4 reads a bucket's last listed tensor as the last one added).
  bool walked_backward = true;
  for (std::size_t b = 0; b + 1 < buckets.size(); ++b)
    walked_backward = walked_backward && *std::min_element(buckets[b].tensors.begin(), buckets[b].tensors.end()) >
                                             *std::max_element(buckets[b + 1].tensors.begin(), buckets[b + 1].tensors.end());
  if (!walked_backward) {
    // The buckets in memory order (bucket 0 the lowest tensors), each filled backward: the walk
    // was right, the list of buckets turned round. Any other order is a forward walk: the
    // schedule's to explain, and the sizes below would be read against the wrong last bucket.
    bool reversed = true;
    for (std::size_t b = 0; b < buckets.size(); ++b)
      reversed = reversed && std::is_sorted(buckets[b].tensors.begin(), buckets[b].tensors.end(), std::greater<int>()) &&
                 (b + 1 == buckets.size() ||
                  *std::max_element(buckets[b].tensors.begin(), buckets[b].tensors.end()) <
                      *std::min_element(buckets[b + 1].tensors.begin(), buckets[b + 1].tensors.end()));
    if (!reversed) return "";
    return "the buckets are listed in memory order: bucket 0 (" + tensor_names(buckets.front().tensors, tensors) +
           ") holds the tensors the backward pass makes ready last, bucket " + std::to_string(buckets.size() - 1) +
           " (" + tensor_names(buckets.back().tensors, tensors) +
           ") the first: list the buckets in the order they fill (add each at the end as it closes)." + kPlanHole;
  }
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    const std::vector<int>& listed = buckets[b].tensors;
    if (std::is_sorted(listed.begin(), listed.end(), std::greater<int>())) continue;
    std::vector<int> backward(listed);
    std::sort(backward.begin(), backward.end(), std::greater<int>());
    return "bucket " + std::to_string(b) + " lists its tensors " + tensor_names(listed, tensors) +
           "; the backward pass makes them ready " + tensor_names(backward, tensors) +
           ": list each bucket's tensors in the order the walk adds them (the order they become ready)." + kPlanHole;
  }

  // 4. Sizes: every bucket but the last holds at least bucket_bytes, and none held that much
  //    already before its last tensor (the last listed: the last the walk added) joined it.
  const std::string size = "bucket_bytes = " + std::to_string(bucket_bytes) + " (" + bytes_text(bucket_bytes) + ")";
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    const Bucket& k = buckets[b];
    const std::size_t bytes = k.count * sizeof(float);
    const std::size_t last = tensors[static_cast<std::size_t>(k.tensors.back())].count * sizeof(float);
    if (b + 1 < buckets.size() && bytes < bucket_bytes)
      return "bucket " + std::to_string(b) + " (" + tensor_names(k.tensors, tensors) + ") holds " +
             bytes_text(bytes) + ", less than " + size + ", and it is not the last bucket: it closed before it was full." +
             threshold_used(tensors, bucket_bytes) + kPlanHole;
    if (k.tensors.size() > 1 && bytes - last >= bucket_bytes)
      return "bucket " + std::to_string(b) + " (" + tensor_names(k.tensors, tensors) + ") holds " +
             bytes_text(bytes) + "; before its last tensor, " + tensor_name(tensors[static_cast<std::size_t>(k.tensors.back())]) +
             ", it held " + bytes_text(bytes - last) + ", already " + size + " or more: it closed late." +
             threshold_used(tensors, bucket_bytes) + kPlanHole;
  }

  // 5. The boundary: a bucket that reaches bucket_bytes exactly closes too ("at least"). The given
  //    size may never be met exactly, so plan_buckets is asked again with the bytes of the first
  //    tensor the walk adds: that tensor alone must then be bucket 0.
  const std::size_t first = tensors.empty() ? 0 : tensors.back().count * sizeof(float);
  if (bucket_bytes == 0 || first == 0 || first == bucket_bytes || tensors.size() < 2) return "";
  const std::vector<Bucket> exact = plan_buckets(tensors, first);
  const int alone = static_cast<int>(tensors.size()) - 1;
  if (!exact.empty() && exact.front().tensors == std::vector<int>{alone}) return "";
  const std::string asked = "Asked again with bucket_bytes = " + std::to_string(first) + ", the bytes of " +
                            tensor_name(tensors.back()) + " exactly (the first tensor the walk adds), ";
  if (!exact.empty() && exact.front().tensors.size() > 1 && exact.front().tensors.front() == alone)
    return asked + "plan_buckets did not close bucket 0 when that tensor filled it to the size exactly: it added " +
           tensor_names(exact.front().tensors, tensors) +
           ". A bucket closes once it holds at least bucket_bytes: compare with >=, not >." + kPlanHole;
  return asked + "plan_buckets's bucket 0 is not that tensor alone (" +
         (exact.empty() ? std::string("no bucket") : tensor_names(exact.front().tensors, tensors)) +
         "): a bucket closes on the first tensor that brings it to bucket_bytes." + kPlanHole;
}

// The schedule of one step, from the scheduler's log (the plan is plan_problem's business).
// `averaged`: the step's gradient came out averaged on more than one rank (step() waits for all
// the averaging there is before the check reads it), evidence that something started it.
inline std::string schedule_problem(const BucketScheduler& s, const std::vector<Mlp::Tensor>& tensors,
                                    bool averaged) {
  using Event = BucketScheduler::Event;
  const auto& buckets = s.buckets();
  // 1. Packed in backward order: read bucket 0, 1, 2, ... one after the other, and the tensors
  //    come in the order the backward pass made them ready (the last tensor first).
  const auto& log = s.log();
  // 0. gradient_ready logs every tensor before its hole runs, so a step's log always holds them:
  //    an empty log after the step was cleared before the check read it.
  if (log.empty() && !tensors.empty())
    return "the step's log is empty — not even the tensors the backward pass made ready are in it, so it "
           "was cleared after them: new_step() empties it, and belongs at the start of a step (the training "
           "loop calls it), not in finish()";
  std::vector<int> ready_order, packed;
  int last_ready = -1;
  for (std::size_t i = 0; i < log.size(); ++i)
    if (log[i].kind == Event::ready) ready_order.push_back(log[i].index), last_ready = static_cast<int>(i);
  for (const auto& b : buckets) packed.insert(packed.end(), b.tensors.begin(), b.tensors.end());
  for (std::size_t k = 0, b = 0, in_b = 0; k < packed.size() && k < ready_order.size(); ++k, ++in_b) {
    while (in_b >= buckets[b].tensors.size()) ++b, in_b = 0;
    if (packed[k] != ready_order[k])
      return "bucket " + std::to_string(b) + " holds " + tensor_name(tensors[packed[k]]) +
             " where the backward pass makes " + tensor_name(tensors[ready_order[k]]) +
             " ready: pack the tensors in backward order (" + tensor_name(tensors[ready_order[0]]) +
             " first), or a bucket waits for gradients computed long after its first";
  }

  // 2. Each bucket starts the moment its last gradient is ready, once, and nothing is waited for
  //    while the backward pass still runs.
  std::set<int> ready, started;
  for (std::size_t i = 0; i < log.size(); ++i) {
    const Event& e = log[i];
    if (e.kind == Event::ready) {
      ready.insert(e.index);
      continue;
    }
    const auto& b = buckets[static_cast<std::size_t>(e.index)];
    if (e.kind == Event::wait) {
      if (static_cast<int>(i) < last_ready)
        return "waited for bucket " + std::to_string(e.index) +
               " while the backward pass still had gradients to compute: it stood still until that "
               "allreduce finished (start in gradient_ready, wait only in finish)";
      continue;
    }
    if (!started.insert(e.index).second) return "bucket " + std::to_string(e.index) + " started twice";
    // The bucket the tensor just made ready belongs to, full now, where another one started: the
    // start names some other number than that bucket's.
    int full = -1;
    if (i > 0 && log[i - 1].kind == Event::ready)
      for (std::size_t c = 0; c < buckets.size(); ++c) {
        const auto& in = buckets[c].tensors;
        if (std::find(in.begin(), in.end(), log[i - 1].index) != in.end() &&
            std::all_of(in.begin(), in.end(), [&](int t) { return ready.count(t) > 0; }))
          full = static_cast<int>(c);
      }
    const std::string other_full =
        full >= 0 && full != e.index
            ? ": the ready tensor " + tensor_name(tensors[static_cast<std::size_t>(log[i - 1].index)]) +
                  " had just filled bucket " + std::to_string(full) + ", and bucket " + std::to_string(e.index) +
                  " started in its place — start_allreduce was given another number than the full bucket's (b)"
            : "";
    for (int t : b.tensors)
      if (!ready.count(t))
        return "bucket " + std::to_string(e.index) + " started before " + tensor_name(tensors[t]) + " was ready" +
               other_full;
    if (i == 0 || log[i - 1].kind != Event::ready)
      return "bucket " + std::to_string(e.index) + " did not start the moment its last gradient was ready";
  }
  // A bucket the log never saw start, though the backward pass made every tensor of it ready.
  // Either the moment it was full went by unseen, or its slice was averaged some other way than
  // start_allreduce (which logs the start and keeps the ticket finish() waits for): a gradient
  // that still came out averaged tells the second.
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    if (started.count(static_cast<int>(b))) continue;
    const auto& k = buckets[b];
    const bool all_ready = std::all_of(k.tensors.begin(), k.tensors.end(), [&](int t) { return ready.count(t) > 0; });
    const std::string around =
        averaged ? " — yet the gradient came out averaged, so its slice was averaged some other way: start a "
                   "bucket with start_allreduce(b), which logs the start and keeps the ticket that finish() waits for"
                 : " — gradient_ready must call start_allreduce(b) when the ready tensor is the last one the bucket "
                   "was missing";
    // How its count of tensors still missing ended tells which part of the test went wrong.
    const int size = static_cast<int>(k.tensors.size()), left = s.missing(static_cast<int>(b));
    const std::string count =
        !all_ready || averaged ? ""
        : left == 0 ? "; its count of tensors still missing went from " + std::to_string(size) +
                          " down to 0, yet no start came at 0: the test that starts it never saw the 0 (one "
                          "possibility is a post-decrement, missing_[b]-- == 0, which compares the count before it "
                          "drops), or no start_allreduce follows the test"
        : left == size ? "; its count of tensors still missing is still " + std::to_string(size) +
                             ": no ready tensor counted itself off"
        : "; its count of tensors still missing went from " + std::to_string(size) + " to " +
              std::to_string(left) + " after " + ringlab::plural(size, "ready tensor") +
              ", where it counts down by one for each";
    return ringlab::plural(static_cast<long long>(buckets.size() - started.size()), "bucket") + " of " +
           std::to_string(buckets.size()) + " never started through start_allreduce; bucket " + std::to_string(b) +
           " (" + tensor_names(k.tensors, tensors) + ") is one" +
           (all_ready ? ", though every one of its tensors was made ready" + count + around : "");
  }
  // A count of tensors still missing that is not 0 once every tensor of its bucket was ready and
  // the bucket started: something set it back during the step (only new_step() sets the counts).
  // The count as the bucket started (its start event keeps it) tells which: 0 then, so set back
  // after; its full size then, so never counted down, the start decided by another test.
  for (std::size_t b = 0; b < buckets.size(); ++b)
    if (const int left = s.missing(static_cast<int>(b)); left != 0) {
      const auto start = std::find_if(log.begin(), log.end(), [&](const Event& e) {
        return e.kind == Event::start && e.index == static_cast<int>(b);
      });
      const int size = static_cast<int>(buckets[b].tensors.size());
      const std::string text = "bucket " + std::to_string(b) + " (" + tensor_names(buckets[b].tensors, tensors) +
                               ") started once all its tensors were ready, yet its count of tensors still missing is " +
                               std::to_string(left) + " at the end of the step, not 0: ";
      if (start != log.end() && start->missing == size && left == size)
        return text + "it was " + std::to_string(size) + ", its full size, when the bucket started, too: no ready "
               "tensor counted itself off (missing_[b] never counted down), and the start came from another test "
               "than the count reaching 0 — count the tensor off, then start the bucket when its count is 0";
      return text + "it was set back during the step — the counts are set for a new step by new_step() (the "
             "training loop calls it), and gradient_ready only counts them down";
    }

  std::set<int> waited;
  for (const auto& e : log)
    if (e.kind == Event::wait) waited.insert(e.index);
  // No wait in the log at all: finish() waited for nothing, or waited some other way than
  // wait_for(b) (the averaging's own wait_all, say), which logs nothing: both are offered. Some
  // buckets waited for and others not: those others were not.
  if (waited.empty() && !buckets.empty())
    return "finish() logged no wait for " +
           (buckets.size() == 1 ? std::string("its one bucket") : "any of its " + std::to_string(buckets.size()) + " buckets") +
           ": one possibility is that it waits for none (the optimizer step would then read gradients still being "
           "averaged); another, that it waited some other way than wait_for(b), which logs each wait, such as the "
           "averaging's own wait_all() — finish waits with wait_for(b) for each bucket b";
  if (waited.size() != buckets.size())
    return "finish() did not wait for every bucket: the optimizer step would read gradients still being "
           "averaged";
  return "";
}

// Before the first step, with or without --check: a plan with a slice outside the gradient
// cannot be averaged at all (the averaging would read memory that is not the gradient). Every
// rank made the same plan and stops here; rank 0 says why. 1 (the exit code) when the run must
// stop, 0 when it may go on.
inline int refuse_plan_outside_gradient(Stepper& st, Strategy strategy, const BucketScheduler& scheduler) {
  const std::string why =
      strategy == Strategy::after ? "" : slice_outside(scheduler.buckets(), st.mlp.tensors(), st.grad.size());
  if (st.comm.all_ok(why.empty())) return 0;
  if (st.comm.rank() == 0) {
    ringlab::log(ringlab::Level::error) << "before step 0: schedule WRONG: " << why;
    std::printf("diagnosis: the bucket plan is wrong: %s\n", why.c_str());
  }
  ringlab::print_once(st.comm, std::string("check: ") + strategy_name(strategy) + " on " +
                                   ringlab::plural(st.comm.size(), "rank") +
                                   ": bucket plan WRONG, so no step was taken. FAILED\n");
  return 1;
}

class StepCheck {
 public:
  StepCheck(Stepper& st, Strategy strategy) : st_(st), strategy_(strategy) {}

  // After the step's averaging, before its update.
  void gradient(const BucketScheduler& scheduler) {
    ringlab::Communicator& comm = st_.comm;
    const int n = comm.size();
    // The same local gradient again (same weights, same examples: bit-identical), averaged
    // lesson 06's way, all at once: every strategy must give this gradient.
    reference_.resize(st_.grad.size());
    st_.mlp.loss_and_gradient(st_.params.data(), st_.train_set, st_.first, st_.part.count, reference_.data());
    st_.mlp.take_loss_sum();  // (not the epoch's loss)
    lesson06::average_gradients(comm, ringlab::View<float>(reference_));
    const double diff = comm.max(lessons::relative_error(st_.grad, reference_));
    if (diff > 1e-6 && worst_difference_ <= 1e-6 && comm.rank() == 0)
      ringlab::log(ringlab::Level::error)
          << "step " << st_.step_index - 1 << ": " << strategy_name(strategy_) << "'s averaged gradient vs after's: "
          << ringlab::describe(ringlab::compare<float>(ringlab::View<const float>(reference_),
                                                       ringlab::View<const float>(st_.grad), n));
    worst_difference_ = std::max(worst_difference_, diff);
    if (strategy_ == Strategy::after || !schedule_error_.empty()) return;
    // The plan first: a schedule read from a wrong plan would only echo it.
    schedule_error_ = plan_problem(scheduler.buckets(), st_.mlp.tensors(), st_.bucket_bytes(strategy_), st_.grad.size());
    const char* what = schedule_error_.empty() ? "schedule" : "plan";
    if (schedule_error_.empty()) schedule_error_ = schedule_problem(scheduler, st_.mlp.tensors(), n > 1 && diff <= 1e-6);
    if (!schedule_error_.empty() && comm.rank() == 0) {
      ringlab::log(ringlab::Level::error) << "step " << st_.step_index - 1 << ": schedule WRONG: " << schedule_error_;
      // The check names what happened and the hole: say it as every lesson's diagnosis does.
      std::printf("diagnosis: the bucket %s is wrong: %s\n", what, schedule_error_.c_str());
    }
  }

  // After the update.
  void replicas() {
    if (lessons::replicas_identical(st_.comm, st_.params, st_.velocity)) return;
    if (identical_)
      ringlab::print_once(st_.comm, "check: step " + std::to_string(st_.step_index - 1) + ": replicas differ WRONG\n");
    identical_ = false;
  }

  // The verdict and the exit code.
  int finish() {
    const bool ok = identical_ && worst_difference_ <= 1e-6 && schedule_error_.empty();
    ringlab::print_once(
        st_.comm, std::string("check: ") + strategy_name(strategy_) + " on " + ringlab::plural(st_.comm.size(), "rank") +
                      ": averaged gradient vs after's, max rel. diff " + lessons::sci(worst_difference_) +
                      (worst_difference_ <= 1e-6 ? " (<= 1e-6 ok)" : " WRONG (> 1e-6)") + "; replicas " +
                      (identical_ ? "bit-identical after every step" : "DIFFER") + "; schedule " +
                      (schedule_error_.empty() ? "ok" : "WRONG") + (ok ? ". PASSED\n" : ". FAILED\n"));
    return ok ? 0 : 1;
  }

 private:
  Stepper& st_;
  Strategy strategy_;
  std::vector<float> reference_;
  double worst_difference_ = 0;
  bool identical_ = true;
  std::string schedule_error_;
};

}  // namespace lesson08
