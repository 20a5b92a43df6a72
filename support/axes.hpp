// A case's axes, each declared once: the part of the benchmark name it makes and its values with
// their labels; and the set-up cache's keys, derived from the running benchmark's name.
#pragma once
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gb {

// const gb::Axis<Op> kOp{"op", {{Op::sum, "sum"}, {Op::min, "min"}, {Op::max, "max"}}};
// registration: for (Op op : kOp.all()) ... gb::bench_name("L1/Reduction", {kVariant.part(v), kOp.part(op), ...})
template <class T>
struct Axis {
  const char* name;                               // "op" makes ".../op:sum/..."; "" is the variant
  std::vector<std::pair<T, const char*>> values;  // in registration order, each with its label

  const char* label(T value) const {
    for (const auto& [v, label] : values)
      if (v == value) return label;
    throw std::logic_error(std::string("axis '") + name + "': a value without a label");
  }
  // The part of a name, for gb::bench_name: {"op", "sum"}.
  std::pair<std::string, std::string> part(T value) const { return {name, label(value)}; }
  std::vector<T> all() const {
    std::vector<T> out;
    for (const auto& value : values) out.push_back(value.first);
    return out;
  }
};

// Keys of gb::cached_problem, cached_fixture and cached_host, derived from the name of the
// benchmark whose body is running (never written by hand): what one benchmark alone uses is keyed
// by its name, what several share by the name without the axes they differ in. Outside a
// benchmark's body they throw.
//   name_key():                          "L1/Reduction/local/op:sum/type:float/size:3"
//   name_key_without({"", "op"}):        "L1/Reduction/type:float/size:3" (every variant and op)
//   name_key_only({"type"}):             "L1/Reduction/type:float" (the family and these axes)
std::string name_key();
std::string name_key_without(std::initializer_list<std::string_view> axes);
std::string name_key_only(std::initializer_list<std::string_view> axes);

// The same on any name ("" names the variant).
std::string name_without(const std::string& name, std::initializer_list<std::string_view> axes);
std::string name_only(const std::string& name, std::initializer_list<std::string_view> axes);

}  // namespace gb
