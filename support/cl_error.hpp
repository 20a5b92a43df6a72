// OpenCL errors: every CL_* code by name, and an exception carrying file:line, the call and the code.
// Cases wrap calls in GB_CL(...); a failed build throws with its log.
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

}  // namespace gb

#define GB_CL(call) ::gb::check_cl((call), __FILE__, __LINE__, #call)
