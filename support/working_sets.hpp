// Copies of a unit's buffers that its runs rotate over. A memory-bound unit whose data spills the
// GPU's L2 runs at a speed that depends on where its buffers land (DRAM channels and L2 slices
// follow physical addresses, which change between processes): two processes of one binary read
// the 2-D FFT rows_cols at 2048^2 up to 7% apart, each at 0.3% noise.
// A unit that takes the next copy at each run reports the mean over several placements, which
// moves between processes about sqrt(copies) times less.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cl.hpp"
#include "verify.hpp"

namespace gb {

// Working sets up to this size may stay in a GPU's L2 (50-60 MB on the H100 and H200), where
// rotating copies would turn cache traffic into DRAM traffic: those keep one copy.
constexpr uint64_t kOneCopyBytes = uint64_t(64) << 20;
// The copies of a larger working set together take at most this much device memory.
constexpr uint64_t kRotationBytes = uint64_t(2) << 30;
constexpr size_t kMaxCopies = 8;

// How many copies of a working set of `bytes` to rotate over: 1 up to kOneCopyBytes, else as many
// as kRotationBytes holds, from 2 to kMaxCopies.
size_t working_set_copies(uint64_t bytes);

// Round robin over `copies`, counting the runs: the check compares the copies that were used.
class Rotation {
 public:
  explicit Rotation(size_t copies) : copies_(std::max<size_t>(1, copies)) {}
  size_t next() { return runs_++ % copies_; }
  size_t copies() const { return copies_; }
  size_t used() const { return static_cast<size_t>(std::min<uint64_t>(runs_, copies_)); }

 private:
  size_t copies_;
  uint64_t runs_ = 0;
};

// Whether the first `bytes` of every buffer equal those of the first one, bit for bit: the
// outputs of one deterministic unit run on the same input, each in its own copy (a copy still
// poisoned, or written by a unit that went wrong, fails). One check: the worst copy, named.
Check check_copies_identical(const std::vector<cl::Buffer>& copies, size_t bytes, const std::string& what);

}  // namespace gb
