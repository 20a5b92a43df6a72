// Builds an OpenCL C file on the first GPU device with the given options and writes the program
// binary (NVIDIA: PTX) to stdout. Usage: dump FILE.cl "OPTIONS"
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  std::ifstream f(argv[1]); std::stringstream ss; ss << f.rdbuf(); std::string src = ss.str();
  cl_uint np = 0; clGetPlatformIDs(0, nullptr, &np); std::vector<cl_platform_id> ps(np); clGetPlatformIDs(np, ps.data(), nullptr);
  cl_device_id dev = nullptr;
  for (auto p : ps) { cl_uint nd = 0; if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, &nd) == CL_SUCCESS && nd) break; dev = nullptr; }
  if (!dev) { fprintf(stderr, "no GPU\n"); return 1; }
  cl_int err; cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  const char* s = src.c_str(); cl_program prog = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
  err = clBuildProgram(prog, 1, &dev, argc > 2 ? argv[2] : "", nullptr, nullptr);
  size_t logn = 0; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &logn);
  std::string log(logn, 0); clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, logn, log.data(), nullptr);
  fprintf(stderr, "build %d\n%s\n", err, log.c_str()); if (err) return 1;
  size_t n = 0; clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, nullptr);
  std::vector<unsigned char> bin(n); unsigned char* b = bin.data(); clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof b, &b, nullptr);
  fwrite(bin.data(), 1, n, stdout); return 0;
}
