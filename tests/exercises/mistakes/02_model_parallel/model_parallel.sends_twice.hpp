// mistake: the send written twice — every rank but the last sends its sum once too often; the
// next call's receive takes the message this call left behind.
// expect: 1
// expect-message: message left behind: rank 0 sent this rank 8 bytes in chain_sum
// expect-message: diagnosis: rank 1 received .* from rank 0, whose y .*: .* is rank 0's y of the call before — a message that call left behind reached rank 1 first.*which leaves one cause: rank 0 sends once too often \(your send hole\)
  // ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), r + 1);  // pass it on
  if (r < last) comm.send(View<const T>(&y, 1), r + 1);  // the bug: a second send
  // ==== END EXERCISE ====
