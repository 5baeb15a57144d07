/* Stand-in for the cuBLAS header, which this machine's CUDA toolkit lacks. It declares just
 * enough for host code that calls cuBLAS to type-check, so that nvcc can emit the PTX of the
 * same file's own kernels; every function is a variadic no-op. Never link against it. */
#pragma once
#include <cstddef>
#include <library_types.h>

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_ARCH_MISMATCH = 8, CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13, CUBLAS_STATUS_INTERNAL_ERROR = 14, CUBLAS_STATUS_NOT_SUPPORTED = 15
} cublasStatus_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2,
               CUBLAS_TF32_TENSOR_OP_MATH = 3 } cublasMath_t;
typedef enum { CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_16F = 74,
               CUBLAS_COMPUTE_32F_FAST_16BF = 75, CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
               CUBLAS_COMPUTE_64F = 70 } cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;
typedef cudaDataType cublasDataType_t;
#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 0
typedef struct cublasStandInContext *cublasHandle_t;

#define CUBLAS_STAND_IN(name) \
  template <typename... Args> inline cublasStatus_t name(Args...) { return CUBLAS_STATUS_SUCCESS; }
CUBLAS_STAND_IN(cublasCreate)
CUBLAS_STAND_IN(cublasDestroy)
CUBLAS_STAND_IN(cublasSetStream)
CUBLAS_STAND_IN(cublasSetMathMode)
CUBLAS_STAND_IN(cublasSgemm)
CUBLAS_STAND_IN(cublasDgemm)
CUBLAS_STAND_IN(cublasHgemm)
CUBLAS_STAND_IN(cublasSgemv)
CUBLAS_STAND_IN(cublasDgemv)
CUBLAS_STAND_IN(cublasSgemmStridedBatched)
CUBLAS_STAND_IN(cublasSgemmBatched)
CUBLAS_STAND_IN(cublasGemmBatchedEx)
CUBLAS_STAND_IN(cublasStrsmBatched)
CUBLAS_STAND_IN(cublasSetWorkspace)
CUBLAS_STAND_IN(cublasLoggerConfigure)
CUBLAS_STAND_IN(cublasGemmEx)
CUBLAS_STAND_IN(cublasGemmStridedBatchedEx)
CUBLAS_STAND_IN(cublasSaxpy)
CUBLAS_STAND_IN(cublasSdot)
CUBLAS_STAND_IN(cublasSnrm2)
CUBLAS_STAND_IN(cublasSscal)
CUBLAS_STAND_IN(cublasSetVector)
CUBLAS_STAND_IN(cublasGetVector)
CUBLAS_STAND_IN(cublasSetMatrix)
CUBLAS_STAND_IN(cublasGetMatrix)
inline const char *cublasGetStatusString(cublasStatus_t) { return "cuBLAS stand-in"; }
