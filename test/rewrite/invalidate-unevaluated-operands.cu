// Operands the compiler never evaluates (noexcept(...), decltype, sizeof,
// typeid of a value that is not polymorphic) and the constant expressions it
// evaluates itself run no call: none is bracketed there. A bracket inside
// noexcept(...) would also change its answer (irregfix::UnseenCall may
// throw), and a type whose move was noexcept would be copied by the
// containers holding it. The calls that do run are bracketed as always.
// RUN: %irregfix %s -- %stub 2>/dev/null | sed 's,// CHECK.*,,' | FileCheck %s

#include <cuda_runtime.h>
#include <cstddef>
#include <typeinfo>
#include <utility>

__global__ void scale(int n, const int *idx, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = 2 * x[idx[t]];
}

// Their bodies are in another file: the tool cannot see what they write.
struct Handle {
  Handle();
  Handle(Handle &&) noexcept;
};
Handle make_handle();
float measure(const float *v);

template <class T> struct Holder {
  T *value = nullptr;
  Holder() = default;
  Holder(Holder &&o) noexcept(noexcept(T(std::declval<T &&>()))) : value(o.value) {}
};

template <std::size_t N> struct Width { static constexpr std::size_t value = N; };

void run(int n, const int *idx, float *x, float *y) {
  constexpr bool nothrow = noexcept(make_handle());
  using Result = decltype(measure(x));
  const std::size_t bytes = sizeof(measure(x));
  const char *name = typeid(measure(x)).name();
  static_assert(Width<sizeof(measure(nullptr))>::value == 4, "a float");
  scale<<<n / 128 + 1, 128>>>(n, idx, x, y);
  Holder<Handle> a;
  Holder<Handle> b(std::move(a));
  Result r = measure(x) + nothrow + bytes + name[0];
  (void)r;
}
// CHECK-LABEL: template <class T> struct Holder {
// CHECK-NEXT:   T *value = nullptr;
// CHECK-NEXT:   Holder() = default;
// CHECK-NEXT:   Holder(Holder &&o) noexcept(noexcept(T(std::declval<T &&>()))) : value(o.value) {}
// CHECK-NEXT: };
// CHECK-LABEL: void run(int n, const int *idx, float *x, float *y) {
// CHECK-NEXT:   irregfix::EntryGuard __irregfix_entry("invalidate-unevaluated-operands.cu:36");
// CHECK-NEXT:   constexpr bool nothrow = noexcept(make_handle());
// CHECK-NEXT:   using Result = decltype(measure(x));
// CHECK-NEXT:   const std::size_t bytes = sizeof(measure(x));
// CHECK-NEXT:   const char *name = typeid(measure(x)).name();
// CHECK-NEXT:   static_assert(Width<sizeof(measure(nullptr))>::value == 4, "a float");
// CHECK-NEXT:   irregfix_invalidate(y);
// CHECK-NEXT:   scale_irregfix_launch(n / 128 + 1, 128, 0, 0, n, idx, x, y);
// CHECK-NEXT:   Holder<Handle> a;
// CHECK-NEXT:   Holder<Handle> b(std::move(a));
// CHECK-NEXT:   Result r = (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-unevaluated-operands.cu:45"), measure(x)) + nothrow + bytes + name[0];
// CHECK-NEXT:   (void)r;
// CHECK-NEXT: }
