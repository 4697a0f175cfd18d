// A minimal stand-in for cuBLAS's header: a handle and two calls.
#pragma once
#include <cuda_runtime.h>
typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
cublasStatus_t cublasSaxpy(cublasHandle_t h, int n, const float *alpha, const float *x, int incx, float *y, int incy);
cublasStatus_t cublasSdot(cublasHandle_t h, int n, const float *x, int incx, const float *y, int incy, float *result);
