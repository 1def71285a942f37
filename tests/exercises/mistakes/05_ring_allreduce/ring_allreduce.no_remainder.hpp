// mistake: ignoring the remainder — the chunks are cut as count / n elements each, so when count
// is not a multiple of n the last count % n elements are never summed.
// expect: 1
// expect-message: wrong results
// expect-message: wrong only where count is not a multiple of the number of ranks
// ==== BEGIN EXERCISE: reduce-scatter ====
  (void)chunk;
  auto part = [&](int i) {  // the bug: every chunk count / n long, the remainder forgotten
    const std::size_t per = out.size() / n;
    return out.sub(wrap(i, n) * per, per, wrap(i, n));
  };
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = part(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);
    comm.sendrecv(part(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(part(r + 1 - s), next, part(r - s), prev);
  }
// ==== END EXERCISE ====
// ==== BEGIN EXERCISE: allgather ====
// ==== END EXERCISE ====
