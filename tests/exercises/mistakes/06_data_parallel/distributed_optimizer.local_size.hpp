// mistake: dividing by comm.local_size() — the ranks on this host, not the ranks everywhere. On
// one machine the two are equal and the mean comes out right; on a cluster every rank divides by
// too few. The check puts the ranks on simulated hosts of 2 (manifest: ranks-per-host), so on 3
// ranks the divisor is 2, 2 and 1.
// expect: 1
// expect-message: ok +2 ranks
// expect-message: diagnosis: the averaged gradient's wrong values are k times the right ones, k = 1.5 on rank 0, 1.5 on rank 1, 3 on rank 2: k = n / local_size on every rank — divided by the ranks on this rank's host \(comm.local_size\(\)\)
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.local_size()));  // the bug: the host's ranks, not the world's
// ==== END EXERCISE ====
