// Working-set copies: how many, and the check that they agree.
#include "working_sets.hpp"

#include <stdexcept>

#include "buffers.hpp"

namespace gb {

size_t working_set_copies(uint64_t bytes) {
  if (bytes <= kOneCopyBytes) return 1;
  const uint64_t fit = kRotationBytes / bytes;
  return static_cast<size_t>(std::clamp<uint64_t>(fit, 2, kMaxCopies));
}

Check check_copies_identical(const std::vector<cl::Buffer>& copies, size_t bytes, const std::string& what) {
  if (bytes % sizeof(uint32_t) != 0) throw std::invalid_argument("check_copies_identical: bytes not whole 32-bit words");
  if (copies.size() < 2) return {0, 0, what};
  // One check, the worst copy's, so that a benchmark has as many checks with one copy as with 8.
  Check worst_copy{0, 0, what};
  const size_t words = bytes / sizeof(uint32_t);
  const auto first = read_back<uint32_t>(copies[0], words, 0);
  for (size_t i = 1; i < copies.size(); ++i) {
    const Check c = check_exact(read_back<uint32_t>(copies[i], words, 1), first, what);
    if (!(c.error <= worst_copy.error)) worst_copy = {c.error, 0, what + " (copy " + std::to_string(i) + " against copy 0)"};
  }
  return worst_copy;
}

}  // namespace gb
