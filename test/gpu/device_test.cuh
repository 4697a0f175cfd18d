// What the GPU test programs share: a fixture that skips without a device,
// starts each test from a fresh runtime, and owns the device arrays it
// uploads (released to the runtime and freed after the test); the fixtures of
// IRREGFIX_VERIFY's tests; a download.
#pragma once

#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

class DeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      cudaGetLastError();
      GTEST_SKIP() << "no CUDA device";
    }
    // The selector's tests drive its profiling from the first launch (no
    // warm-up: IRREGFIX_PROFILE_AFTER_MS=0), unless the environment says otherwise.
    setenv("IRREGFIX_PROFILE_AFTER_MS", "0", 0);
    irregfix::testing::reset();
  }
  void TearDown() override {
    for (void *p : owned_) {
      irregfix_release(p);
      cudaFree(p);
    }
    owned_.clear();
    irregfix::testing::reset();
  }

public:
  template <class T> T *upload(const std::vector<T> &h) {
    void *d = nullptr;
    EXPECT_EQ(cudaMalloc(&d, std::max<size_t>(1, h.size() * sizeof(T))), cudaSuccess);
    owned_.push_back(d);
    EXPECT_EQ(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return static_cast<T *>(d);
  }

private:
  std::vector<void *> owned_;
};

// Every launch transformed, in one forced layout (as IRREGFIX_LAYOUT).
template <int Layout> class ForcedLayoutTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!IsSkipped())
      irregfix::testing::set_layout(Layout);
  }
};

// IRREGFIX_VERIFY's tests: checking on, every launch transformed (ELL).
class VerifyingTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped())
      return;
    irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
    irregfix::testing::set_verify(true);
  }
};

// Their death tests run in a child that starts the program anew
// ("threadsafe"), as a forked CUDA process may not use the device.
class VerifyingDeathTest : public VerifyingTest {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    VerifyingTest::SetUp();
  }
};

template <class T> std::vector<T> download(const T *d, size_t count) {
  std::vector<T> h(count);
  if (count)
    EXPECT_EQ(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}
