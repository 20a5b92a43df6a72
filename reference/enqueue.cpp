// Frame stage outputs.
#include "enqueue.hpp"

namespace ref {

std::vector<float> enqueue_stage_outputs(size_t stages, size_t items, int steps) {
  std::vector<float> out(stages * items);
  for (size_t s = 0; s < stages; ++s)
    for (size_t g = 0; g < items; ++g) {
      float x = static_cast<float>(g) * 0x1p-12f + static_cast<float>(s);
      for (int i = 0; i < steps; ++i) x = x * 0.75f + 0.5f;
      out[s * items + g] = x;
    }
  return out;
}

}  // namespace ref
