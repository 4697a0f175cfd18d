// irregfix compatibility header, force-included into every file the tool parses
// (never into what it writes). nvcc's crt/math_functions.hpp gives host code the
// overloads of min and max below (mixed signedness, float and double); Clang's
// CUDA headers declare them for the device only, so host code such as
// `min(unsigned, int)` that nvcc compiles would not parse. Declared here for
// the host, with nvcc's parameter and result types, so that the tool resolves
// such calls as nvcc does.
#pragma once
#if defined(__CUDA__) && !defined(__CUDA_ARCH__)

#define IRREGFIX_HOST_MINMAX(R, A, B)                                                                       \
  static inline __attribute__((host)) R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; }     \
  static inline __attribute__((host)) R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }
IRREGFIX_HOST_MINMAX(int, int, int)
IRREGFIX_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
IRREGFIX_HOST_MINMAX(unsigned int, int, unsigned int)
IRREGFIX_HOST_MINMAX(unsigned int, unsigned int, int)
IRREGFIX_HOST_MINMAX(long int, long int, long int)
IRREGFIX_HOST_MINMAX(unsigned long int, unsigned long int, unsigned long int)
IRREGFIX_HOST_MINMAX(unsigned long int, long int, unsigned long int)
IRREGFIX_HOST_MINMAX(unsigned long int, unsigned long int, long int)
IRREGFIX_HOST_MINMAX(long long int, long long int, long long int)
IRREGFIX_HOST_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
IRREGFIX_HOST_MINMAX(unsigned long long int, long long int, unsigned long long int)
IRREGFIX_HOST_MINMAX(unsigned long long int, unsigned long long int, long long int)
IRREGFIX_HOST_MINMAX(float, float, float)
IRREGFIX_HOST_MINMAX(double, double, double)
IRREGFIX_HOST_MINMAX(double, float, double)
IRREGFIX_HOST_MINMAX(double, double, float)
#undef IRREGFIX_HOST_MINMAX

#endif
