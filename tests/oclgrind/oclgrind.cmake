# Oclgrind tests (issue 14): one test per kernel file, gpu_bench at --size=1 under Oclgrind's
# --data-races --uninitialized --check-api, judged by run_oclgrind.py against allowed.txt.
# kernel_files.json says, per kernel file, which benchmarks reach its kernels.
#
# Labels: every test here has `oclgrind` (ctest -L oclgrind runs them all, over an hour on
# 2 cores). Each file outside the CI subset also has a quick test, oclgrind.quick.<dir>.<file> (label oclgrind_quick,
# run by CI): Oclgrind's --quick (two work groups per launch) with --data-races and bounds, which
# finds a group's races and overruns in seconds where the full run takes minutes. The ones outside the CI subset also have `oclgrind_full`, which tools/run-tests leaves
# out unless told otherwise (see README, "Tests"); `ci: true` in kernel_files.json puts a file in
# the subset.
# The fill-as-write shim (fill_as_write.cpp says why) is preloaded ahead of Oclgrind's runtime.
add_library(oclgrind_fill_as_write MODULE ${CMAKE_CURRENT_LIST_DIR}/fill_as_write.cpp)
target_link_libraries(oclgrind_fill_as_write PRIVATE OpenCL::OpenCL ${CMAKE_DL_LIBS})
set(OCLGRIND_RUN ${PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/run_oclgrind.py)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/kernel_files.json)

# Every kernel file has a test here and every kernel is run or listed as unreached (no Oclgrind
# needed: it reads the files), so a new kernel file is noticed by the default run.
add_test(NAME oclgrind.coverage COMMAND ${OCLGRIND_RUN} --coverage)
set_tests_properties(oclgrind.coverage PROPERTIES LABELS oclgrind TIMEOUT 60)

file(READ ${CMAKE_CURRENT_LIST_DIR}/kernel_files.json OCLGRIND_TABLE)
string(JSON OCLGRIND_FILES LENGTH "${OCLGRIND_TABLE}")
math(EXPR OCLGRIND_LAST "${OCLGRIND_FILES} - 1")
foreach(i RANGE ${OCLGRIND_LAST})
  string(JSON kernel_file MEMBER "${OCLGRIND_TABLE}" ${i})
  # A file with no kernel to run (every one unreached, with the reason) has no test.
  string(JSON timeout ERROR_VARIABLE no_run GET "${OCLGRIND_TABLE}" "${kernel_file}" timeout)
  if(no_run)
    continue()
  endif()
  string(JSON in_ci ERROR_VARIABLE no_ci GET "${OCLGRIND_TABLE}" "${kernel_file}" ci)
  string(REGEX REPLACE "\\.cl$" "" test_name "${kernel_file}")
  string(REPLACE "/" "." test_name "oclgrind.${test_name}")
  add_test(NAME ${test_name} COMMAND ${OCLGRIND_RUN} --preload $<TARGET_FILE:oclgrind_fill_as_write>
                                     $<TARGET_FILE:gpu_bench> ${kernel_file})
  # The quick test, for the files whose full test CI does not run.
  if(NOT in_ci STREQUAL "ON")
    string(REPLACE "oclgrind." "oclgrind.quick." quick_name "${test_name}")
    add_test(NAME ${quick_name} COMMAND ${OCLGRIND_RUN} --quick --preload $<TARGET_FILE:oclgrind_fill_as_write>
                                        $<TARGET_FILE:gpu_bench> ${kernel_file})
    set_tests_properties(${quick_name} PROPERTIES LABELS "oclgrind;oclgrind_quick" TIMEOUT 300
                                                  SKIP_RETURN_CODE 77 COST 20)
  endif()
  set(labels oclgrind)
  if(NOT in_ci STREQUAL "ON")
    list(APPEND labels oclgrind_full)
  endif()
  # COST: ctest -j starts the long ones first.
  set_tests_properties(${test_name} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout} SKIP_RETURN_CODE 77
                                               COST ${timeout})
endforeach()
