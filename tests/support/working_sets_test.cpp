// support/working_sets: how many copies a working set gets, the round robin, and the check that
// copies written by one deterministic unit agree (on the default OpenCL device: PoCL's CPU in CI).
#include "working_sets.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "buffers.hpp"
#include "device_session_test.hpp"

namespace {

TEST(WorkingSetCopies, OneWhileCacheSizedThenWhatTheBudgetHolds) {
  EXPECT_EQ(gb::working_set_copies(0), 1u);
  EXPECT_EQ(gb::working_set_copies(24u << 20), 1u);   // 1024^2 2-D FFT: in L2, hot
  EXPECT_EQ(gb::working_set_copies(gb::kOneCopyBytes), 1u);
  EXPECT_EQ(gb::working_set_copies(96u << 20), gb::kMaxCopies);  // 2048^2: 2 GiB holds 21
  EXPECT_EQ(gb::working_set_copies(384u << 20), 5u);              // 4096^2: 2 GiB / 384 MiB
  EXPECT_EQ(gb::working_set_copies(gb::kRotationBytes), 2u);      // never fewer than two
  EXPECT_EQ(gb::working_set_copies(4 * gb::kRotationBytes), 2u);
}

TEST(Rotation, RoundRobinAndCopiesUsed) {
  gb::Rotation r(3);
  EXPECT_EQ(r.used(), 0u);
  std::vector<size_t> order;
  for (int i = 0; i < 7; ++i) order.push_back(r.next());
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(r.used(), 3u);
  gb::Rotation two(3);
  two.next();
  two.next();
  EXPECT_EQ(two.used(), 2u);  // the third copy never ran: not compared
  EXPECT_EQ(gb::Rotation(0).copies(), 1u);
}

using CopiesOnDevice = DeviceSessionTest;

TEST_F(CopiesOnDevice, EqualCopiesPassAndOneDifferentWordOrPoisonFails) {
  std::vector<float> data(4096);
  for (size_t i = 0; i < data.size(); ++i) data[i] = 0.25f * static_cast<float>(i) - 7.0f;
  const size_t bytes = data.size() * sizeof(float);
  std::vector<cl::Buffer> copies{gb::upload(data), gb::upload(data), gb::upload(data)};
  EXPECT_TRUE(gb::check_copies_identical(copies, bytes, "out").passed());
  EXPECT_TRUE(gb::check_copies_identical({copies[0]}, bytes, "out").passed());

  auto changed = data;
  changed[4095] = std::nextafter(changed[4095], 1e9f);  // the last word, one ulp
  copies[2] = gb::upload(changed);
  const gb::Check one_ulp = gb::check_copies_identical(copies, bytes, "out");
  EXPECT_FALSE(one_ulp.passed());
  EXPECT_NE(one_ulp.what.find("copy 2"), std::string::npos) << one_ulp.what;

  copies[2] = gb::upload(data);
  gb::poison(copies[1], bytes);  // a copy no unit wrote
  EXPECT_FALSE(gb::check_copies_identical(copies, bytes, "out").passed());
  EXPECT_THROW(gb::check_copies_identical(copies, bytes - 2, "out"), std::invalid_argument);
}

}  // namespace
