// Helpers of the lanes GPU tests: CSR rows of chosen lengths, the id of a
// kernel's site in the statistics, the original and the lanes run side by side.
#pragma once

#include "device_test.cuh"

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace lanes_test {

// The id of the (one) site of `kernel`, as the statistics name it.
inline std::string site_of(const std::string &kernel) {
  std::istringstream report(irregfix::testing::stats_report());
  std::string line;
  while (std::getline(report, line)) {
    const std::string head = "irregfix: site ";
    const std::string tail = " kernel " + kernel + " ";
    const size_t at = line.find(tail);
    if (line.rfind(head, 0) == 0 && at != std::string::npos)
      return line.substr(head.size(), at - head.size());
  }
  return "";
}

// A CSR structure: rows of the given lengths, columns in [0, n).
struct Rows {
  int n = 0;
  std::vector<int> B, col;
};

// Rows whose lengths cycle, shuffled, through `lengths`.
inline Rows rows_of(int n, const std::vector<int> &lengths, unsigned seed) {
  std::mt19937 r(seed);
  Rows m;
  m.n = n;
  m.B.assign(n + 1, 0);
  std::vector<int> len(n);
  for (int t = 0; t < n; ++t)
    len[t] = lengths[t % lengths.size()];
  std::shuffle(len.begin(), len.end(), r);
  for (int t = 0; t < n; ++t)
    m.B[t + 1] = m.B[t] + len[t];
  std::uniform_int_distribution<int> c(0, n - 1);
  m.col.resize(m.B[n]);
  for (int &x : m.col)
    x = c(r);
  return m;
}

// Rows of about `mean` elements (mean / 2 to 3 mean / 2).
inline Rows rows_around(int n, int mean, unsigned seed) {
  std::mt19937 r(seed);
  std::uniform_int_distribution<int> l(mean / 2, mean + mean / 2);
  std::vector<int> lengths(n);
  for (int &x : lengths)
    x = l(r);
  return rows_of(n, lengths, seed);
}

class LanesFixture : public DeviceTest {
protected:
  // Runs `launch` once with the original kernel and once in the lanes layout
  // with L lanes a row (L 0: the runtime's choice), downloading `out` after each.
  template <class T, class Launch>
  void original_and_lanes(int L, Launch launch, const T *out, size_t count, std::vector<T> *original,
                          std::vector<T> *lanes) {
    irregfix::testing::set_layout(-1); // none: the original kernel
    launch();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    *original = download(out, count);
    irregfix::testing::set_layout(irregfix::kLayoutLanes);
    irregfix::testing::set_lanes(L);
    launch();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    *lanes = download(out, count);
  }
};

} // namespace lanes_test
