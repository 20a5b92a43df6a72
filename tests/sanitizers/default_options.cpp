// The sanitizer options of every executable in the -DGPU_BENCH_SANITIZERS=ON build (the top-level
// CMakeLists.txt adds this file to each one), so that ctest, the gpu_bench processes the tests
// start and a run by hand all get them. The runtimes read these first; ASAN_OPTIONS, LSAN_OPTIONS
// and UBSAN_OPTIONS in the environment add to them or override them.
// GPU_BENCH_SANITIZER_DIR is this folder (tests/sanitizers), which holds the suppression files.
#ifndef GPU_BENCH_SANITIZER_DIR
#error "GPU_BENCH_SANITIZER_DIR: compile this file only through -DGPU_BENCH_SANITIZERS=ON"
#endif

#define GPU_BENCH_SANITIZER_HOOK extern "C" __attribute__((visibility("default"), used, no_sanitize_address, no_sanitize_undefined))

// A report exits with 23 (LeakSanitizer's own code), which gpu_bench never uses: not 1, a failed
// verification, so that a sanitizer finding cannot pass a test that expects 1.
//
// AddressSanitizer: stop at the first error with a stack trace; also check the order of static
// initialisers (the case registry is built from them) and uses of stack memory after return.
// intercept_tls_get_addr=0: GCC 12's runtime takes a dynamic TLS block that happens to start 16
// bytes into a page for a glibc 2.19 header and records a range read from the two words before
// it; LeakSanitizer's tracer then crashes at exit scanning it ("DTLS 7 at 0x12eb-0x8000023ed",
// "Tracer caught signal 11": case.L1.GEMM.clblast and cli.test_working_sets every time;
// github.com/google/sanitizers/issues/1322). Static TLS and thread stacks are still scanned.
GPU_BENCH_SANITIZER_HOOK const char* __asan_default_options() {
  return "halt_on_error=1:print_stacktrace=1:detect_leaks=1:exitcode=23:intercept_tls_get_addr=0"
         ":check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1"
         ":print_suppressions=0"
         ":suppressions=" GPU_BENCH_SANITIZER_DIR "/asan.supp";
}

// LeakSanitizer (run by ASan at exit): leaks allocated by PoCL, LLVM, clFFT are suppressed there.
GPU_BENCH_SANITIZER_HOOK const char* __lsan_default_options() {
  return "print_suppressions=0:suppressions=" GPU_BENCH_SANITIZER_DIR "/lsan.supp";
}

// UndefinedBehaviorSanitizer: the build has -fno-sanitize-recover=undefined, so the first report
// aborts; print its stack.
GPU_BENCH_SANITIZER_HOOK const char* __ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1:exitcode=23"
         ":suppressions=" GPU_BENCH_SANITIZER_DIR "/ubsan.supp";
}
