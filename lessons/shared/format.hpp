// printf into a std::string, for the lines the lessons print (tables in fixed-width columns):
//   print_once(comm, lessons::format("%5d %10.2f\n", M, ms));
// (C++20's std::format would do, but GCC 12's library lacks it.) The compiler checks the
// arguments against the format as it does for printf.
#pragma once
#include <cstdarg>
#include <cstdio>
#include <string>

namespace lessons {

[[gnu::format(printf, 1, 2)]] inline std::string format(const char* fmt, ...) {
  std::va_list args, again;
  va_start(args, fmt);
  va_copy(again, args);
  std::string text(static_cast<std::size_t>(std::vsnprintf(nullptr, 0, fmt, args)), '\0');
  std::vsnprintf(text.data(), text.size() + 1, fmt, again);  // (the +1: its terminating '\0')
  va_end(again);
  va_end(args);
  return text;
}

}  // namespace lessons
