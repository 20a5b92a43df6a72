// OpenCL error names and the ClError exception.
#include "cl_error.hpp"

#include <sstream>

namespace gb {

const char* cl_error_name(cl_int code) {
  switch (code) {
#define GB_NAME(c) \
  case c:          \
    return #c;
    GB_NAME(CL_SUCCESS)
    GB_NAME(CL_DEVICE_NOT_FOUND)
    GB_NAME(CL_DEVICE_NOT_AVAILABLE)
    GB_NAME(CL_COMPILER_NOT_AVAILABLE)
    GB_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    GB_NAME(CL_OUT_OF_RESOURCES)
    GB_NAME(CL_OUT_OF_HOST_MEMORY)
    GB_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    GB_NAME(CL_MEM_COPY_OVERLAP)
    GB_NAME(CL_IMAGE_FORMAT_MISMATCH)
    GB_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    GB_NAME(CL_BUILD_PROGRAM_FAILURE)
    GB_NAME(CL_MAP_FAILURE)
    GB_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    GB_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    GB_NAME(CL_COMPILE_PROGRAM_FAILURE)
    GB_NAME(CL_LINKER_NOT_AVAILABLE)
    GB_NAME(CL_LINK_PROGRAM_FAILURE)
    GB_NAME(CL_DEVICE_PARTITION_FAILED)
    GB_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    GB_NAME(CL_INVALID_VALUE)
    GB_NAME(CL_INVALID_DEVICE_TYPE)
    GB_NAME(CL_INVALID_PLATFORM)
    GB_NAME(CL_INVALID_DEVICE)
    GB_NAME(CL_INVALID_CONTEXT)
    GB_NAME(CL_INVALID_QUEUE_PROPERTIES)
    GB_NAME(CL_INVALID_COMMAND_QUEUE)
    GB_NAME(CL_INVALID_HOST_PTR)
    GB_NAME(CL_INVALID_MEM_OBJECT)
    GB_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    GB_NAME(CL_INVALID_IMAGE_SIZE)
    GB_NAME(CL_INVALID_SAMPLER)
    GB_NAME(CL_INVALID_BINARY)
    GB_NAME(CL_INVALID_BUILD_OPTIONS)
    GB_NAME(CL_INVALID_PROGRAM)
    GB_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    GB_NAME(CL_INVALID_KERNEL_NAME)
    GB_NAME(CL_INVALID_KERNEL_DEFINITION)
    GB_NAME(CL_INVALID_KERNEL)
    GB_NAME(CL_INVALID_ARG_INDEX)
    GB_NAME(CL_INVALID_ARG_VALUE)
    GB_NAME(CL_INVALID_ARG_SIZE)
    GB_NAME(CL_INVALID_KERNEL_ARGS)
    GB_NAME(CL_INVALID_WORK_DIMENSION)
    GB_NAME(CL_INVALID_WORK_GROUP_SIZE)
    GB_NAME(CL_INVALID_WORK_ITEM_SIZE)
    GB_NAME(CL_INVALID_GLOBAL_OFFSET)
    GB_NAME(CL_INVALID_EVENT_WAIT_LIST)
    GB_NAME(CL_INVALID_EVENT)
    GB_NAME(CL_INVALID_OPERATION)
    GB_NAME(CL_INVALID_GL_OBJECT)
    GB_NAME(CL_INVALID_BUFFER_SIZE)
    GB_NAME(CL_INVALID_MIP_LEVEL)
    GB_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    GB_NAME(CL_INVALID_PROPERTY)
    GB_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    GB_NAME(CL_INVALID_COMPILER_OPTIONS)
    GB_NAME(CL_INVALID_LINKER_OPTIONS)
    GB_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
    GB_NAME(CL_INVALID_PIPE_SIZE)
    GB_NAME(CL_INVALID_DEVICE_QUEUE)
    GB_NAME(CL_INVALID_SPEC_ID)
    GB_NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef GB_NAME
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "CL_UNKNOWN_ERROR";
  }
}

static std::string describe(const char* file, int line, const std::string& call, cl_int code) {
  std::ostringstream s;
  s << file << ":" << line << ": " << call << " failed: " << cl_error_name(code) << " (" << code
    << ")";
  return s.str();
}

ClError::ClError(const char* file, int line, const std::string& call, cl_int code)
    : std::runtime_error(describe(file, line, call, code)), code_(code) {}

void throw_set_arg_error(const char* file, int line, const cl::Kernel& kernel, cl_uint index, cl_int code) {
  std::string name;
  if (kernel.getInfo(CL_KERNEL_FUNCTION_NAME, &name) != CL_SUCCESS) name = "?";
  name.erase(name.find_last_not_of('\0') + 1);  // some drivers count the terminating NUL
  throw ClError(file, line, "clSetKernelArg(" + name + ", argument " + std::to_string(index) + ")", code);
}

}  // namespace gb
