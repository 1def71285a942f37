  // ==== BEGIN EXERCISE: average ====
  const int n = comm.size(), r = comm.rank();
  View<float> theirs = comm.scratch_like(grad);  // my neighbour's gradient, in grad's memory
  comm.sendrecv(View<const float>(grad), (r + 1) % n, theirs, (r - 1 + n) % n);
  ringlab::reduce_sum(grad, View<const float>(theirs));
  ringlab::scale(grad, 0.5f);
  // ==== END EXERCISE ====
