// mistake: dividing without summing — each rank divides its own gradient by n but never
// allreduces, so every rank steps with its own gradient and the replicas drift apart.
// expect: 1
// expect-message: replicas differ WRONG
// expect-message: diagnosis: distributed_optimizer_step called no collective; the reference calls allreduce\(grad\)\. A call is missing: allreduce\(grad\), which sums the buffer over the ranks
// ==== BEGIN EXERCISE: average ====
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));  // the bug: no ring_allreduce_fast first
// ==== END EXERCISE ====
