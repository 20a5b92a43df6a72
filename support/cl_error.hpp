// OpenCL errors: every CL_* code by name, and an exception carrying file:line, the call and the code.
// Cases wrap calls in GB_CL(...) and set a kernel's arguments with GB_SET_ARGS(kernel, ...); a
// failed build throws with its log.
#pragma once
#include <stdexcept>
#include <string>

#include "cl.hpp"

namespace gb {

// "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR" for codes the headers do not name.
const char* cl_error_name(cl_int code);

class ClError : public std::runtime_error {
 public:
  ClError(const char* file, int line, const std::string& call, cl_int code);
  cl_int code() const { return code_; }

 private:
  cl_int code_;
};

// Throws ClError unless `code` is CL_SUCCESS.
inline void check_cl(cl_int code, const char* file, int line, const char* call) {
  if (code != CL_SUCCESS) throw ClError(file, line, call, code);
}

// Throws the ClError of a failed clSetKernelArg, naming the kernel and the argument.
[[noreturn]] void throw_set_arg_error(const char* file, int line, const cl::Kernel& kernel, cl_uint index,
                                      cl_int code);

// Sets `kernel`'s arguments `first`, `first` + 1, ... to `args`, in order; returns the index after
// the last (GB_SET_ARGS, GB_SET_ARGS_FROM).
template <typename... Args>
cl_uint set_args(const char* file, int line, cl::Kernel& kernel, cl_uint first, const Args&... args) {
  cl_uint index = first;
  auto set = [&](const auto& value) {
    const cl_int code = kernel.setArg(index, value);
    if (code != CL_SUCCESS) throw_set_arg_error(file, line, kernel, index, code);
    ++index;
  };
  (set(args), ...);
  return index;
}

}  // namespace gb

#define GB_CL(call) ::gb::check_cl((call), __FILE__, __LINE__, #call)
// GB_SET_ARGS(kernel, a, b, ...) sets arguments 0, 1, ...; GB_SET_ARGS_FROM(kernel, first, ...) from
// `first` on. Both return the index after the last.
#define GB_SET_ARGS(kernel, ...) ::gb::set_args(__FILE__, __LINE__, (kernel), 0, __VA_ARGS__)
#define GB_SET_ARGS_FROM(kernel, first, ...) ::gb::set_args(__FILE__, __LINE__, (kernel), (first), __VA_ARGS__)
