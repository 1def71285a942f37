// libFuzzer harness: one line of the trace format (docs/trace-format.md) through the decoders.
// Whatever the bytes, decode_header/decode_event return a value or a reason, never throw or
// crash; and what they accept survives encode -> decode unchanged (the property the file
// writer and the live stream rely on). See tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ringlab/trace/trace.hpp"

using namespace ringlab::trace;

namespace {
void require(bool ok) {
  if (!ok) std::abort();  // libFuzzer reports the input that got here
}
bool same(const Event& a, const Event& b) {
  return a.rank == b.rank && a.op == b.op && a.peer == b.peer && a.coll == b.coll && a.call == b.call &&
         a.phase == b.phase && a.step == b.step && a.chunk == b.chunk && a.bytes == b.bytes &&
         a.count == b.count && a.dtype == b.dtype && a.name == b.name;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (auto h = decode_header(line, &error)) {
    require(h->ranks >= 1 && h->ranks <= 4096 && h->version == kFormatVersion);
    auto back = decode_header(encode(*h));
    require(back && back->ranks == h->ranks && back->program == h->program && back->args == h->args);
  } else {
    require(!error.empty());
  }
  error.clear();
  if (auto e = decode_event(line, &error)) {
    require(e->rank >= 0);
    // Fields written only when they carry information (peer >= 0, ...) come back as defaults.
    Event norm = *e;
    if (norm.peer < 0) norm.peer = -1;
    if (norm.call < 0) norm.call = -1;
    if (norm.step < 0) norm.step = -1;
    if (norm.chunk < 0) norm.chunk = -1;
    if (norm.name.empty()) norm.value = 0;
    auto back = decode_event(encode(*e));
    require(back && same(*back, norm));
  } else {
    require(!error.empty());
  }
  return 0;
}
