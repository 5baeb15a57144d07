// The CUDA math library in float and double, element-wise, on arguments spread over each
// function's usual domain; with -use_fast_math the float calls become the hardware approximations.
// variants: sm80 fast
#include <cuda_runtime.h>
#include <math.h>

// x in [-4, 4); y in (0, 4].
extern "C" __global__ void math_f32_explog(const float* x, const float* y, float* o_exp, float* o_log,
                                           float* o_pow, float* o_erf, float* o_exp2, float* o_log10, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i];
    o_exp[i] = expf(a);
    o_log[i] = logf(b);
    o_pow[i] = powf(b, a);
    o_erf[i] = erff(a);
    o_exp2[i] = exp2f(a);
    o_log10[i] = log10f(b);
}

extern "C" __global__ void math_f32_trig(const float* x, float* o_sin, float* o_cos, float* o_tanh, float* o_atan2,
                                         float* o_tan, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i];
    float s, c;
    sincosf(a, &s, &c);
    o_sin[i] = s;
    o_cos[i] = c;
    o_tanh[i] = tanhf(a);
    o_atan2[i] = atan2f(a, 1.5f - a * 0.25f);
    o_tan[i] = tanf(a * 0.35f);
}

// x in [-4, 4): cbrt, log1p of |x|, expm1, hypot, fmod, sqrt and 1/x (IEEE where CUDA is).
extern "C" __global__ void math_f32_misc(const float* x, float* o_cbrt, float* o_log1p, float* o_expm1, float* o_hypot,
                                         float* o_fmod, float* o_sqrt, float* o_rcp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i];
    o_cbrt[i] = cbrtf(a);
    o_log1p[i] = log1pf(fabsf(a));
    o_expm1[i] = expm1f(a);
    o_hypot[i] = hypotf(a, 3.0f - a);
    o_fmod[i] = fmodf(a * 7.0f, 1.25f);
    o_sqrt[i] = sqrtf(fabsf(a));
    o_rcp[i] = 1.0f / a;
}

// Double precision, one kernel per family (a kernel calling all eight takes minutes to build on a
// software Vulkan driver, whose LLVM sees the emulated double arithmetic of each call inlined).
extern "C" __global__ void math_f64_explog(const double* x, const double* y, double* o_exp, double* o_log,
                                           double* o_sqrt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    o_exp[i] = exp(x[i]);
    o_log[i] = log(y[i]);
    o_sqrt[i] = sqrt(y[i]);
}

extern "C" __global__ void math_f64_pow(const double* x, const double* y, double* o_pow, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o_pow[i] = pow(y[i], x[i]);
}

extern "C" __global__ void math_f64_trig(const double* x, double* o_sin, double* o_cos, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    o_sin[i] = sin(x[i]);
    o_cos[i] = cos(x[i]);
}

extern "C" __global__ void math_f64_special(const double* x, double* o_tanh, double* o_erf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    o_tanh[i] = tanh(x[i]);
    o_erf[i] = erf(x[i]);
}
