// A host loop that fills its input with a random-number generator before the
// first launch, as simulation programs do. A generator whose body is in this
// file and touches only the host state it is given is no unseen code: its calls
// are left bare. A generator of another file drops the cached copies around
// its calls; in a loop that launches nothing (neither itself nor through
// functions of this file without an entry guard) nothing between two calls
// reads a copy, so they are dropped once, around the outermost such loop,
// instead of twice at every call. A loop that launches keeps the brackets at
// its calls, and so does a loop that calls a function of this file reaching a
// launch (inside one bracket its entry guard would drop the copies at every
// call). A helper of this file that calls one of another file carries the
// bracket inside its own body, and its callers call it bare.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

struct Keyed {
  unsigned key;
  int index;
  bool operator<(const Keyed &o) const { return key < o.key; }
};

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
void sort_keys(Keyed *k, int n);        // in another file

unsigned mixed_next(unsigned *state) { return lcg_next(state) ^ twister_next(state); }

__global__ void pick(const float *pool, const int *perm, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pool[perm[t]];
}

void run(float *pool, int *perm, float *out, float *h_pool, int *h_perm, Keyed *keys, int n, int rounds) {
  unsigned state[4] = {1, 2, 3, 4};
  for (int i = 0; i < n; i++)
    h_pool[i] = lcg_next(state) * (1.0f / 16777216.0f) + halton(i, 2);
  for (int i = 0; i < n; i++)
    h_pool[i] += twister_next(state) * 1e-9f;
  for (int i = 0; i < n; i++)
    h_pool[i] -= mixed_next(state) * 1e-9f;
  for (int r = 0; r < rounds; r++) {
    for (int j = 0; j < n; j++) {
      keys[j].key = twister_next(state);
      keys[j].index = j;
    }
    sort_keys(keys, n);
    for (int j = 0; j < n; j++)
      h_perm[r * n + j] = keys[j].index;
  }
  cudaMemcpy(pool, h_pool, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(perm, h_perm, n * sizeof(int), cudaMemcpyHostToDevice);
  for (int r = 0; r < rounds; r++) {
    pick<<<(n + 127) / 128, 128>>>(pool, perm + r * n, out, n);
    h_pool[0] = twister_next(state);
  }
}

// A constexpr function may declare no guard: its loop keeps the brackets at its calls.
constexpr unsigned skip(unsigned *state, int n) {
  unsigned last = 0;
  for (int i = 0; i < n; i++)
    last = twister_next(state);
  return last;
}

void pick_all(float *pool, int *perm, float *out, int n) { pick<<<(n + 127) / 128, 128>>>(pool, perm, out, n); }

void repeat(float *pool, int *perm, float *out, int n, int times) {
  unsigned state[4] = {5, 6, 7, 8};
  for (int k = 0; k < times; k++) {
    pick_all(pool, perm, out, n);
    state[0] = twister_next(state);
  }
}

// The generators of this file are rewritten only where they call out.
// CHECK-LABEL: unsigned lcg_next(unsigned *state) {
// CHECK-NEXT:   state[0] = state[0] * 1664525u + 1013904223u;
// CHECK-LABEL: unsigned mixed_next(unsigned *state) { return lcg_next(state) ^ (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:42"), twister_next(state)); }
// CHECK-LABEL: void run(float *pool, int *perm, float *out, float *h_pool, int *h_perm, Keyed *keys, int n, int rounds) {
// CHECK-NEXT:   irregfix::EntryGuard __irregfix_entry("invalidate-host-loop-callees.cu:50");
// CHECK-NEXT:   unsigned state[4] = {1, 2, 3, 4};
// CHECK-NEXT:   for (int i = 0; i < n; i++)
// CHECK-NEXT:     h_pool[i] = lcg_next(state) * (1.0f / 16777216.0f) + halton(i, 2);
// CHECK-NEXT:   { irregfix::UnseenCall __irregfix_unseen{{[0-9]+}}(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:55"); for (int i = 0; i < n; i++)
// CHECK-NEXT:     h_pool[i] += twister_next(state) * 1e-9f; }
// CHECK-NEXT:   for (int i = 0; i < n; i++)
// CHECK-NEXT:     h_pool[i] -= mixed_next(state) * 1e-9f;
// The outer loop launches nothing either: one bracket for both loops and the sort.
// CHECK-NEXT:   { irregfix::UnseenCall __irregfix_unseen{{[0-9]+}}(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:60"); for (int r = 0; r < rounds; r++) {
// CHECK-NEXT:     for (int j = 0; j < n; j++) {
// CHECK-NEXT:       keys[j].key = twister_next(state);
// CHECK-NEXT:       keys[j].index = j;
// CHECK-NEXT:     }
// CHECK-NEXT:     sort_keys(keys, n);
// CHECK-NEXT:     for (int j = 0; j < n; j++)
// CHECK-NEXT:       h_perm[r * n + j] = keys[j].index;
// CHECK-NEXT:   } }
// CHECK-NEXT:   irregfix_invalidate(pool);
// CHECK-NEXT:   cudaMemcpy(pool, h_pool, n * sizeof(float), cudaMemcpyHostToDevice);
// CHECK-NEXT:   irregfix_invalidate(perm);
// CHECK-NEXT:   cudaMemcpy(perm, h_perm, n * sizeof(int), cudaMemcpyHostToDevice);
// A loop that launches: the call is bracketed where it is.
// CHECK-NEXT:   for (int r = 0; r < rounds; r++) {
// CHECK-NEXT:     irregfix_invalidate(out);
// CHECK-NEXT:     pick_irregfix_launch(
// CHECK-NEXT:     h_pool[0] = (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:71"), twister_next(state));
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-LABEL: constexpr unsigned skip(unsigned *state, int n) {
// CHECK:         last = (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:{{[0-9]+}}"), twister_next(state));
// A loop calling a function that launches: the call is bracketed where it is.
// CHECK-LABEL: void pick_all(float *pool, int *perm, float *out, int n) {
// CHECK-SAME: irregfix::EntryGuard
// CHECK-LABEL: void repeat(float *pool, int *perm, float *out, int n, int times) {
// CHECK-NEXT:   irregfix::EntryGuard __irregfix_entry(
// CHECK-NEXT:   unsigned state[4] = {5, 6, 7, 8};
// CHECK-NEXT:   for (int k = 0; k < times; k++) {
// CHECK-NEXT:     pick_all(pool, perm, out, n);
// CHECK-NEXT:     state[0] = (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-loop-callees.cu:89"), twister_next(state));
// CHECK-NEXT:   }

// Only the calls into another file drop the copies, once around a loop where they can.
// WHY-NOT: lcg_next', whose
// WHY-NOT: halton
// WHY: invalidate-host-loop-callees.cu:42:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file{{$}}
// WHY: invalidate-host-loop-callees.cu:55:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file (once around the loop at line 54, which reaches no rewritten launch)
// WHY: invalidate-host-loop-callees.cu:60:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file (once around the loop at line 58, which reaches no rewritten launch)
// WHY: invalidate-host-loop-callees.cu:63:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'sort_keys', whose body is not in this file (once around the loop at line 58, which reaches no rewritten launch)
// WHY: invalidate-host-loop-callees.cu:71:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file{{$}}
// WHY: invalidate-host-loop-callees.cu:79:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file{{$}}
// WHY: invalidate-host-loop-callees.cu:89:{{[0-9]+}}: remark: cached copies are dropped here: it calls 'twister_next', whose body is not in this file{{$}}
// WHY-NOT: mixed_next
