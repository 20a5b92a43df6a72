# L0 compute cases (compute peak, roofline, math functions) at --size=1, the clock-ramp
# diagnostic's command line. (Reference unit tests: tests/reference, found by name.)
# CI keeps vector widths 1, 4 and 16: the same kernels at widths 2 and 8.
add_case_test(L0.Compute "^L0/Compute/" CI_EXCLUDE "/width:(2|8)/")
# CI keeps intensities 0.25, 4 and 64 (no loop, unrolled whole, a loop of 2+ trips): the same
# kernel at the others.
add_case_test(L0.Roofline "^L0/Roofline/" CI_EXCLUDE "/intensity:(0\\.5|1|2|8|16|32|128|256)/")
# CI leaves out the repeated inputs: the same kernel as the varied inputs, which walk the domain.
add_case_test(L0.Math "^L0/Math/" CI_EXCLUDE "/inputs:unvaried/")
add_case_test(L0.WorkGroup "^L0/WorkGroup/")
add_case_test(L0.Divergence "^L0/Divergence/")
add_case_test(L0.Stencil3D "^L0/Stencil3D/")

add_test(NAME cli.clock_ramp COMMAND ${PYTHON3} -m unittest -v test_clock_ramp
         WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/cli)
set_tests_properties(cli.clock_ramp PROPERTIES ENVIRONMENT "GPU_BENCH=$<TARGET_FILE:gpu_bench>;CI=$ENV{CI}"
                                               TIMEOUT 300)
