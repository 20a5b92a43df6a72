# L2 cases at --size=1 on the default device, every stage verified.
add_case_test(L2.LatticeBoltzmann "^L2/LatticeBoltzmann/")
add_case_test(L2.StableFluids "^L2/StableFluids/")
# Face detection needs the cascade of Debian's opencv-data (CI installs it; elsewhere it is optional).
if(EXISTS "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml" OR "$ENV{CI}" STREQUAL "true")
  add_case_test(L2.FaceDetection "^L2/FaceDetection/")
else()
  message(STATUS "case.L2.FaceDetection left out: no Haar cascade (Debian package opencv-data)")
endif()

# Unit tests of the L2 host references with logic of their own: the cascade parser, scan plan,
# host detector, stage comparison and grouping.
add_executable(l2_reference_tests ${CMAKE_CURRENT_SOURCE_DIR}/reference/haar_cascade_test.cpp
                                  ${CMAKE_CURRENT_SOURCE_DIR}/reference/lattice_boltzmann_test.cpp
                                  ${CMAKE_CURRENT_SOURCE_DIR}/reference/stable_fluids_test.cpp)
target_link_libraries(l2_reference_tests PRIVATE gpu_bench_reference GTest::gtest_main)
target_compile_options(l2_reference_tests PRIVATE -Wall -Wextra)
gtest_discover_tests(l2_reference_tests PROPERTIES ENVIRONMENT "CI=$ENV{CI}")
