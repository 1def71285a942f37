// The strict transport (--transport strict): host buffers through MPI under every rule of the
// contract (transport.hpp) at its harshest, the way NCCL behaves, so that an algorithm that
// would deadlock on a GPU cluster deadlocks here, on a laptop, in CI:
//   rule 1  post() only records the operation: nothing is handed to MPI yet;
//   rule 2  wait() starts every recorded operation as one group and returns only when the whole
//           group is done, whichever request it was asked for;
//   rule 3  sends are MPI_Issend: complete only once the matching receive has started;
//   rule 4  receives take the next message from their peer whatever its tag (MPI_ANY_TAG: MPI
//           keeps one sender's messages in order), and the tag and size must be the ones the
//           receive was posted for, or the run stops with one line saying so.
// A group that can never complete is the watchdog's report (every operation still waited for,
// on every rank) and exit code 3.
#include <climits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ringlab/comm/comm.hpp"
#include "ringlab/comm/transport.hpp"

namespace ringlab::transport {
namespace {

struct StrictPosted : Posted {
  Op op;
};

class Strict final : public Backend {
 public:
  explicit Strict(const Wire& wire) : wire_(wire) {
    watchdog::explain_rules(
        "  This run uses --transport strict, NCCL's rules: nothing moves before a wait, and a wait finishes\n"
        "  everything this rank posted since the last one, as one group. A receive posted ahead of its step,\n"
        "  or a send that waits before its receive is posted, hangs here though MPI lets it through.\n"
        "  Post each step's receive and send together, then wait (core/include/ringlab/comm/transport.hpp).\n");
  }
  ~Strict() override { watchdog::explain_rules(""); }
  Transport kind() const override { return Transport::strict; }

  std::shared_ptr<Posted> post(const Op& op) override {
    if (op.count > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("a single transfer is limited to " + std::to_string(INT_MAX) + " elements");
    auto p = std::make_shared<StrictPosted>();
    p->op = op;
    posted_.push_back(p);  // rule 1: recorded, not started
    return p;
  }

  void wait(Posted* const*, const watchdog::Pending*, std::size_t) override {
    // Rule 2: whatever was asked for, the group is every operation posted since the last wait.
    // The requests asked for are in it, or in an earlier group (which finished as a whole).
    if (posted_.empty()) return;
    const auto group = std::exchange(posted_, {});
    std::vector<MPI_Request> requests(group.size());
    std::vector<watchdog::Pending> what;
    for (std::size_t i = 0; i < group.size(); ++i) {
      const Op& o = group[i]->op;
      const int n = static_cast<int>(o.count);
      if (o.send) MPI_Issend(o.data, n, mpi_datatype(o.dtype), o.peer, o.wire_tag, wire_.comm, &requests[i]);
      else MPI_Irecv(o.data, n, mpi_datatype(o.dtype), o.peer, MPI_ANY_TAG, wire_.comm, &requests[i]);
      what.push_back(o.pending());
    }
    std::vector<MPI_Status> statuses(requests.size());
    watchdog::wait_all(wire_.watch, requests.data(), what.data(), static_cast<int>(requests.size()),
                       statuses.data());
    for (std::size_t i = 0; i < group.size(); ++i)
      if (!group[i]->op.send) check_match(group[i]->op, statuses[i]);
  }

 private:
  // Rule 4: the message a receive took must be the one it was posted for.
  void check_match(const Op& o, const MPI_Status& st) const {
    const long long count = received_count(st, o.dtype);
    if (st.MPI_TAG == o.wire_tag && count == static_cast<long long>(o.count)) return;
    std::ostringstream s;
    s << "--transport strict: rank " << wire_.rank << "'s receive from rank " << o.peer << " (tag " << o.tag << ", "
      << o.count << " elements) took rank " << o.peer << "'s next message, sent "
      << wire_tag_origin(st.MPI_TAG) << " with ";
    if (count < 0) {
      s << other_type_taken(st, o.dtype) << ".";
      throw std::runtime_error(s.str());
    }
    s << count << " elements: between two ranks messages match in the order they are posted, whatever the tag "
         "(NCCL's rule), and a receive must be the size of its send. Post sends and receives in the same "
         "order on both sides.";
    throw std::runtime_error(s.str());
  }

  Wire wire_;
  std::vector<std::shared_ptr<StrictPosted>> posted_;  // posted, not started: the next group
};

}  // namespace

std::unique_ptr<Backend> make_strict(const Wire& wire) { return std::make_unique<Strict>(wire); }

}  // namespace ringlab::transport
