// The one fixture slot.
#include "fixture_cache.hpp"

namespace gb {
namespace detail {
Slot& fixture_slot() {
  static Slot slot;
  return slot;
}
}  // namespace detail

void drop_cached_fixture() {
  detail::fixture_slot().value.reset();
  detail::fixture_slot().key.clear();
}
}  // namespace gb
