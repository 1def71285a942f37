// Output files (--trace FILE, --checkpoint FILE) are checked before any work, not discovered to
// be unwritable at the end of a long run. Both are written the same safe way: to FILE.tmp, then
// renamed over FILE, so an existing FILE is never lost to a half-written one.
#pragma once
#include <string>

namespace ringlab {

// Whether `path` can be written as a file now: it is not a folder (or another non-file) and
// its folder takes a new file (probed by creating and removing `path`.tmp; `path` itself is not
// touched). False with a one-line reason ("is a folder, not a file", "cannot create ...").
bool output_file_writable(const std::string& path, std::string* why);
// Writes `text` to `path` that safe way (FILE.tmp, flushed to disk, renamed over FILE); false if not.
bool write_whole(const std::string& path, const std::string& text);

}  // namespace ringlab
