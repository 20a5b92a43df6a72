// The progress line.
#include "progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace gb {

static double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Progress& progress() {
  static Progress p;
  return p;
}

void Progress::start(int total, bool enabled) {
  total_ = total;
  enabled_ = enabled && total > 0;
  tty_ = isatty(STDERR_FILENO) == 1;
  started_ = now_seconds();
}

void Progress::begin(const std::string& name) {
  if (name == last_) return;
  last_ = name;
  ++done_;
  if (!enabled_) return;
  std::string eta = "";
  if (done_ > 1) {
    const double elapsed = now_seconds() - started_;
    const int left = static_cast<int>(elapsed / (done_ - 1) * (total_ - done_ + 1) + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, ", ETA %d:%02d", left / 60, left % 60);
    eta = buf;
  }
  if (tty_) {
    std::fprintf(stderr, "\r\033[K[%d/%d] %s%s", done_, total_, name.c_str(), eta.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "[%d/%d] %s%s\n", done_, total_, name.c_str(), eta.c_str());
  }
  std::fflush(stderr);
}

void Progress::clear() {
  if (!drawn_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

void Progress::note(const std::string& line) {
  clear();
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace gb
