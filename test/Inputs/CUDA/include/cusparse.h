// A minimal stand-in for cuSPARSE's generic API: descriptors keep the user's pointers.
#pragma once
#include <cuda_runtime.h>
typedef struct cusparseContext *cusparseHandle_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef struct cusparseSpMatDescr const *cusparseConstSpMatDescr_t;
typedef struct cusparseDnVecDescr const *cusparseConstDnVecDescr_t;
typedef int cusparseStatus_t;
cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *d, long n, void *values, int type);
cusparseStatus_t cusparseSpMV(cusparseHandle_t h, int op, const void *alpha, cusparseConstSpMatDescr_t a,
                              cusparseConstDnVecDescr_t x, const void *beta, cusparseDnVecDescr_t y, int type,
                              int alg, void *buffer);
