// A rank that dies of a fault (an integer division by zero, a bad memory access) says where the
// algorithm was, in one line, before it dies as it would have: "[rank 0/2] error: integer division
// by zero (SIGFPE) in bcast_tree, bcast-tree step 0: …". Without it, the run ends in a raw
// "killed by signal 8" and a backtrace of addresses, which tells a learner nothing. The place is
// the trace context (Collective::at keeps it for the watchdog as well), so the line names the
// collective, phase and step that the exercise's hole was in.
#pragma once

namespace ringlab::fault_report {

// Installs the handlers for SIGFPE, SIGSEGV and SIGBUS (SIGFPE alone under AddressSanitizer; after MPI_Init, which installs Open MPI's
// backtrace printer: this line says more). Each handler writes its line, then lets the signal do
// what it would have done (the default action: the process dies of it, and mpirun says so).
void start(int rank, int size);

}  // namespace ringlab::fault_report
