// support/axes: an axis's labels and name parts, and cache keys made from names.
#include "axes.hpp"

#include <gtest/gtest.h>

#include "registry.hpp"

namespace {

enum class Op { sum, min, max };
const gb::Axis<Op> kOp{"op", {{Op::sum, "sum"}, {Op::min, "min"}, {Op::max, "max"}}};
const gb::Axis<bool> kVariant{"", {{false, "local"}, {true, "subgroup"}}};

TEST(Axis, GivesLabelsNamePartsAndValuesInOrder) {
  EXPECT_STREQ(kOp.label(Op::min), "min");
  EXPECT_EQ(kOp.part(Op::max), (std::pair<std::string, std::string>{"op", "max"}));
  EXPECT_EQ(kOp.all(), (std::vector<Op>{Op::sum, Op::min, Op::max}));
  EXPECT_EQ(gb::bench_name("L1/Reduction", {kVariant.part(true), kOp.part(Op::sum), {"size", "1"}}),
            "L1/Reduction/subgroup/op:sum/size:1");
  const gb::Axis<Op> partial{"op", {{Op::sum, "sum"}}};
  EXPECT_THROW(partial.label(Op::max), std::logic_error);
}

TEST(NameKeys, DropOrKeepAxesByName) {
  const std::string name = "L1/Reduction/local/type:float/op:sum/wg:256/size:3";
  EXPECT_EQ(gb::name_without(name, {"", "op"}), "L1/Reduction/type:float/wg:256/size:3");
  EXPECT_EQ(gb::name_without(name, {"wg", "absent"}), "L1/Reduction/local/type:float/op:sum/size:3");
  EXPECT_EQ(gb::name_without(name, {}), name);
  EXPECT_EQ(gb::name_only(name, {"type", "size"}), "L1/Reduction/type:float/size:3");
  EXPECT_EQ(gb::name_only(name, {""}), "L1/Reduction/local");
  // A variant that is part of the family's base ("L0/ConstantMemory/read") is still the variant.
  EXPECT_EQ(gb::name_without("L0/ConstantMemory/read/access:uniform/size:1", {"access"}),
            "L0/ConstantMemory/read/size:1");
}

TEST(NameKeys, NeedARunningBenchmark) {
  ASSERT_EQ(gb::current_benchmark_name(), "");
  EXPECT_THROW(gb::name_key(), std::logic_error);
  EXPECT_THROW(gb::name_key_without({""}), std::logic_error);
}

}  // namespace
