// The cache's slots.
#include "fixture_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <list>
#include <map>

namespace gb {
namespace detail {
Slot& slot(SlotKind kind) {
  static Slot slots[2];
  return slots[static_cast<int>(kind)];
}

// Per type, its values, the most recently used first, each with the size its caller gave.
struct KeptSlot {
  Slot slot;
  size_t bytes = 0;
};
static std::map<std::type_index, std::list<KeptSlot>>& host_slots() {
  static std::map<std::type_index, std::list<KeptSlot>> all;
  return all;
}

static size_t kept_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) / 4 : 0;
}

Slot& host_slot(const std::type_info& type, const std::string& key, size_t kept_bytes) {
  auto& kept = host_slots()[std::type_index(type)];
  auto found = std::find_if(kept.begin(), kept.end(), [&](const KeptSlot& k) { return k.slot.holds(type, key); });
  if (found != kept.end()) {
    kept.splice(kept.begin(), kept, found);
    kept.front().bytes = kept_bytes;
  } else {
    kept.push_front(KeptSlot{Slot{}, kept_bytes});
  }
  // Free from the least recently used end (never the slot asked for) down to the budget: every
  // other value without a size, the rest once they pass a quarter of the host's memory.
  size_t total = kept.front().bytes;
  const size_t budget = kept_bytes == 0 ? 0 : kept_budget();
  for (auto it = std::next(kept.begin()); it != kept.end();) {
    total += it->bytes;
    if (it->bytes == 0 || total > budget) {
      total -= it->bytes;
      it->slot.clear();
      it = kept.erase(it);
    } else {
      ++it;
    }
  }
  return kept.front().slot;
}
}  // namespace detail

void drop_cached_fixtures(bool keep_sized_host_values) {
  // Fixtures first: they may hold references to problems and host data.
  detail::slot(detail::SlotKind::fixture).clear();
  detail::slot(detail::SlotKind::problem).clear();
  for (auto& [type, kept] : detail::host_slots())
    kept.remove_if([&](detail::KeptSlot& k) {
      if (keep_sized_host_values && k.bytes > 0) return false;
      k.slot.clear();
      return true;
    });
}
}  // namespace gb
