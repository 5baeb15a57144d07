/* Stand-in for the cuBLASLt header (see cublas_v2.h here): types and variadic no-ops only. */
#pragma once
#include "cublas_v2.h"

typedef struct cublasLtStandInContext *cublasLtHandle_t;
typedef struct cublasLtStandInDesc *cublasLtMatmulDesc_t;
typedef struct cublasLtStandInLayout *cublasLtMatrixLayout_t;
typedef struct cublasLtStandInPreference *cublasLtMatmulPreference_t;
typedef struct { unsigned long long data[8]; } cublasLtMatmulAlgo_t;
typedef struct {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
} cublasLtMatmulHeuristicResult_t;
typedef enum {
  CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_RELU = 2, CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_GELU = 32, CUBLASLT_EPILOGUE_GELU_AUX = 160, CUBLASLT_EPILOGUE_GELU_BIAS = 36,
  CUBLASLT_EPILOGUE_GELU_AUX_BIAS = 164, CUBLASLT_EPILOGUE_DGELU = 192, CUBLASLT_EPILOGUE_BGRADB = 512
} cublasLtEpilogue_t;
typedef enum {
  CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0, CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,
  CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4,
  CUBLASLT_MATMUL_DESC_EPILOGUE = 7, CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 10, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 11,
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26
} cublasLtMatmulDescAttributes_t;
typedef enum {
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6
} cublasLtMatrixLayoutAttribute_t;
typedef enum { CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1 } cublasLtMatmulPreferenceAttributes_t;

CUBLAS_STAND_IN(cublasLtCreate)
CUBLAS_STAND_IN(cublasLtDestroy)
CUBLAS_STAND_IN(cublasLtMatmul)
CUBLAS_STAND_IN(cublasLtMatmulDescCreate)
CUBLAS_STAND_IN(cublasLtMatmulDescDestroy)
CUBLAS_STAND_IN(cublasLtMatmulDescSetAttribute)
CUBLAS_STAND_IN(cublasLtMatrixLayoutCreate)
CUBLAS_STAND_IN(cublasLtMatrixLayoutDestroy)
CUBLAS_STAND_IN(cublasLtMatrixLayoutSetAttribute)
CUBLAS_STAND_IN(cublasLtMatmulPreferenceCreate)
CUBLAS_STAND_IN(cublasLtMatmulPreferenceDestroy)
CUBLAS_STAND_IN(cublasLtMatmulPreferenceSetAttribute)
CUBLAS_STAND_IN(cublasLtMatmulAlgoGetHeuristic)
