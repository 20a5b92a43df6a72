// Host reference for L0/Enqueue: what the frame stages of kernels/l0/enqueue.cl write.
#pragma once
#include <cstddef>
#include <vector>

namespace ref {

// stages x items floats: stage s, item g holds the stage's chain from g * 2^-12 + s.
std::vector<float> enqueue_stage_outputs(size_t stages, size_t items, int steps);

}  // namespace ref
