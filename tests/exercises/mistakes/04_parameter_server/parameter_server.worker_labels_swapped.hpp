// mistake: the worker's phases named the wrong way round — its push traced as "pull", its pull
// as "push": every value is right, but the trace, the visualizer and the watchdog read the
// worker's steps in the wrong place.
// expect: 1
// expect-message: diagnosis: the parameters are right, but the transfers depart from the parameter server's schedule: push step 0: rank 1 sent to rank 0 as the parameter server does, but its trace says pull step 0, the schedule's other phase: this transfer is the push, so the tc.at labels are swapped
// expect-message: which hole: your worker step hole fails
// ==== BEGIN EXERCISE: worker step ====
  tc.at("pull", step);
  comm.send(grad, kServer);
  tc.at("push", step);
  comm.recv(params, kServer);
// ==== END EXERCISE ====
