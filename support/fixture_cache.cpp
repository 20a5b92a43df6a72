// The fixture and problem slots.
#include "fixture_cache.hpp"

namespace gb {
namespace detail {
Slot& slot(SlotKind kind) {
  static Slot slots[2];
  return slots[static_cast<int>(kind)];
}
}  // namespace detail

void drop_cached_fixtures() {
  for (auto kind : {detail::SlotKind::fixture, detail::SlotKind::problem}) {
    detail::slot(kind).value.reset();
    detail::slot(kind).key.clear();
  }
}
}  // namespace gb
