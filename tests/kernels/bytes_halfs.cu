// Narrow loads/stores: bytes and 16-bit values, each thread writes one element,
// so neighbouring threads (and neighbouring blocks) share 32-bit words.

// out[i] = in[n-1-i] * 3 + i (mod 256); sout[i] = (int)sin[i] (sign-extending load of signed char)
extern "C" __global__ void bytes_kernel(const unsigned char *in, unsigned char *out,
                                        const signed char *sin, int *sout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (unsigned char)(in[n - 1 - i] * 3 + i);
        sout[i] = (int)sin[i] * 5;
    }
}

// out[i] = (short)(in[i] * -3 + i); uout[i] = (unsigned short)in[i] >> 1  (zero-extended)
extern "C" __global__ void halfs_kernel(const short *in, short *out, unsigned short *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        short v = in[i];
        out[i] = (short)(v * -3 + i);
        uout[i] = (unsigned short)((unsigned short)v >> 1);
    }
}

// float4 vector load/store: out[i] = (w, 2*z, y + 1, x)
extern "C" __global__ void float4_kernel(const float4 *in, float4 *out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = in[i];
        out[i] = make_float4(v.w, v.z * 2.0f, v.y + 1.0f, v.x);
    }
}
