// The run-wide options.
#include "options.hpp"

namespace gb {
RunOptions& options() {
  static RunOptions o;
  return o;
}
}  // namespace gb
