# L0 memory hierarchy, on-chip memories, atomics, enqueue overhead, transfers, compile time and
# interference: every benchmark at --size=1 on the default device, verified.
add_case_test(L0.MemoryHierarchy.pointer_chase "^L0/MemoryHierarchy/pointer_chase/")
add_case_test(L0.MemoryHierarchy.read "^L0/MemoryHierarchy/read/")
add_case_test(L0.LocalMemory "^L0/LocalMemory/")
add_case_test(L0.ConstantMemory "^L0/ConstantMemory/")
add_case_test(L0.ImageRead "^L0/ImageRead/")
add_case_test(L0.Atomics "^L0/Atomics/")
add_case_test(L0.Enqueue "^L0/Enqueue/")
add_case_test(L0.Transfer "^L0/Transfer/")
add_case_test(L0.CompileTime "^L0/CompileTime/")
add_case_test(L0.Interference "^L0/Interference/")
