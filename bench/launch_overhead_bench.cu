// Host cost of a cached launch: what a generated launcher adds on top of the
// kernel launch itself when its copy is cached and valid (the target:
// under 2 us); and of a launch whose launcher settled on the original (the
// target: within the noise of a plain <<<>>>). Host wall clock (steady_clock) around batches of launches of a
// small kernel, median of batches; the GPU drains between batches so the
// launch queue never fills and blocks the host.
//   irregfix_launch_overhead_bench [--launches N] [--batches B]
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "bench_support.cuh"
#include "row_sum_launch.cuh"

#include <chrono>
#include <cstring>
#include <string>

namespace {

const irregfix::SiteInfo kSite{"overhead:1", "row_sum", "range", irregfix::kSiteChunkable};
const irregfix::SiteInfo kFirstSite{"overhead:first", "row_sum", "range"};
const irregfix::SiteInfo kSecondSite{"overhead:second", "row_sum", "range"};

// Median over batches of the host time per call of f, in microseconds.
template <class F> double host_us(F f, int launches, int batches) {
  std::vector<double> t;
  for (int b = 0; b < batches + 1; ++b) {
    CK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i)
      f();
    auto t1 = std::chrono::steady_clock::now();
    if (b > 0) // the first batch warms up
      t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / launches);
  }
  CK(cudaDeviceSynchronize());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int launches = 500, batches = 21;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--launches"))
      launches = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batches"))
      batches = std::atoi(argv[i + 1]);
  }
  const long long n = 4096;
  std::vector<int> B(n + 1);
  for (long long t = 0; t <= n; ++t)
    B[t] = static_cast<int>(t * 8);
  std::vector<float> A(B[n], 1.0f);
  int *dB;
  float *dA, *dy;
  CK(cudaMalloc(&dB, B.size() * sizeof(int)));
  CK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMemcpy(dB, B.data(), B.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);

  // One-time cost: the program's first transformed launch loads the runtime's
  // kernels (CUDA loads modules lazily). A miss of another site right after
  // pays the same remap without the load.
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  row_sum::csr<<<blocks, 256>>>(n, dB, dA, dy); // this program's own module is loaded
  CK(cudaDeviceSynchronize());
  auto wall_ms = [&](const irregfix::SiteInfo &site) {
    auto t0 = std::chrono::steady_clock::now();
    row_sum::launch(site, n, dB, dA, dy, 0, true);
    CK(cudaDeviceSynchronize());
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  const double first_miss = wall_ms(kFirstSite), second_miss = wall_ms(kSecondSite);
  std::printf("first transformed launch (a miss, runtime kernels loaded): %.3f ms; a miss after it: %.3f ms\n",
              first_miss, second_miss);
  irregfix::testing::reset();

  const double plain = host_us([&] { row_sum::csr<<<blocks, 256>>>(n, dB, dA, dy); }, launches, batches);
  // Forced ELL: every launch transformed, a cache hit after the first.
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  row_sum::launch(kSite, n, dB, dA, dy, 0, true);
  irregfix::View v;
  const void *out[1];
  const void *const src[1] = {dA};
  const size_t size[1] = {sizeof(float)};
  if (!irregfix::prepare_range(kSite, dB, irregfix::index_kind(dB), n, 1, src, size, &v, out, 0)) {
    std::fprintf(stderr, "the runtime declined the copy\n");
    return 1;
  }
  const float *copy = static_cast<const float *>(out[0]);
  const double plain_view =
      host_us([&] { row_sum::view<<<blocks, 256>>>(n, v, copy, dy, 0); }, launches, batches);
  const double forced = host_us([&] { row_sum::launch(kSite, n, dB, dA, dy, 0, true); }, launches, batches);
  const double forced_calls = host_us([&] { row_sum::launch(kSite, n, dB, dA, dy, 0, false); }, launches, batches);
  const auto c = irregfix::testing::site_counters(kSite.id);
  // Auto: the selector's path (its decision does not matter for the host cost).
  irregfix::testing::reset();
  const double autosel = host_us([&] { row_sum::launch(kSite, n, dB, dA, dy, 0, true); }, launches, batches);
  const double auto_calls = host_us([&] { row_sum::launch(kSite, n, dB, dA, dy, 0, false); }, launches, batches);
  // Auto, the launcher settled on the original: a flag test, then the original
  // launch (a timed, locked launch every Selector::kWatchPeriod). The plain
  // launch is measured again beside it: the difference is to be read against
  // the two plain measures' own.
  irregfix::testing::reset();
  irregfix::testing::settle_on_original(kSite);
  const double settled = host_us([&] { row_sum::launch(kSite, n, dB, dA, dy, 0, true); }, launches, batches);
  const double settled_calls = host_us([&] { row_sum::launch(kSite, n, dB, dA, dy, 0, false); }, launches, batches);
  const double plain_again = host_us([&] { row_sum::csr<<<blocks, 256>>>(n, dB, dA, dy); }, launches, batches);
  const auto sc = irregfix::testing::site_counters(kSite.id);
  std::printf("| launch | host us per launch |\n|---|---|\n");
  std::printf("| original kernel <<<>>> | %.3f |\n", plain);
  std::printf("| transformed kernel <<<>>> alone | %.3f |\n", plain_view);
  std::printf("| launcher, IRREGFIX_LAYOUT=ell (cache hit) | %.3f |\n", forced);
  std::printf("| runtime calls only, ell (no kernel) | %.3f |\n", forced_calls);
  std::printf("| launcher, auto (selector) | %.3f |\n", autosel);
  std::printf("| runtime calls only, auto (no kernel) | %.3f |\n", auto_calls);
  std::printf("| launcher, auto settled on the original | %.3f |\n", settled);
  std::printf("| runtime calls only, auto settled on the original (no kernel) | %.3f |\n", settled_calls);
  std::printf("| original kernel <<<>>>, measured again | %.3f |\n", plain_again);
  std::printf("overhead of a cached launch (launcher ell - transformed kernel alone): %.3f us\n",
              forced - plain_view);
  std::printf("ell counters: misses %lld hits %lld remaps %lld\n", c.misses, c.hits, c.remaps);
  std::printf("overhead of a settled launch (launcher settled on the original - original kernel alone): %.3f us "
              "(the two plain measures differ by %.3f us)\n",
              settled - 0.5 * (plain + plain_again), plain_again - plain);
  std::printf("settled counters: original by choice %lld, transformed %lld, misses %lld\n", sc.chosen_original,
              sc.launches, sc.misses);
  return 0;
}
