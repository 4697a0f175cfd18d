// Lanes variants and their launchers, rewritten with the real CUDA headers,
// compile with nvcc without a warning: the GPU tests' kernels (sums of ints,
// shorts and floats, min, max, flags, xor, and) under --reassociate, and the
// rewrite tests' min, flag, count and mask kernels (`k != end`, #pragma unroll,
// a loop under a braceless if).
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet --reassociate %S/../gpu/lanes_kernels.cu -o %t.kernels.cu -- -I%S/../gpu
// RUN: grep -c '[_]irregfix_lanes<<<' %t.kernels.cu | grep -x 6
// RUN: %nvcc -Werror all-warnings -I %S/../gpu -c %t.kernels.cu -o %t.kernels.o
// RUN: %irregfix_real --quiet %S/../rewrite/lanes-min-and-flags.cu -o %t.flags.cu
// RUN: grep -c '[_]irregfix_lanes<<<' %t.flags.cu | grep -x 3
// RUN: %nvcc -Werror all-warnings -c %t.flags.cu -o %t.flags.o
