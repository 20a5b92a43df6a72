// support/fixture_cache: one slot per kind, reused for the same key, freed before the next key.
#include "fixture_cache.hpp"

#include <gtest/gtest.h>

namespace {

struct Counted {
  static int alive;
  int id;
  explicit Counted(int i) : id(i) { ++alive; }
  ~Counted() { --alive; }
};
int Counted::alive = 0;

TEST(FixtureCache, ReusesSameKeyAndFreesOldBeforeBuildingNew) {
  int built = 0;
  auto make = [&](int id) {
    return [&built, id] {
      ++built;
      EXPECT_EQ(Counted::alive, 0) << "the old value must be freed before the new one is made";
      return std::make_unique<Counted>(id);
    };
  };
  EXPECT_EQ(gb::cached_fixture<Counted>("a", make(1)).id, 1);
  EXPECT_EQ(gb::cached_fixture<Counted>("a", make(2)).id, 1);
  EXPECT_EQ(built, 1);
  EXPECT_EQ(gb::cached_fixture<Counted>("b", make(3)).id, 3);
  EXPECT_EQ(built, 2);
  gb::drop_cached_fixtures();
  EXPECT_EQ(Counted::alive, 0);
}

TEST(FixtureCache, ProblemSlotIsIndependentOfFixtureSlot) {
  auto& problem = gb::cached_problem<int>("p", [] { return std::make_unique<int>(7); });
  gb::cached_fixture<int>("f1", [] { return std::make_unique<int>(1); });
  gb::cached_fixture<int>("f2", [] { return std::make_unique<int>(2); });
  EXPECT_EQ(&gb::cached_problem<int>("p", [] { return std::make_unique<int>(8); }), &problem);
  EXPECT_EQ(problem, 7);
  gb::drop_cached_fixtures();
}

}  // namespace
