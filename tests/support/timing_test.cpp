// support/timing and support/measure on the default OpenCL device (PoCL's CPU in CI): a gated
// batch runs every unit once, with or without its lead; an exception while enqueueing leaves no
// queue blocked; a kernel's own work-group limit is a skip (gb::Unsupported), not a failure, and
// its compile-time size may be trusted above it (require_compiled_work_group); work
// beside a measurement (while_running) runs through calibration and sampling and is stopped on
// every way out; closing the session releases the cached fixtures and the batch lead first, and a
// new session makes its own lead.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "buffers.hpp"
#include "cl_error.hpp"
#include "device_session_test.hpp"
#include "devices.hpp"
#include "fixture_cache.hpp"
#include "measure.hpp"
#include "session.hpp"
#include "timing.hpp"

namespace {

const char* kSource = "__kernel void add_one(__global int* x) { x[get_global_id(0)] += 1; }";
constexpr size_t kItems = 1024;

class OnDevice : public DeviceSessionTest {
 protected:
  void SetUp() override {
    DeviceSessionTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    program_ = gb::session().build(kSource, "", "timing_test");
    kernel_ = cl::Kernel(program_, "add_one");
    counts_ = gb::upload(std::vector<cl_int>(kItems, 0));
    GB_SET_ARGS(kernel_, counts_);
  }
  gb::Unit add_one() {
    return [this](gb::Batch& b) { b.launch(kernel_, cl::NDRange(kItems)); };
  }
  std::vector<cl_int> counts() { return gb::download<cl_int>(counts_, kItems); }

  cl::Program program_;
  cl::Kernel kernel_;
  cl::Buffer counts_;
};

TEST_F(OnDevice, GatedBatchRunsEveryUnitOnce) {
  const gb::BatchTime plain = gb::run_batch(add_one(), 8);
  const gb::BatchTime led = gb::run_batch(add_one(), 8, 2e-3);  // with a lead of about 2 ms
  for (cl_int c : counts()) ASSERT_EQ(c, 16);
  EXPECT_GT(plain.device_seconds, 0);
  EXPECT_GT(led.device_seconds, 0);
  EXPECT_GE(led.enqueue_seconds, 0);
  // The host brackets the device work (the lead included).
  EXPECT_GE(led.host_seconds, 0.9 * led.device_seconds);
}

TEST_F(OnDevice, AnExceptionWhileEnqueueingLeavesNoQueueBlocked) {
  int seen = 0;
  const gb::Unit failing = [&](gb::Batch& b) {
    if (seen++ == 3) throw std::runtime_error("enqueue failed");
    b.launch(kernel_, cl::NDRange(kItems));
  };
  EXPECT_THROW(gb::run_batch(failing, 8), std::runtime_error);
  GB_CL(gb::session().queue().finish());  // would wait forever behind a closed gate
  gb::run_batch(add_one(), 1);
  for (cl_int c : counts()) ASSERT_EQ(c, 3 + 1);
}

TEST_F(OnDevice, KernelWorkGroupLimitIsASkip) {
  const size_t limit = gb::session().kernel_work_group_size(kernel_);
  EXPECT_NO_THROW(gb::require_work_group(kernel_, 1));
  EXPECT_NO_THROW(gb::require_work_group(kernel_, limit));
  EXPECT_THROW(gb::require_work_group(kernel_, limit + 1), gb::Unsupported);
}

// A kernel's compile-time size is trusted (whatever CL_KERNEL_WORK_GROUP_SIZE says, within the
// device's limit); any other size is held to the reported limit, and a kernel without one is
// held to it too.
TEST_F(OnDevice, CompiledWorkGroupIsTrusted) {
  const char* source = "__kernel __attribute__((reqd_work_group_size(16, 2, 1))) void fixed(__global int* x) {"
                       "  x[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1; }";
  const cl::Program program = gb::session().build(source, "", "timing_test_compiled");
  const cl::Kernel fixed(program, "fixed");
  const size_t limit = gb::session().kernel_work_group_size(fixed);
  EXPECT_NO_THROW(gb::require_compiled_work_group(fixed, 32));
  EXPECT_THROW(gb::require_compiled_work_group(fixed, limit + 1), gb::Unsupported);
  const size_t plain_limit = gb::session().kernel_work_group_size(kernel_);
  EXPECT_NO_THROW(gb::require_compiled_work_group(kernel_, plain_limit));
  EXPECT_THROW(gb::require_compiled_work_group(kernel_, plain_limit + 1), gb::Unsupported);
}

// OpenCL objects cached for the whole process go before their context (under Oclgrind, released
// after it at exit, they corrupted the heap), and the next session does not reuse them.
TEST(SessionClose, ReleasesCachedObjectsFirstAndTheNextSessionMakesItsOwn) {
  auto entries = gb::enumerate_devices();
  if (entries.empty()) {
    if (const char* ci = std::getenv("CI"); ci && std::string(ci) == "true") FAIL() << "no OpenCL device in CI";
    GTEST_SKIP() << "no OpenCL device";
  }
  struct Fixture {
    explicit Fixture(bool* f) : buffer(gb::make_buffer(64)), freed(f) {}
    ~Fixture() { *freed = true; }
    cl::Buffer buffer;
    bool* freed;
  };
  for (int round = 0; round < 2; ++round) {
    gb::open_session(entries[0].device, entries[0].info, 1);
    bool fixture_freed = false, closed = false;
    {
      cl::Program program = gb::session().build(kSource, "", "timing_test");
      cl::Kernel kernel(program, "add_one");
      cl::Buffer counts = gb::upload(std::vector<cl_int>(kItems, 0));
      GB_SET_ARGS(kernel, counts);
      gb::run_batch([&](gb::Batch& b) { b.launch(kernel, cl::NDRange(kItems)); }, 2, 1e-3);  // makes the lead
      for (cl_int c : gb::download<cl_int>(counts, kItems)) ASSERT_EQ(c, 2);
    }
    gb::cached_fixture<Fixture>("session_close", [&] { return std::make_unique<Fixture>(&fixture_freed); });
    gb::session().on_close([&] {
      closed = true;
      EXPECT_TRUE(fixture_freed) << "cached fixtures go before the session's own releases";
    });
    gb::close_session();
    EXPECT_TRUE(fixture_freed);
    EXPECT_TRUE(closed);
  }
}

// A timer that records whether the work beside it was running at each call.
struct Beside {
  int starts = 0, stops = 0, calls = 0, calls_alone = 0;
  bool running = false;
  gb::Measurement measurement(int throw_at = -1) {
    return gb::Measurement::timed([this, throw_at](int units) {
             if (calls++ == throw_at) throw std::runtime_error("timer failed");
             calls_alone += !running;
             return gb::Sample{1e-3 * units, 0};
           })
        .while_running([this] { ++starts, running = true; }, [this] { ++stops, running = false; });
  }
};

TEST_F(OnDevice, WorkBesideRunsThroughCalibrationAndSampling) {
  Beside beside;
  EXPECT_NEAR(gb::median_unit_seconds(beside.measurement()), 1e-3, 1e-12);
  EXPECT_EQ(beside.starts, 1);
  EXPECT_EQ(beside.stops, 1);
  EXPECT_GE(beside.calls, 10);
  EXPECT_EQ(beside.calls_alone, 0);
}

TEST_F(OnDevice, WorkBesideIsStoppedWhenTheMeasurementThrows) {
  Beside beside;
  EXPECT_THROW(gb::median_unit_seconds(beside.measurement(5)), std::runtime_error);
  EXPECT_EQ(beside.starts, 1);
  EXPECT_EQ(beside.stops, 1);
  EXPECT_FALSE(beside.running);
}

}  // namespace
