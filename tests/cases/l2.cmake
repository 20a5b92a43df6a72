# L2 cases at --size=1 on the default device, every stage verified.
add_case_test(L2.LatticeBoltzmann "^L2/LatticeBoltzmann/")
add_case_test(L2.StableFluids "^L2/StableFluids/")
# Face detection needs the cascade of Debian's opencv-data (CI installs it; elsewhere it is optional).
if(EXISTS "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml" OR "$ENV{CI}" STREQUAL "true")
  add_case_test(L2.FaceDetection "^L2/FaceDetection/")
else()
  message(STATUS "case.L2.FaceDetection left out: no Haar cascade (Debian package opencv-data)")
endif()

