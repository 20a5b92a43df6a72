# Install rules and the Debian package (docs/INSTALL.md): gpu_bench in bin/ (kernels embedded), the
# result tools in share/gpu-bench/tools/ with bin/gpu-bench-<tool> links, the docs in share/doc/gpu-bench/.
include(GNUInstallDirs)

install(TARGETS gpu_bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The result tools, the one list: commands (each gets a link in bin/) and the modules they import.
# An entry missing from tools/ is skipped; tests/install checks every local import is installed.
set(GPU_BENCH_TOOLS gate report export summarize peers history repro-study rename-history)
set(GPU_BENCH_TOOL_MODULES gbresults.py gbhistory)
set(GPU_BENCH_TOOLS_DIR ${CMAKE_INSTALL_DATADIR}/gpu-bench/tools)
# A tool added to tools/ (a merge) reconfigures, so that the list above is read again.
file(GLOB _gpu_bench_tool_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tools/*)
file(RELATIVE_PATH _gpu_bench_tools_from_bin /${CMAKE_INSTALL_BINDIR} /${GPU_BENCH_TOOLS_DIR})
foreach(entry IN LISTS GPU_BENCH_TOOLS GPU_BENCH_TOOL_MODULES)
  set(path ${CMAKE_SOURCE_DIR}/tools/${entry})
  if(IS_DIRECTORY ${path})
    install(DIRECTORY ${path} DESTINATION ${GPU_BENCH_TOOLS_DIR} USE_SOURCE_PERMISSIONS
            PATTERN __pycache__ EXCLUDE)
  elseif(EXISTS ${path} AND entry IN_LIST GPU_BENCH_TOOL_MODULES)
    install(FILES ${path} DESTINATION ${GPU_BENCH_TOOLS_DIR})
  elseif(EXISTS ${path})
    install(PROGRAMS ${path} DESTINATION ${GPU_BENCH_TOOLS_DIR})
    # Relative links: the tools find gbresults.py beside their real path (os.path.realpath).
    set(link ${CMAKE_BINARY_DIR}/install-links/gpu-bench-${entry})
    file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/install-links)
    file(CREATE_LINK ${_gpu_bench_tools_from_bin}/${entry} ${link} SYMBOLIC)
    install(FILES ${link} DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# The reproducibility studies of each device kind, where tools/gate looks for them beside the tools.
file(GLOB _gpu_bench_studies CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/results/*/spread.json)
foreach(study IN LISTS _gpu_bench_studies)
  get_filename_component(study_dir ${study} DIRECTORY)
  get_filename_component(study_dir ${study_dir} NAME)
  install(FILES ${study} DESTINATION ${CMAKE_INSTALL_DATADIR}/gpu-bench/docs/results/${study_dir})
endforeach()

# README.md at the top and docs/ beside it, so that the README's links (docs/X.md) still resolve.
set(GPU_BENCH_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/gpu-bench)
file(GLOB _gpu_bench_top_docs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/CHANGELOG.md)
file(GLOB _gpu_bench_docs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${_gpu_bench_top_docs} DESTINATION ${GPU_BENCH_DOC_DIR})
install(FILES ${_gpu_bench_docs} DESTINATION ${GPU_BENCH_DOC_DIR}/docs)

# cpack -G DEB (in the build directory): gpu-bench_<project version>_<arch>.deb. Depends: the
# shared libraries gpu_bench links (dpkg-shlibdeps: libbenchmark, the OpenCL ICD loader
# ocl-icd-libopencl1, libpng, tinyxml2, the vendor libraries found) and python3 for the tools.
# An OpenCL driver (an ICD) is needed to run anything: recommended, as is what the tools import.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpu-bench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL GPU microbenchmarks on Google Benchmark")
set(CPACK_PACKAGE_CONTACT "gpu-bench maintainers <gpu-bench@localhost>" CACHE STRING
    "Maintainer field of the Debian package")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd, python3-numpy, python3-scipy, python3-matplotlib")
# The photographs and the Haar cascade (GPU_BENCH_IMAGE_DIR, or these packages' paths).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "opencv-data, opencv-doc, python3-skimage, clinfo")
set(CPACK_STRIP_FILES ON)
include(CPack)
