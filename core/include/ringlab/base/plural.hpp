// A count with its noun, in the right number: "1 rank", "3 ranks", "1 wrong element". Every line
// the kit prints about how many of something goes through here, so that none says "1 ranks".
//   plural(n, "rank")                 "1 rank", "0 ranks", "2 ranks"
//   plural(k, "bucket", "buckets")    an irregular plural is given whole: plural(m, "child", "children")
#pragma once
#include <string>

namespace ringlab {

inline std::string plural(long long n, const std::string& one, const std::string& many = "") {
  return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

}  // namespace ringlab
