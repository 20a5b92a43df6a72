// HAVE_SUBGROUPS where the device has sub-groups (cl_khr_subgroups, Intel's, or OpenCL C 3.0's
// optional feature), with the extension enabled where it is one.
#if defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#if defined(cl_khr_subgroups) || defined(cl_intel_subgroups) || defined(__opencl_c_subgroups)
#define HAVE_SUBGROUPS 1
#endif
