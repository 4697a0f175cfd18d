// irregfix compatibility header, force-included into every file the tool parses
// (never into what it writes), after irregfix_host_minmax.h: what nvcc
// predefines and declares that Clang's CUDA mode does not, so that a program
// written for nvcc reads the same to the tool. The toolkit's version macros
// (__CUDACC_VER_MAJOR__, _MINOR__, _BUILD__) come on the command line, from the
// toolkit the tool parses with (Frontend/CudaArguments.cpp).
#pragma once
// A system header, as the toolkit's declarations it stands for: the analyses
// read its functions as library calls (a builtin writes what its non-const
// pointer arguments give it), and its warnings are the toolkit's.
#pragma clang system_header
#if defined(__CUDA__)

// __NVCC__: programs test it to tell nvcc from a host compiler (`#ifndef
// __NVCC__` then `#define __device__`). The toolkit's own headers test it to
// tell nvcc from Clang, and must keep seeing Clang: CCCL's compiler detection
// and nv/target are read first, before it is defined (their guards keep them
// read once).
#if __has_include(<cuda/std/__cccl/compiler.h>) && __cplusplus >= 201103L
#include <cuda/std/__cccl/compiler.h>
#endif
#if __has_include(<nv/target>) && __cplusplus >= 201103L
#include <nv/target>
#endif
#ifndef __NVCC__
#define __NVCC__ 1
#endif
// nvcc gives __CUDACC__ the value 1 (`#if __CUDACC__`); Clang defines it empty.
#undef __CUDACC__
#define __CUDACC__ 1

// The memory orders and scopes of nvcc's __nv_atomic_* builtins, as the
// toolkit's crt/device_functions.h (which Clang does not read) declares them.
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

// nvcc's __nv_atomic_* builtins, declared for the device so that kernels using
// them type-check; the tool parses host code only and never calls them.
#if defined(__cplusplus)
#define IRREGFIX_NV_ATOMIC_FETCH(Op)                                                                              \
  template <class T, class U>                                                                                    \
  __attribute__((device)) T __nv_atomic_fetch_##Op(T *, U, int, int = __NV_THREAD_SCOPE_SYSTEM);               \
  template <class T, class U>                                                                                    \
  __attribute__((device)) void __nv_atomic_##Op(T *, U, int, int = __NV_THREAD_SCOPE_SYSTEM);
IRREGFIX_NV_ATOMIC_FETCH(add)
IRREGFIX_NV_ATOMIC_FETCH(sub)
IRREGFIX_NV_ATOMIC_FETCH(min)
IRREGFIX_NV_ATOMIC_FETCH(max)
IRREGFIX_NV_ATOMIC_FETCH(and)
IRREGFIX_NV_ATOMIC_FETCH(or)
IRREGFIX_NV_ATOMIC_FETCH(xor)
#undef IRREGFIX_NV_ATOMIC_FETCH
template <class T>
__attribute__((device)) T __nv_atomic_load_n(const T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__attribute__((device)) void __nv_atomic_load(const T *, T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U>
__attribute__((device)) void __nv_atomic_store_n(T *, U, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__attribute__((device)) void __nv_atomic_store(T *, T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U>
__attribute__((device)) T __nv_atomic_exchange_n(T *, U, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__attribute__((device)) void __nv_atomic_exchange(T *, T *, T *, int, int = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class U>
__attribute__((device)) bool __nv_atomic_compare_exchange_n(T *, T *, U, bool, int, int,
                                                            int = __NV_THREAD_SCOPE_SYSTEM);
template <class T>
__attribute__((device)) bool __nv_atomic_compare_exchange(T *, T *, T *, bool, int, int,
                                                          int = __NV_THREAD_SCOPE_SYSTEM);
__attribute__((device)) void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM);

// The cache-hinted loads and stores of nvcc's sm_32_intrinsics.h on plain
// types (Clang's headers have __ldg alone; cuda_fp16.h and cuda_bf16.h declare
// their own types' overloads, which an exact match prefers).
#define IRREGFIX_CACHE_LOAD(Name) template <class T> __attribute__((device)) T Name(const T *);
#define IRREGFIX_CACHE_STORE(Name) template <class T, class U> __attribute__((device)) void Name(T *, U);
IRREGFIX_CACHE_LOAD(__ldcg)
IRREGFIX_CACHE_LOAD(__ldca)
IRREGFIX_CACHE_LOAD(__ldcs)
IRREGFIX_CACHE_LOAD(__ldlu)
IRREGFIX_CACHE_LOAD(__ldcv)
IRREGFIX_CACHE_STORE(__stwb)
IRREGFIX_CACHE_STORE(__stcg)
IRREGFIX_CACHE_STORE(__stcs)
IRREGFIX_CACHE_STORE(__stwt)
#undef IRREGFIX_CACHE_LOAD
#undef IRREGFIX_CACHE_STORE

// nvcc's math headers give host code isfinite, isnan, isinf and signbit in the
// global namespace, as C's <math.h> does in C++ (`using std::isfinite;`); a
// file that includes only <cmath> still finds them under nvcc. Clang's CUDA
// headers declare them there for the device only.
#include <math.h>
#endif

#endif
