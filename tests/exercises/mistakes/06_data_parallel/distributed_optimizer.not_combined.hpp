// mistake: dividing without summing — each rank divides its own gradient by n but never
// allreduces, so every rank steps with its own gradient and the replicas drift apart.
// expect: 1
// expect-message: replicas differ WRONG
// expect-message: diagnosis: rank 0, step 0, the averaged gradient: .*every wrong value is 1/n = 1/2 times the rank's own value .*: each rank divided its own gradient by n, but the gradients were never summed across the ranks
// expect-message: diagnosis: distributed_optimizer_step called no collective; the reference calls allreduce\(grad\)\. A call is missing: allreduce\(grad\), which sums the buffer over the ranks
// ==== BEGIN EXERCISE: average ====
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));  // the bug: no ring_allreduce_fast first
// ==== END EXERCISE ====
