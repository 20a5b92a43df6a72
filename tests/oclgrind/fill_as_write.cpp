// Test-only shim of the Oclgrind tests (run_oclgrind.py preloads it ahead of Oclgrind's runtime):
// clEnqueueFillBuffer becomes a blocking clEnqueueWriteBuffer of the same bytes over the whole buffer.
//
// Why: Oclgrind 21.10's --uninitialized check tracks host writes, but a filled range stays
// "uninitialized" for good (later kernel stores to it do not clear it), and a host write covering
// part of a buffer leaves the rest of it uninitialized. gpu-bench poisons its outputs and zeroes
// its counters with fills, so without this every read of them would be reported. The bytes the
// program sees are the same; the command's event is a write's. A partial fill reads the buffer,
// patches the range and writes it all back (the bytes outside the range are kept, and count as
// initialised from then on).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

using FillFn = cl_int (*)(cl_command_queue, cl_mem, const void*, size_t, size_t, size_t, cl_uint, const cl_event*,
                          cl_event*);

extern "C" CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue queue, cl_mem buffer,
                                                               const void* pattern, size_t pattern_size, size_t offset,
                                                               size_t size, cl_uint num_events,
                                                               const cl_event* wait_list, cl_event* event) {
  size_t whole = 0;
  if (!pattern || pattern_size == 0 || size % pattern_size != 0 || offset % pattern_size != 0 ||
      clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof whole, &whole, nullptr) != CL_SUCCESS || offset + size > whole) {
    // A bad call: the runtime's own fill reports it as it would.
    FillFn real = reinterpret_cast<FillFn>(dlsym(RTLD_NEXT, "clEnqueueFillBuffer"));
    return real ? real(queue, buffer, pattern, pattern_size, offset, size, num_events, wait_list, event)
                : CL_INVALID_VALUE;
  }
  unsigned char* host = static_cast<unsigned char*>(std::malloc(whole ? whole : 1));
  if (!host) return CL_OUT_OF_HOST_MEMORY;
  cl_int err = CL_SUCCESS;
  if (offset != 0 || size != whole) {
    err = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, whole, host, num_events, wait_list, nullptr);
    num_events = 0;
    wait_list = nullptr;
  }
  if (err == CL_SUCCESS) {
    for (size_t i = 0; i < size; i += pattern_size) std::memcpy(host + offset + i, pattern, pattern_size);
    err = clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, whole, host, num_events, wait_list, event);
  }
  std::free(host);
  return err;
}
