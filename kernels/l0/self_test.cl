// A test hook, not a benchmark (bench/l0/self_test.cpp): a kernel that never finishes, for the
// test of --kernel_timeout. It spins on a flag that nothing ever sets; the flag is volatile, so
// the compiler may not assume the loop ends.
__kernel void self_test_spin(__global volatile const int* flag, __global int* out) {
  while (flag[0] == 0) {
  }
  out[get_global_id(0)] = 1;
}
