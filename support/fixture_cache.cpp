// The cache's slots.
#include "fixture_cache.hpp"

#include <map>

namespace gb {
namespace detail {
Slot& slot(SlotKind kind) {
  static Slot slots[2];
  return slots[static_cast<int>(kind)];
}

static std::map<std::type_index, Slot>& host_slots() {
  static std::map<std::type_index, Slot> all;
  return all;
}

Slot& host_slot(const std::type_info& type) { return host_slots()[std::type_index(type)]; }
}  // namespace detail

void drop_cached_fixtures() {
  // Fixtures first: they may hold references to problems and host data.
  detail::slot(detail::SlotKind::fixture).clear();
  detail::slot(detail::SlotKind::problem).clear();
  for (auto& [type, s] : detail::host_slots()) s.clear();
}
}  // namespace gb
