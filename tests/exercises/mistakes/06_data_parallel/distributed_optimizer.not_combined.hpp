// mistake: dividing without summing — each rank divides its own gradient by n but never
// allreduces, so every rank steps with its own gradient and the replicas drift apart.
// expect: 1
// expect-message: replicas differ WRONG
// expect-message: diagnosis: the replicas differ after step 0: the ranks took different steps, so each used its own gradient
// ==== BEGIN EXERCISE: average ====
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));  // the bug: no ring_allreduce_fast first
// ==== END EXERCISE ====
