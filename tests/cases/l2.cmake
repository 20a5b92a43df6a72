# L2 cases at --size=1 on the default device, every stage verified.
add_case_test(L2.LatticeBoltzmann "^L2/LatticeBoltzmann/")
add_case_test(L2.StableFluids "^L2/StableFluids/")
