// How a slice of the gradient gets averaged across the ranks (lesson 08's --allreduce), behind
// one interface, so that the bucket scheduler (solutions/08: gradient_buckets.hpp) and the step
// are the same whichever way it is done:
//   ring    the caller's averaging function (lesson 08 passes lesson 06's average_gradients:
//           lesson 05's ring over MPI messages), run on a progress thread
//           (ringlab/comm/progress_thread.hpp): works between any ranks, on any hosts
//   shared  the ranks of one host average in place, reading each other's gradient in an MPI-3
//           shared-memory window (ringlab/comm/shared_average.hpp says how and why): no
//           messages, no copies through the kernel, no thread
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

#include "ringlab/comm/memory.hpp"
#include "ringlab/comm/progress_thread.hpp"
#include "ringlab/comm/shared_average.hpp"

namespace ringlab {

class Averaging {
 public:
  virtual ~Averaging() = default;
  virtual const char* name() const = 0;
  virtual View<float> gradient() = 0;  // this rank's gradient: the backward pass writes it here
  virtual void new_step() {}           // before the backward pass of every step
  // Starts averaging `slice` (a part of gradient()) and returns at once with a ticket.
  virtual int start(View<float> slice) = 0;
  virtual void between_layers() = 0;  // called by the backward pass between two layers
  virtual void wait(int ticket) = 0;  // until that slice is averaged on this rank
  virtual void wait_all() = 0;        // until every started slice is
  // Seconds spent on communication so far (hidden behind backward or not).
  virtual double busy_seconds() = 0;
  // The part of busy_seconds() that ran while a backward pass computed, where the averaging
  // measures it itself; negative where it does not (the bench then takes busy - exposed).
  virtual double hidden_seconds() { return -1; }
  // The `after` strategy: the whole gradient, averaged now.
  virtual void average_now() { wait(start(gradient())); }
};

// The ring over MPI, on the progress thread. The gradient sits on huge pages, which makes Open
// MPI's copies of it faster (ringlab/memory.hpp says why).
class RingAveraging : public Averaging {
 public:
  // `average(comm, slice)`: the allreduce and the division by n, in place.
  using AverageFn = std::function<void(Communicator&, View<float>)>;
  RingAveraging(Communicator& comm, std::size_t count, ProgressThread::Sharing sharing, int poll_us,
                AverageFn average)
      : comm_(comm), average_(std::move(average)), grad_(count, Where::host), progress_(comm, sharing, poll_us) {}
  const char* name() const override { return "ring"; }
  View<float> gradient() override { return grad_.view(); }
  int start(View<float> slice) override {
    return progress_.start([this, slice] { average_(comm_, slice); });
  }
  // Lesson 06's way: the ring on the training thread itself (the progress thread is idle then).
  void average_now() override { average_(comm_, grad_.view()); }
  void between_layers() override { progress_.lend_core(); }  // handover: the ring advances here
  void wait(int ticket) override { progress_.wait(ticket); }
  // MPI_THREAD_SERIALIZED: the training thread calls MPI after this, so the thread must be done.
  void wait_all() override { progress_.wait_all(); }
  double busy_seconds() override { return progress_.busy_seconds(); }

 private:
  Communicator& comm_;
  AverageFn average_;
  Buffer<float> grad_;
  ProgressThread progress_;
};

// In place, in shared memory. Nothing happens between two layers: a rank computing its backward
// pass is never interrupted; the ranks that wait (in wait()) average every bucket all ranks have
// finished, so the averaging moves onto the rank that would otherwise sit idle.
class SharedAveraging : public Averaging {
 public:
  SharedAveraging(Communicator& comm, std::size_t count) : shared_(comm, count) {}
  const char* name() const override { return "shared"; }
  View<float> gradient() override { return shared_.gradient(); }
  // Tickets count on across steps, as the ring's do: a ticket is a handle, not a slice's number
  // in its step, so code that mixes the two up (a bucket's ticket where its number belongs)
  // fails from the second step on, with either averaging, instead of passing while they agree.
  void new_step() override {
    shared_.new_step();
    first_ = issued_;
  }
  int start(View<float> slice) override {
    shared_.start(static_cast<std::size_t>(slice.data() - shared_.gradient().data()), slice.size());
    return issued_++;
  }
  void between_layers() override {}
  void wait(int ticket) override {
    if (ticket < first_ || ticket >= issued_)
      throw std::out_of_range("averaging wait(" + std::to_string(ticket) + "): no slice started in this step has "
                              "that ticket (this step's are " + std::to_string(first_) + " to " +
                              std::to_string(issued_ - 1) + ")");
    shared_.wait(ticket - first_);
  }
  void wait_all() override { shared_.wait_all(); }
  double busy_seconds() override { return shared_.busy_seconds(); }
  // Work done while another rank was still computing: behind that rank's backward pass.
  double hidden_seconds() override { return shared_.hidden_seconds(); }

 private:
  SharedAverage shared_;
  int first_ = 0, issued_ = 0;  // this step's first ticket; the next ticket start() gives
};

}  // namespace ringlab
