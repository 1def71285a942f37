// One line of text built inside a signal handler: no allocation, no lock, no stdio (digits by
// hand), and written with one write(2), so that two ranks' lines never interleave. Used by the
// fault handlers (fault_report.cpp, sim_device.cpp).
#pragma once
#include <unistd.h>

#include <cstddef>

namespace ringlab::detail {

struct SignalLine {
  char text[1024];
  std::size_t used = 0;
  void put(const char* s) {
    for (; s != nullptr && *s != '\0' && used + 1 < sizeof text; ++s) text[used++] = *s;
  }
  void put(std::size_t v) {
    char digits[24];
    int k = 0;
    do digits[k++] = static_cast<char>('0' + v % 10);
    while ((v /= 10) != 0);
    while (k > 0 && used + 1 < sizeof text) text[used++] = digits[--k];
  }
  void write_to_stderr() const {
    const ssize_t ignored = write(STDERR_FILENO, text, used);
    (void)ignored;
  }
};

}  // namespace ringlab::detail
