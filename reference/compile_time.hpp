// Host reference for L0/CompileTime: what the short and long kernels of
// kernels/l0/compile_time.cl write for work items 0..items-1.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ref {

std::vector<uint32_t> compile_time_short(size_t items, uint32_t salt);
// functions: 10 * TENS generated functions of 64 steps each.
std::vector<uint32_t> compile_time_long(size_t items, uint32_t salt, unsigned functions);

}  // namespace ref
