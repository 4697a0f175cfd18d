// A host loop that fills its input with a random-number generator before the
// first launch, as simulation programs do: a generator whose body is in this
// file and touches only the host state it is given is no unseen code, so its
// calls are left bare (no copy can go stale through it); a generator of
// another file is bracketed at each call; a helper of this file that calls
// one of another file carries the bracket inside its own body, and its
// callers call it bare.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

unsigned lcg_next(unsigned *state) {
  state[0] = state[0] * 1664525u + 1013904223u;
  return state[0] >> 8;
}

float halton(unsigned i, unsigned base) {
  float f = 1, r = 0;
  while (i > 0) {
    f /= base;
    r += f * (i % base);
    i /= base;
  }
  return r;
}

unsigned twister_next(unsigned *state); // in another file

unsigned mixed_next(unsigned *state) { return lcg_next(state) ^ twister_next(state); }

__global__ void pick(const float *pool, const int *perm, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pool[perm[t]];
}

void run(float *pool, int *perm, float *out, float *h_pool, int n) {
  unsigned state[4] = {1, 2, 3, 4};
  for (int i = 0; i < n; i++)
    h_pool[i] = lcg_next(state) * (1.0f / 16777216.0f) + halton(i, 2);
  for (int i = 0; i < n; i++)
    h_pool[i] += twister_next(state) * 1e-9f;
  for (int i = 0; i < n; i++)
    h_pool[i] -= mixed_next(state) * 1e-9f;
  cudaMemcpy(pool, h_pool, n * sizeof(float), cudaMemcpyHostToDevice);
  pick<<<(n + 127) / 128, 128>>>(pool, perm, out, n);
}

// The generators of this file are rewritten only where they call out.
// CHECK-LABEL: unsigned lcg_next(unsigned *state) {
// CHECK-NEXT:   state[0] = state[0] * 1664525u + 1013904223u;
// CHECK-LABEL: unsigned mixed_next(unsigned *state) { return lcg_next(state) ^ (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:30"), twister_next(state)); }
// CHECK-LABEL: void run(float *pool, int *perm, float *out, float *h_pool, int n) {
// CHECK-NEXT:   irregfix::EntryGuard __irregfix_entry("invalidate-host-loop-callees.cu:38");
// CHECK-NEXT:   unsigned state[4] = {1, 2, 3, 4};
// CHECK-NEXT:   for (int i = 0; i < n; i++)
// CHECK-NEXT:     h_pool[i] = lcg_next(state) * (1.0f / 16777216.0f) + halton(i, 2);
// CHECK-NEXT:   for (int i = 0; i < n; i++)
// CHECK-NEXT:     h_pool[i] += (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:43"), twister_next(state)) * 1e-9f;
// CHECK-NEXT:   for (int i = 0; i < n; i++)
// CHECK-NEXT:     h_pool[i] -= mixed_next(state) * 1e-9f;
// CHECK-NEXT:   irregfix_invalidate(pool);
// CHECK-NEXT:   cudaMemcpy(pool, h_pool, n * sizeof(float), cudaMemcpyHostToDevice);
// CHECK-NEXT:   irregfix_invalidate(out);
// CHECK-NEXT:   pick_irregfix_launch(

// Only the calls into another file are reported as dropping the copies.
// WHY-NOT: lcg_next', whose
// WHY-NOT: halton
// WHY: invalidate-host-loop-callees.cu:30:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file
// WHY: invalidate-host-loop-callees.cu:43:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file
// WHY-NOT: mixed_next
