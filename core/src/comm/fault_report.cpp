#include "fault_report.hpp"

#include <signal.h>

#include <cstdio>

#include "ringlab/trace/trace.hpp"
#include "signal_line.hpp"

namespace ringlab::fault_report {
namespace {

char g_prefix[64] = "";  // "[rank r/n] ", written once at start()

// What the signal means, for someone who wrote the arithmetic or the index that raised it.
const char* what_of(int sig, int code) {
  if (sig == SIGFPE && (code == FPE_INTDIV || code == FPE_INTOVF))
    return code == FPE_INTDIV ? "integer division by zero (SIGFPE)" : "integer overflow in a division (SIGFPE)";
  if (sig == SIGFPE) return "arithmetic fault (SIGFPE)";
  if (sig == SIGBUS) return "bad memory access (SIGBUS)";
  return "memory access outside any buffer (SIGSEGV)";
}

const char* advice_of(int sig) {
  if (sig == SIGFPE)
    return ": a / or % there divides by a value that is 0 on this rank — look at what that code divides "
           "by, and with which arguments\n";
  return ": a pointer or an index there reaches outside its buffer — look at the indices and the sizes "
         "that code uses\n";
}

void on_fault(int sig, siginfo_t* info, void*) {
  // Async-signal-safe (signal_line.hpp); the trace context is this thread's, set by Collective::at.
  static detail::SignalLine line;  // (static: the handler's stack may be small)
  line.used = 0;
  line.put(g_prefix);
  line.put("error: ");
  line.put(what_of(sig, info->si_code));
  const trace::Context& c = trace::context();
  if (c.coll != nullptr && *c.coll != '\0') {
    line.put(" in ");
    line.put(c.coll);
    if (c.phase != nullptr && *c.phase != '\0') {
      line.put(", ");
      line.put(c.phase);
      if (c.step >= 0) {
        line.put(" step ");
        line.put(static_cast<std::size_t>(c.step));
      }
    }
  } else {
    line.put(" outside any collective");
  }
  line.put(advice_of(sig));
  line.write_to_stderr();
  // The default action back (SA_RESETHAND did so, but another handler that chained to this one
  // may have put it back): returning runs the faulting instruction again, and the signal ends
  // the process as it would have; raise() covers a signal sent from outside.
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(sig, &fallback, nullptr);
  raise(sig);
}

// Under AddressSanitizer, its own SIGSEGV report (with the access and the stack) says more than
// this line: only SIGFPE is taken there.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kMemoryFaultsToo = false;
#else
constexpr bool kMemoryFaultsToo = true;
#endif

}  // namespace

void start(int rank, int size) {
  std::snprintf(g_prefix, sizeof g_prefix, "[rank %d/%d] ", rank, size);
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGFPE, &action, nullptr);
  if (kMemoryFaultsToo)
    for (int sig : {SIGSEGV, SIGBUS}) sigaction(sig, &action, nullptr);
}

}  // namespace ringlab::fault_report
