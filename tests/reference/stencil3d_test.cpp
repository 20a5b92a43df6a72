// reference/stencil3d: a 2^3 grid worked by hand, and a constant grid kept.
#include <gtest/gtest.h>

#include "reference/stencil3d.hpp"

namespace {

TEST(Stencil7, ClampsAtTheFacesAndKeepsAConstantGrid) {
  // 2 x 2 x 2, value = its index: every neighbour of cell 0 past a face is cell 0 itself.
  std::vector<float> in(8);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  const auto out = ref::stencil7(in, 2);
  EXPECT_FLOAT_EQ(out[0], 0.5f * 0 + (0 + 1 + 0 + 2 + 0 + 4) / 16.0f);
  EXPECT_FLOAT_EQ(out[7], 0.5f * 7 + (6 + 7 + 5 + 7 + 3 + 7) / 16.0f);
  const auto flat = ref::stencil7(std::vector<float>(27, 0.75f), 3);
  for (float v : flat) EXPECT_FLOAT_EQ(v, 0.75f * (0.5f + 6 / 16.0f));
}

}  // namespace
