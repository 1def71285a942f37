#include "ringlab/base/output_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ringlab {

bool output_file_writable(const std::string& path, std::string* why) {
  struct stat st;
  if (path.empty()) {
    *why = "the path is empty";
    return false;
  }
  // rename() over a folder fails only at the end (after the whole run); say so now.
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "it is a folder, not a file" : "it exists and is not a regular file";
    return false;
  }
  const std::string tmp = path + ".tmp";
  if (::stat(tmp.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    *why = "cannot use " + tmp + " to write it: it exists and is not a regular file";
    return false;
  }
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    *why =
        "cannot create " + tmp + ": " + std::strerror(errno) + " (check the folder exists and is writable)";
    return false;
  }
  ::close(fd);
  ::unlink(tmp.c_str());
  return true;
}

bool write_whole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  std::fflush(f);
  fsync(fileno(f));
  std::fclose(f);
  return ok && std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace ringlab
