// Image filters on 8-bit images: RGBA -> gray with uchar4 loads, a box blur of radius r with
// integer averaging, Sobel edge magnitude, a 3x3 Gaussian with float weights, a brightness/invert
// pass on uchar4 pixels and a 2x2 down-sample.
// variants: sm80
#include <cuda_runtime.h>

extern "C" __global__ void rgba_to_gray(const uchar4* __restrict__ rgba, unsigned char* __restrict__ gray, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 p = rgba[y * w + x];
    float l = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
    gray[y * w + x] = (unsigned char)fminf(l + 0.5f, 255.0f);
}

// Mean over the (2r+1)^2 window clipped to the image (integer division by the clipped count).
extern "C" __global__ void box_blur(const unsigned char* in, unsigned char* out, int w, int h, int r) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int sum = 0, count = 0;
    for (int dy = -r; dy <= r; dy++) {
        int yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (int dx = -r; dx <= r; dx++) {
            int xx = x + dx;
            if (xx < 0 || xx >= w) continue;
            sum += in[yy * w + xx];
            count++;
        }
    }
    out[y * w + x] = (unsigned char)((sum + count / 2) / count);
}

// |G| = sqrt(gx^2 + gy^2) with clamped borders; float magnitude and a saturated 8-bit copy.
extern "C" __global__ void sobel(const unsigned char* in, float* mag, unsigned char* edges, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xm = max(x - 1, 0), xp = min(x + 1, w - 1), ym = max(y - 1, 0), yp = min(y + 1, h - 1);
    int p00 = in[ym * w + xm], p01 = in[ym * w + x], p02 = in[ym * w + xp];
    int p10 = in[y * w + xm], p12 = in[y * w + xp];
    int p20 = in[yp * w + xm], p21 = in[yp * w + x], p22 = in[yp * w + xp];
    int gx = (p02 + 2 * p12 + p22) - (p00 + 2 * p10 + p20);
    int gy = (p20 + 2 * p21 + p22) - (p00 + 2 * p01 + p02);
    float m = sqrtf((float)(gx * gx + gy * gy));
    mag[y * w + x] = m;
    edges[y * w + x] = (unsigned char)min((int)m, 255);
}

// 3x3 Gaussian [1 2 1]^T [1 2 1] / 16 on float RGBA planes (float4 pixels), clamped borders.
extern "C" __global__ void gaussian3x3_f4(const float4* in, float4* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const float k[3] = {0.25f, 0.5f, 0.25f};
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int dy = -1; dy <= 1; dy++) {
        int yy = min(max(y + dy, 0), h - 1);
        for (int dx = -1; dx <= 1; dx++) {
            int xx = min(max(x + dx, 0), w - 1);
            float wgt = k[dy + 1] * k[dx + 1];
            float4 p = in[yy * w + xx];
            acc.x += wgt * p.x;
            acc.y += wgt * p.y;
            acc.z += wgt * p.z;
            acc.w += wgt * p.w;
        }
    }
    out[y * w + x] = acc;
}

// Brightness (saturating add) then invert when invert != 0; alpha untouched. One pixel per thread.
extern "C" __global__ void brighten_invert(uchar4* img, int npix, int delta, int invert) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npix) return;
    uchar4 p = img[i];
    int r = min(max(p.x + delta, 0), 255), g = min(max(p.y + delta, 0), 255), b = min(max(p.z + delta, 0), 255);
    if (invert) {
        r = 255 - r;
        g = 255 - g;
        b = 255 - b;
    }
    img[i] = make_uchar4(r, g, b, p.w);
}

// Half-size RGBA image: each output pixel is the rounded mean of a 2x2 block.
extern "C" __global__ void downsample2x(const uchar4* in, uchar4* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int ow = w / 2, oh = h / 2;
    if (x >= ow || y >= oh) return;
    uchar4 a = in[(2 * y) * w + 2 * x], b = in[(2 * y) * w + 2 * x + 1];
    uchar4 c = in[(2 * y + 1) * w + 2 * x], d = in[(2 * y + 1) * w + 2 * x + 1];
    out[y * ow + x] = make_uchar4((a.x + b.x + c.x + d.x + 2) >> 2, (a.y + b.y + c.y + d.y + 2) >> 2,
                                  (a.z + b.z + c.z + d.z + 2) >> 2, (a.w + b.w + c.w + d.w + 2) >> 2);
}
