// Element-wise pieces of a GPT-2 training step: token+position embedding, GELU (tanh form)
// forward and backward, a float4 residual add, a naive matmul with bias, and the AdamW update.
// variants: sm80 fast
#include <cuda_runtime.h>
#include <math.h>

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

// out[b,t,:] = wte[inp[b,t],:] + wpe[t,:]
extern "C" __global__ void encoder_forward(float* out, const int* inp, const float* wte, const float* wpe,
                                           int B, int T, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= B * T * C) return;
    int bt = idx / C;
    int t = bt % T;
    int c = idx % C;
    int ix = inp[bt];
    out[idx] = wte[ix * C + c] + wpe[t * C + c];
}

extern "C" __global__ void gelu_forward(float* out, const float* inp, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float xi = inp[i];
        float cube = 0.044715f * xi * xi * xi;
        out[i] = 0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube)));
    }
}

extern "C" __global__ void gelu_backward(float* dinp, const float* inp, const float* dout, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float x = inp[i];
        float cube = 0.044715f * x * x * x;
        float tanh_arg = GELU_SCALING_FACTOR * (x + cube);
        float tanh_out = tanhf(tanh_arg);
        float coshf_out = coshf(tanh_arg);
        float sech_out = 1.0f / (coshf_out * coshf_out);
        float local_grad = 0.5f * (1.0f + tanh_out) +
                           x * 0.5f * sech_out * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
        dinp[i] = local_grad * dout[i];
    }
}

// N is a multiple of 4; each thread adds one float4.
extern "C" __global__ void residual_forward_f4(float* __restrict__ out, const float* __restrict__ a,
                                               const float* __restrict__ b, int N) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i < N) {
        float4 x = *reinterpret_cast<const float4*>(a + i);
        float4 y = *reinterpret_cast<const float4*>(b + i);
        *reinterpret_cast<float4*>(out + i) = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

// out (BT, OC) = inp (BT, C) @ weight (OC, C)^T + bias (OC); a thread per output.
extern "C" __global__ void matmul_forward_naive(float* out, const float* inp, const float* weight, const float* bias,
                                                int BT, int C, int OC) {
    int bt = blockIdx.x * blockDim.x + threadIdx.x;
    int oc = blockIdx.y * blockDim.y + threadIdx.y;
    if (bt < BT && oc < OC) {
        float val = bias != NULL ? bias[oc] : 0.0f;
        const float* wrow = weight + oc * C;
        const float* inp_bt = inp + bt * C;
        for (int i = 0; i < C; i++) val += inp_bt[i] * wrow[i];
        out[bt * OC + oc] = val;
    }
}

__device__ inline float lerp(float start, float end, float weight) {
    return fma(weight, end, fma(-weight, start, start));
}

// One AdamW step at step number t (1-based): bias corrections computed with powf.
extern "C" __global__ void adamw_step(float* params, const float* grads, float* m, float* v, long num_parameters,
                                      float learning_rate, float beta1, float beta2, int t, float eps,
                                      float weight_decay) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_parameters) return;
    float beta1_correction = 1.0f - powf(beta1, t);
    float beta2_correction = 1.0f - powf(beta2, t);
    float grad = grads[i];
    float mi = lerp(grad, m[i], beta1);
    float vi = lerp(grad * grad, v[i], beta2);
    m[i] = mi;
    v[i] = vi;
    mi /= beta1_correction;
    vi /= beta2_correction;
    params[i] -= learning_rate * (mi / (sqrtf(vi) + eps) + weight_decay * params[i]);
}
