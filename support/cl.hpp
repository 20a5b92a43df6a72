// The one place that includes the OpenCL C++ bindings, with the versions Debian 12's header accepts.
// (opencl-clhpp-headers 2023.02.06 fails with a minimum of 120 and target 300; 110 works.)
#pragma once
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#endif
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/opencl.hpp>
