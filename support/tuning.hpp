// Measured tuning choices as data: a case family's table (bench/tuning/<family>.hpp) lists each
// parameter's value per device class, with what it beat and when; this looks a value up.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gb {

struct DeviceInfo;

namespace tuning {

// One row of a family's table. `device` is the class the value is for: "nvidia-sm90" (vendor and
// compute capability), "nvidia" or "generic" (every device without an entry of its own); or one
// model of a class, "nvidia-sm90/H200" (the class, a slash, a part of the device's name), where two
// GPUs of one compute capability measured different choices.
template <typename Param>
struct Entry {
  Param parameter;
  long value;
  std::string_view device;
  std::string_view measured_on;  // the GPU the figures come from ("" where nothing was compared)
  std::string_view beat;         // what the value beat, by how much
  std::string_view date;         // when (YYYY-MM-DD)
};

// The class of a device: "nvidia-sm<major><minor>" where NVIDIA reports a compute capability,
// else "generic".
std::string device_class(const DeviceInfo& info);
// What a lookup is given: the class, a slash and the device's name ("nvidia-sm90/NVIDIA H200").
std::string device_key(const DeviceInfo& info);
// The session's device's key.
std::string device_key();

namespace detail {
// NVIDIA's compute capability in a class name ("nvidia-sm90" -> 90), or -1.
constexpr long nvidia_sm(std::string_view device) {
  constexpr std::string_view prefix = "nvidia-sm";
  if (device.substr(0, prefix.size()) != prefix || device.size() == prefix.size()) return -1;
  long cc = 0;
  for (char c : device.substr(prefix.size())) {
    if (c < '0' || c > '9') return -1;
    cc = cc * 10 + (c - '0');
  }
  return cc;
}
}  // namespace detail

// The value of `parameter` on a device (a class, or a key: the class, a slash and the device's
// name): the entry of a model of the class whose name part the device's name contains; the class's
// own entry; for NVIDIA, else the entry of the highest compute capability below it (what a GPU
// inherits from its predecessors), else the "nvidia" one; else the generic one. A parameter
// without a generic entry is an error (at compile time where the lookup is constant).
template <typename Param, size_t N>
constexpr long lookup(const Entry<Param> (&table)[N], Param parameter, std::string_view key) {
  const size_t slash = key.find('/');
  const std::string_view device = key.substr(0, slash);
  if (slash != std::string_view::npos) {
    const std::string_view name = key.substr(slash + 1);
    for (const auto& e : table) {
      const size_t model = e.device.find('/');
      if (e.parameter == parameter && model != std::string_view::npos && e.device.substr(0, model) == device &&
          model + 1 < e.device.size() && name.find(e.device.substr(model + 1)) != std::string_view::npos)
        return e.value;
    }
  }
  const long cc = detail::nvidia_sm(device);
  const Entry<Param>* best = nullptr;
  long best_cc = -1;
  for (const auto& e : table) {
    if (e.parameter != parameter) continue;
    if (e.device == device) return e.value;
    const long ecc = detail::nvidia_sm(e.device);
    if (cc >= 0 && ecc >= 0 && ecc <= cc && ecc > best_cc) best = &e, best_cc = ecc;
  }
  if (best) return best->value;
  for (const auto& e : table)
    if (e.parameter == parameter && cc >= 0 && e.device == "nvidia") return e.value;
  for (const auto& e : table)
    if (e.parameter == parameter && e.device == "generic") return e.value;
  throw std::out_of_range("tuning: a parameter without a generic value");
}

// The value of `parameter` on the session's device.
template <typename Param, size_t N>
long tuned(const Entry<Param> (&table)[N], Param parameter) {
  return lookup(table, parameter, device_key());
}

// Whether each of the `count` parameters (an enum 0 .. count-1) has exactly one generic entry and
// no class has two entries for one parameter: a table's static_assert.
template <typename Param, size_t N>
constexpr bool complete(const Entry<Param> (&table)[N], size_t count) {
  for (size_t p = 0; p < count; ++p) {
    int generic = 0;
    for (size_t i = 0; i < N; ++i) {
      if (static_cast<size_t>(table[i].parameter) != p) continue;
      generic += table[i].device == "generic";
      for (size_t j = i + 1; j < N; ++j)
        if (table[j].parameter == table[i].parameter && table[j].device == table[i].device) return false;
    }
    if (generic != 1) return false;
  }
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(table[i].parameter) >= count) return false;
  return true;
}

}  // namespace tuning
}  // namespace gb
