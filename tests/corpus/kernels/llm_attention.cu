// Causal self-attention forward, naive: three kernels over (B, T, 3C) packed q,k,v rows with NH
// heads of size hs = C / NH. Masked scores are -INFINITY before the softmax.
// variants: sm80 fast
#include <cuda_runtime.h>
#include <math.h>

// preatt[b, h, t, t2] = q(b,t,h) . k(b,t2,h) / sqrt(hs), or -INFINITY above the diagonal.
extern "C" __global__ void attention_query_key(float* preatt, const float* inp, int B, int T, int C, int NH) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = B * NH * T * T;
    if (idx >= total) return;
    int t2 = idx % T;
    int t = (idx / T) % T;
    if (t2 > t) {
        preatt[idx] = -INFINITY;
        return;
    }
    int h = (idx / (T * T)) % NH;
    int b = idx / (NH * T * T);
    int C3 = C * 3;
    int hs = C / NH;
    const float* query_t = inp + b * T * C3 + t * C3 + h * hs;
    const float* key_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C;
    float val = 0.0f;
    for (int i = 0; i < hs; i++) val += query_t[i] * key_t2[i];
    val *= 1.0f / sqrtf((float)hs);
    preatt[idx] = val;
}

// Row softmax over t2 <= t; entries above the diagonal become 0.
extern "C" __global__ void attention_softmax(float* att, const float* preatt, int B, int T, int NH) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = B * T * NH;
    if (idx >= total) return;
    int h = idx % NH;
    int t = (idx / NH) % T;
    int b = idx / (NH * T);
    const float* pre = preatt + b * NH * T * T + h * T * T + t * T;
    float* a = att + b * NH * T * T + h * T * T + t * T;
    float maxval = -INFINITY;
    for (int t2 = 0; t2 <= t; t2++) {
        if (pre[t2] > maxval) maxval = pre[t2];
    }
    float expsum = 0.0f;
    for (int t2 = 0; t2 <= t; t2++) {
        float e = expf(pre[t2] - maxval);
        expsum += e;
        a[t2] = e;
    }
    float expsum_inv = expsum == 0.0f ? 0.0f : 1.0f / expsum;
    for (int t2 = 0; t2 < T; t2++) {
        if (t2 <= t) a[t2] *= expsum_inv;
        else a[t2] = 0.0f;
    }
}

// out[b, t, h*hs + i] = sum over t2 <= t of att[b, h, t, t2] * v(b, t2, h)[i].
extern "C" __global__ void attention_value(float* out, const float* att, const float* inp, int B, int T, int C, int NH) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = B * T * NH;
    if (idx >= total) return;
    int h = idx % NH;
    int t = (idx / NH) % T;
    int b = idx / (NH * T);
    int C3 = C * 3;
    int hs = C / NH;
    float* out_bth = out + b * T * C + t * C + h * hs;
    const float* att_bth = att + b * NH * T * T + h * T * T + t * T;
    for (int i = 0; i < hs; i++) out_bth[i] = 0.0f;
    for (int t2 = 0; t2 <= t; t2++) {
        const float* value_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C * 2;
        float w = att_bth[t2];
        for (int i = 0; i < hs; i++) out_bth[i] += w * value_t2[i];
    }
}
