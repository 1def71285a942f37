// libFuzzer harness: any bytes as a presenter deck (docs/presenting.md) through parse_deck.
// Whatever the markdown, the parser returns a deck, never throws or crashes; every problem is
// one line (no line breaks inside an error), and every slide it made has a title or content.
// File checks are off: the fuzzer's image and trace names point nowhere. See README.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "viz/deck.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ringlab::viz::DeckOptions options;
  options.check_files = false;
  options.lessons = {1, 2, 3, 4, 5, 6, 7, 8};
  const ringlab::viz::Deck deck = ringlab::viz::parse_deck(text, options);
  for (const auto& e : deck.errors)
    if (e.empty() || e.find('\n') != std::string::npos) std::abort();  // one line, never empty
  for (const auto& line : {std::string("**a *b* `c` [d](e)"), text.substr(0, 256)})
    (void)ringlab::viz::parse_inline(line);
  return 0;
}
