// Buffer creation and poisoning.
#include "buffers.hpp"

namespace gb {

cl::Buffer make_buffer(size_t bytes, cl_mem_flags flags) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(session().context(), flags, bytes, nullptr, &err);
  GB_CL(err);
  return b;
}

void poison(const cl::Buffer& b, size_t bytes) {
  const cl_uchar pattern = 0xFF;
  auto& q = session().queue();
  GB_CL(q.enqueueFillBuffer(b, pattern, 0, bytes));
  GB_CL(q.finish());
}

}  // namespace gb
