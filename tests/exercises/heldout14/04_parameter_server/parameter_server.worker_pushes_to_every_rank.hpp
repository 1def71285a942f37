// mistake: the worker pushes its gradient to every other rank (allreduce thinking), not to the server alone; the other workers never receive it
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  for (int to = 0; to < comm.size(); ++to)
    if (to != comm.rank()) comm.send(grad, to);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
