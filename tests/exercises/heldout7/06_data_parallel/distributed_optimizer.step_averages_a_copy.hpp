  // ==== BEGIN EXERCISE: step ====
  std::vector<float> averaged(grad.begin(), grad.end());  // keep this rank's own gradient intact
  average_gradients(comm, View<float>(averaged));
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
