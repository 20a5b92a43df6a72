// support/cl_error: GB_SET_ARGS sets a kernel's arguments in order and a failed one names the
// kernel, the argument and the code; GB_CL names the call.
#include "cl_error.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "buffers.hpp"
#include "device_session_test.hpp"
#include "session.hpp"

namespace {

const char* kSource = "__kernel void scale_add(__global int* x, const int a, const int b) {"
                      "  x[get_global_id(0)] = a * x[get_global_id(0)] + b; }";

TEST(ClError, NamesTheCallAndTheCode) {
  try {
    GB_CL(CL_INVALID_VALUE);
    FAIL() << "no exception";
  } catch (const gb::ClError& e) {
    EXPECT_EQ(e.code(), CL_INVALID_VALUE);
    EXPECT_NE(std::string(e.what()).find("CL_INVALID_VALUE (-30)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cl_error_test.cpp"), std::string::npos) << e.what();
  }
}

class SetArgs : public DeviceSessionTest {
 protected:
  void SetUp() override {
    DeviceSessionTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    program_ = gb::session().build(kSource, "", "cl_error_test");
    kernel_ = cl::Kernel(program_, "scale_add");
  }
  cl::Program program_;
  cl::Kernel kernel_;
};

TEST_F(SetArgs, SetsTheArgumentsInOrder) {
  const std::vector<cl_int> in{1, 2, 3, 4};
  cl::Buffer x = gb::upload(in);
  GB_SET_ARGS(kernel_, x, cl_int(3), cl_int(-5));  // 3 x - 5: the order of a and b shows
  GB_CL(gb::session().queue().enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(in.size())));
  EXPECT_EQ(gb::download<cl_int>(x, in.size()), (std::vector<cl_int>{-2, 1, 4, 7}));
}

TEST_F(SetArgs, AFailedArgumentNamesTheKernelAndTheArgument) {
  cl::Buffer x = gb::upload(std::vector<cl_int>{1});
  try {
    GB_SET_ARGS(kernel_, x, cl_int(3), cl_double(1.0));  // argument 2 is 4 bytes, not 8
    FAIL() << "no exception";
  } catch (const gb::ClError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), CL_INVALID_ARG_SIZE) << what;
    EXPECT_NE(what.find("clSetKernelArg(scale_add, argument 2)"), std::string::npos) << what;
    EXPECT_NE(what.find("cl_error_test.cpp"), std::string::npos) << what;
  }
}

}  // namespace
