#!/usr/bin/env python3
"""Writes mma_forms.cu (the sm_80 forms) or mma_forms_sm89.cu (m8n8k4 .f16, .s4/.u4, .b1 and the
fp8 forms, which need sm_89): one kernel per mma form, each warp running one mma on fragment
registers read from global memory (32-bit words, lane-major: word r of lane L of warp w at
((w * 32) + L) * regs + r) and writing its D registers back the same way. Regenerate with
`python3 gen_mma_forms.py > mma_forms.cu` and `python3 gen_mma_forms.py sm89 > mma_forms_sm89.cu`,
then `nvcc -ptx -arch=sm_80 -O3 mma_forms.cu` and `nvcc -ptx -arch=sm_89 -O3 mma_forms_sm89.cu`."""
import sys

# (kernel, instruction, A regs, B regs, C regs, D regs, C/D register kind: r (b32), f (f32), d (f64))
FORMS = [
    ('mma_m16n8k16_f32_f16', 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32', 4, 2, 4, 4, 'f', 'f'),
    ('mma_m16n8k16_f16_f16', 'mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16', 4, 2, 2, 2, 'r', 'r'),
    ('mma_m16n8k16_f32_bf16', 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32', 4, 2, 4, 4, 'f', 'f'),
    ('mma_m16n8k8_f32_f16', 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32', 2, 1, 4, 4, 'f', 'f'),
    ('mma_m16n8k8_f16_f16', 'mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16', 2, 1, 2, 2, 'r', 'r'),
    ('mma_m16n8k8_f32_bf16', 'mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32', 2, 1, 4, 4, 'f', 'f'),
    ('mma_m16n8k8_f32_tf32', 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32', 4, 2, 4, 4, 'f', 'f'),
    ('mma_m16n8k4_f32_tf32', 'mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32', 2, 1, 4, 4, 'f', 'f'),
    ('mma_m16n8k32_s8_s8', 'mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32', 4, 2, 4, 4, 'r', 'r'),
    ('mma_m16n8k32_u8_s8_sat', 'mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32', 4, 2, 4, 4, 'r', 'r'),
    ('mma_m16n8k32_u8_u8_sat', 'mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32', 4, 2, 4, 4, 'r', 'r'),
    ('mma_m16n8k16_s8_u8', 'mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32', 2, 1, 4, 4, 'r', 'r'),
    ('mma_m16n8k16_s8_s8_sat', 'mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32', 2, 1, 4, 4, 'r', 'r'),
    ('mma_m8n8k16_u8_s8', 'mma.sync.aligned.m8n8k16.row.col.s32.u8.s8.s32', 1, 1, 2, 2, 'r', 'r'),
    ('mma_m8n8k4_f64', 'mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64', 1, 1, 2, 2, 'd', 'd'),
]

M = 'mma.sync.aligned.'
FORMS_SM89 = [
    # m8n8k4 .f16: four products per warp, one per quad pair, every layout pair
    ('mma_m8n8k4_row_col_f32_f32', M + 'm8n8k4.row.col.f32.f16.f16.f32', 2, 2, 8, 8, 'f', 'f'),
    ('mma_m8n8k4_col_row_f16_f16', M + 'm8n8k4.col.row.f16.f16.f16.f16', 2, 2, 4, 4, 'r', 'r'),
    ('mma_m8n8k4_row_row_f32_f16', M + 'm8n8k4.row.row.f32.f16.f16.f16', 2, 2, 4, 8, 'r', 'f'),
    ('mma_m8n8k4_col_col_f32_f32', M + 'm8n8k4.col.col.f32.f16.f16.f32', 2, 2, 8, 8, 'f', 'f'),
    ('mma_m8n8k4_row_col_f16_f16', M + 'm8n8k4.row.col.f16.f16.f16.f16', 2, 2, 4, 4, 'r', 'r'),
    ('mma_m8n8k4_col_col_f32_f16', M + 'm8n8k4.col.col.f32.f16.f16.f16', 2, 2, 4, 8, 'r', 'f'),
    # .s4/.u4
    ('mma_m8n8k32_s4_s4', M + 'm8n8k32.row.col.s32.s4.s4.s32', 1, 1, 2, 2, 'r', 'r'),
    ('mma_m8n8k32_u4_s4_sat', M + 'm8n8k32.row.col.satfinite.s32.u4.s4.s32', 1, 1, 2, 2, 'r', 'r'),
    ('mma_m16n8k32_s4_u4', M + 'm16n8k32.row.col.s32.s4.u4.s32', 2, 1, 4, 4, 'r', 'r'),
    ('mma_m16n8k32_u4_u4_sat', M + 'm16n8k32.row.col.satfinite.s32.u4.u4.s32', 2, 1, 4, 4, 'r', 'r'),
    ('mma_m16n8k64_s4_s4_sat', M + 'm16n8k64.row.col.satfinite.s32.s4.s4.s32', 4, 2, 4, 4, 'r', 'r'),
    ('mma_m16n8k64_u4_s4', M + 'm16n8k64.row.col.s32.u4.s4.s32', 4, 2, 4, 4, 'r', 'r'),
    # .b1
    ('mma_m8n8k128_xor', M + 'm8n8k128.row.col.s32.b1.b1.s32.xor.popc', 1, 1, 2, 2, 'r', 'r'),
    ('mma_m8n8k128_and', M + 'm8n8k128.row.col.s32.b1.b1.s32.and.popc', 1, 1, 2, 2, 'r', 'r'),
    ('mma_m16n8k128_and', M + 'm16n8k128.row.col.s32.b1.b1.s32.and.popc', 2, 1, 4, 4, 'r', 'r'),
    ('mma_m16n8k128_xor', M + 'm16n8k128.row.col.s32.b1.b1.s32.xor.popc', 2, 1, 4, 4, 'r', 'r'),
    ('mma_m16n8k256_xor', M + 'm16n8k256.row.col.s32.b1.b1.s32.xor.popc', 4, 2, 4, 4, 'r', 'r'),
    ('mma_m16n8k256_and', M + 'm16n8k256.row.col.s32.b1.b1.s32.and.popc', 4, 2, 4, 4, 'r', 'r'),
    # .e4m3/.e5m2
    ('mma_m16n8k16_f32_e4m3', M + 'm16n8k16.row.col.f32.e4m3.e4m3.f32', 2, 1, 4, 4, 'f', 'f'),
    ('mma_m16n8k16_f32_e5m2_e4m3', M + 'm16n8k16.row.col.f32.e5m2.e4m3.f32', 2, 1, 4, 4, 'f', 'f'),
    ('mma_m16n8k16_f16_e4m3_e5m2', M + 'm16n8k16.row.col.f16.e4m3.e5m2.f16', 2, 1, 2, 2, 'r', 'r'),
    ('mma_m16n8k32_f32_e5m2', M + 'm16n8k32.row.col.f32.e5m2.e5m2.f32', 4, 2, 4, 4, 'f', 'f'),
    ('mma_m16n8k32_f32_e4m3_e5m2', M + 'm16n8k32.row.col.f32.e4m3.e5m2.f32', 4, 2, 4, 4, 'f', 'f'),
    ('mma_m16n8k32_f16_e4m3', M + 'm16n8k32.row.col.f16.e4m3.e4m3.f16', 4, 2, 2, 2, 'r', 'r'),
]

def kernel(name, op, na, nb, nc, nd, ck, dk):
    wide = ck == 'd'
    words = 2 if wide else 1
    ctype = {'r': 'unsigned', 'f': 'float', 'd': 'double'}
    dtype = {'r': 'unsigned', 'f': 'float', 'd': 'double'}
    load = {'r': 'x', 'f': '__uint_as_float(x)', 'd': 'x'}
    lines = [f'extern "C" __global__ void {name}(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *d) {{',
             '  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;']
    if wide:
        lines.append('  const double *ad = (const double *)a, *bd = (const double *)b, *cd = (const double *)c;')
        lines.append('  double *dd = (double *)d;')
        lines.append(f'  double A[{na}], B[{nb}], C[{nc}], D[{nd}];')
        lines.append(f'  for (int r = 0; r < {na}; r++) A[r] = ad[i * {na} + r];')
        lines.append(f'  for (int r = 0; r < {nb}; r++) B[r] = bd[i * {nb} + r];')
        lines.append(f'  for (int r = 0; r < {nc}; r++) C[r] = cd[i * {nc} + r];')
    else:
        lines.append(f'  unsigned A[{na}], B[{nb}]; {ctype[ck]} C[{nc}]; {dtype[dk]} D[{nd}];')
        lines.append(f'  for (int r = 0; r < {na}; r++) A[r] = a[i * {na} + r];')
        lines.append(f'  for (int r = 0; r < {nb}; r++) B[r] = b[i * {nb} + r];')
        lines.append(f'  for (int r = 0; r < {nc}; r++) {{ unsigned x = c[i * {nc} + r]; C[r] = {load[ck]}; }}')
    ab = 'd' if wide else 'r'
    n = 0
    def group(count):
        nonlocal n
        g = '{' + ', '.join(f'%{n + k}' for k in range(count)) + '}'
        n += count
        return g
    text = f'{op} {group(nd)}, {group(na)}, {group(nb)}, {group(nc)};'
    outs = ', '.join(f'"={dk}"(D[{k}])' for k in range(nd))
    ins = ', '.join([f'"{ab}"(A[{k}])' for k in range(na)] + [f'"{ab}"(B[{k}])' for k in range(nb)] + [f'"{ck}"(C[{k}])' for k in range(nc)])
    lines.append(f'  asm volatile("{text}"\n      : {outs}\n      : {ins});')
    if wide:
        lines.append(f'  for (int r = 0; r < {nd}; r++) dd[i * {nd} + r] = D[r];')
    elif dk == 'f':
        lines.append(f'  for (int r = 0; r < {nd}; r++) d[i * {nd} + r] = __float_as_uint(D[r]);')
    else:
        lines.append(f'  for (int r = 0; r < {nd}; r++) d[i * {nd} + r] = D[r];')
    lines.append('}')
    return '\n'.join(lines)

print('// Generated by gen_mma_forms.py: one kernel per mma form (see there). Fragment registers in and out')
print('// of global memory, one mma per warp.')
print()
print('\n\n'.join(kernel(*f) for f in (FORMS_SM89 if sys.argv[1:] == ['sm89'] else FORMS)))
