// support/fixture_cache: slots reused for the same type and key, freed before the next value;
// host slots per type, failures remembered, every slot freed by drop_cached_fixtures.
#include "fixture_cache.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <memory>
#include <stdexcept>

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

TEST(FixtureCache, TheSameKeyOfAnotherTypeIsAMissNotACast) {
  gb::cached_fixture<int>("k", [] { return std::make_unique<int>(7); });
  auto& d = gb::cached_fixture<double>("k", [] { return std::make_unique<double>(2.5); });
  EXPECT_EQ(d, 2.5);
  EXPECT_EQ(gb::cached_fixture<int>("k", [] { return std::make_unique<int>(8); }), 8);  // rebuilt
  gb::drop_cached_fixtures();
}

TEST(FixtureCache, HostDataHasASlotPerTypeAndIsFreedByDrop) {
  int built = 0;
  auto a = gb::cached_host<Counted>("a", [&] { ++built; return std::make_shared<Counted>(1); });
  auto f = gb::cached_host<const float>("a", [] { return std::make_shared<const float>(1.5f); });
  EXPECT_EQ(gb::cached_host<Counted>("a", [&] { ++built; return std::make_shared<Counted>(2); }), a);
  EXPECT_EQ(*f, 1.5f);
  EXPECT_EQ(built, 1);
  std::weak_ptr<Counted> watch = a;
  a.reset();
  EXPECT_FALSE(watch.expired());  // the cache holds it
  gb::drop_cached_fixtures();
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(Counted::alive, 0);
}

TEST(FixtureCache, AFailedHostSetUpFailsTheNextRequestForTheSameKeyAtOnce) {
  int tries = 0;
  auto failing = [&]() -> std::shared_ptr<Counted> {
    ++tries;
    throw std::runtime_error("no photo");
  };
  EXPECT_THROW(gb::cached_host<Counted>("bad", failing), std::runtime_error);
  try {
    gb::cached_host<Counted>("bad", failing);
    FAIL() << "expected the remembered failure";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no photo");
  }
  EXPECT_EQ(tries, 1);
  EXPECT_EQ(gb::cached_host<Counted>("good", [] { return std::make_shared<Counted>(3); })->id, 3);
  gb::drop_cached_fixtures();
}

TEST(FixtureCache, HostDataWithoutASizeKeepsOnlyTheLastValueOfItsType) {
  gb::cached_host<Counted>("x", [] { return std::make_shared<Counted>(1); });
  gb::cached_host<Counted>("y", [] { return std::make_shared<Counted>(2); });
  EXPECT_EQ(Counted::alive, 1);
  int built = 0;
  gb::cached_host<Counted>("x", [&] { ++built; return std::make_shared<Counted>(3); });
  EXPECT_EQ(built, 1);
  gb::drop_cached_fixtures();
  EXPECT_EQ(Counted::alive, 0);
}

TEST(FixtureCache, SizedHostDataIsKeptSideBySideWithinAQuarterOfHostMemory) {
  int built = 0;
  auto make = [&](int id) { return [&built, id] { ++built; return std::make_shared<Counted>(id); }; };
  const size_t small = 1 << 20;
  for (int round = 0; round < 3; ++round)  // a family's variants sweeping the same problems in turn
    for (int problem = 0; problem < 4; ++problem)
      EXPECT_EQ(gb::cached_host<Counted>("p" + std::to_string(problem), make(problem), small)->id, problem);
  EXPECT_EQ(built, 4);
  EXPECT_EQ(Counted::alive, 4);
  // A value as large as the whole budget frees every other one, the least recently used first.
  const size_t huge = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(sysconf(_SC_PAGE_SIZE)) / 4;
  gb::cached_host<Counted>("big", make(9), huge);
  EXPECT_EQ(Counted::alive, 1);
  EXPECT_EQ(gb::cached_host<Counted>("big", make(10), huge)->id, 9);
  // A new family frees every slot but the sized host values; the session's end frees those too.
  auto kept = gb::cached_host<Counted>("big", make(10), huge);
  gb::cached_host<const float>("unsized", [] { return std::make_shared<const float>(2.5f); });
  std::weak_ptr<const float> unsized = gb::cached_host<const float>("unsized", [] { return std::make_shared<const float>(0); });
  kept.reset();
  gb::drop_cached_fixtures(true);
  EXPECT_TRUE(unsized.expired());
  EXPECT_EQ(gb::cached_host<Counted>("big", make(12), huge)->id, 9);
  // An unsized value of the type frees the kept ones too.
  gb::cached_host<Counted>("p0", make(0), small);
  gb::cached_host<Counted>("plain", make(11));
  EXPECT_EQ(Counted::alive, 1);
  gb::drop_cached_fixtures();
  EXPECT_EQ(Counted::alive, 0);
}

}  // namespace
