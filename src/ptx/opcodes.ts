/**
 * The one PTX opcode table. Each row names an opcode (optionally with fixed sub-words,
 * `cp.async.wait_group`), the modifier groups it accepts in the ISA's syntax order (which
 * is also the order the printer writes them), and its operand count range. A modifier
 * group maps words onto one typed field of `Modifiers`. Rows are data: extend the table
 * by adding rows; the parser and the printer have no per-opcode code.
 */
import { SCALAR_TYPES, type Modifiers } from './ast.js';

export type ModifierField = Exclude<keyof Modifiers, 'types'> | 'types';

export interface ModifierGroup {
  readonly field: ModifierField;
  readonly words: readonly string[];
  /** Words matched by shape (`m16n8k16`) rather than listed. */
  readonly pattern?: RegExp;
}

export interface OpcodeRow {
  /** Full dotted name the row matches: `add`, `cp.async.wait_group`. */
  readonly name: string;
  /** The base opcode (`cp`). */
  readonly opcode: string;
  /** Fixed sub-words after the opcode (`async.wait_group`), stored in `Modifiers.mode`. */
  readonly mode?: string;
  readonly groups: readonly ModifierGroup[];
  readonly minOperands: number;
  readonly maxOperands: number;
}

// ---------------------------------------------------------------- groups

const g = (field: ModifierField, words: string): ModifierGroup => ({ field, words: words.split(' ') });
const flag = (field: ModifierField, word: string = field): ModifierGroup => ({ field, words: [word] });
const extra = (words: string): ModifierGroup => g('extra', words);

const ALL: ModifierGroup = { field: 'types', words: SCALAR_TYPES };
/** The instruction types an opcode accepts (ISA syntax blocks); any other type is a diagnostic listing these. */
const T = (words: string): ModifierGroup => g('types', words);
/** ld/ldu/st (ISA text; `.b128` since PTX 8.3): ptxas refuses the half and packed types here. */
const MEM_TYPES = T('b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64');
/** mbarrier objects, cache policies. */
const B64 = T('b64');
const RND = g('rounding', 'rn rz rm rp');
const CVT_RND = g('rounding', 'rn rz rm rp rna rs rni rzi rmi rpi');
const FTZ = flag('ftz');
const SAT = flag('sat');
const CC = flag('cc');
const APPROX = flag('approx');
const FULL = flag('full');
const RELU = flag('relu');
const SATFINITE = flag('satfinite');
const NAN = flag('nan', 'NaN');
const UNI = flag('uni');
const SYNC = flag('sync');
const ALIGNED = flag('aligned');
const TRANS = flag('trans');
const MULMODE = g('mulMode', 'lo hi wide');
const CMP = g('compare', 'eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan');
const BOOL = g('boolOp', 'and or xor');
const SEM = g('semantics', 'weak relaxed acquire release acq_rel sc volatile mmio');
const SCOPE = g('scope', 'cta cluster gpu sys');
const SPACES = 'global shared shared::cta shared::cluster local const param param::entry param::func generic';
const SPACE = g('space', SPACES);
const SRC_SPACE = extra('global shared shared::cta shared::cluster');
const LD_CACHE = g('cache', 'ca cg cs lu cv nc');
const ST_CACHE = g('cache', 'wb cg cs wt');
const HINTS = g(
  'cacheHints',
  'L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate ' +
    'L2::evict_normal L2::evict_first L2::evict_last L2::cache_hint L2::64B L2::128B L2::256B',
);
const VEC = g('vector', 'v2 v4 v8');
const ATOMIC = g('atomicOp', 'and or xor cas exch add inc dec min max');
const SHAPE: ModifierGroup = { field: 'shape', words: [], pattern: /^m\d+n\d+(k\d+)?$/ };
const LAYOUTS = g('layouts', 'row col');
const COUNT = g('count', 'x1 x2 x4');
const SHIFT = g('shift', 'clamp wrap');
const GEOM = 'extra';
const TEX_GEOM = g(GEOM, '1d 2d 3d a1d a2d cube acube 2dms a2dms');
const SU_CLAMP = extra('trap clamp zero');
const MBAR_COMPLETE = extra('mbarrier::complete_tx::bytes multicast::cluster');
const TENSOR_DIM = extra('1d 2d 3d 4d 5d');
const LOAD_MODE = extra('tile im2col im2col::w im2col::w::128 tile::gather4 tile::scatter4');
const VIDEO = [extra('po'), SAT, extra('shr7 shr15'), g('mode', 'add min max'), ALL];
const MMA_KIND = extra('kind::f8f6f4 kind::mxf4 kind::mxf4nvf4 kind::mxf8f6f4 kind::f16 kind::tf32 kind::i8 kind::f8f6f4');
const MMA_SCALE_TYPE = extra('ue8m0 ue4m3');
const CTA_GROUP = extra('cta_group::1 cta_group::2');
const TMEM_SHAPE = extra('16x64b 16x128b 16x256b 32x32b 16x32bx2');
const TMEM_NUM = extra('x1 x2 x4 x8 x16 x32 x64 x128');

// ---------------------------------------------------------------- rows

type RowSpec = readonly [name: string, min: number, max: number, ...groups: ModifierGroup[]];

const ROWS: readonly RowSpec[] = [
  // integer and floating-point arithmetic
  ['add', 3, 3, RND, FTZ, SAT, CC, RELU, T('u16 u32 u64 s16 s32 s64 u16x2 s16x2 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['sub', 3, 3, RND, FTZ, SAT, CC, RELU, T('u16 u32 u64 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['mul', 3, 3, MULMODE, RND, FTZ, SAT, T('u16 u32 u64 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['mad', 4, 4, MULMODE, RND, FTZ, SAT, CC, T('u16 u32 u64 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['mul24', 3, 3, MULMODE, T('u32 s32')],
  ['mad24', 4, 4, MULMODE, SAT, T('u32 s32')],
  ['sad', 4, 4, T('u16 u32 u64 s16 s32 s64')],
  ['div', 3, 3, APPROX, FULL, RND, FTZ, T('u16 u32 u64 s16 s32 s64 f32 f64')],
  ['rem', 3, 3, T('u16 u32 u64 s16 s32 s64')],
  ['abs', 2, 2, FTZ, T('s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['neg', 2, 2, FTZ, T('s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['min', 3, 4, FTZ, RELU, NAN, flag('xorsign'), flag('abs'), T('u16 u32 u64 s16 s32 s64 u16x2 s16x2 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['max', 3, 4, FTZ, RELU, NAN, flag('xorsign'), flag('abs'), T('u16 u32 u64 s16 s32 s64 u16x2 s16x2 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['popc', 2, 2, T('b32 b64')],
  ['clz', 2, 2, T('b32 b64')],
  ['bfind', 2, 2, flag('shiftamt'), T('u32 u64 s32 s64')],
  ['fns', 4, 4, T('b32')],
  ['brev', 2, 2, T('b32 b64')],
  ['bfe', 4, 4, T('u32 u64 s32 s64')],
  ['bfi', 5, 5, T('b32 b64')],
  ['szext', 3, 3, SHIFT, T('u32 s32')],
  ['bmsk', 3, 3, SHIFT, T('b32')],
  ['dp4a', 4, 4, T('u32 s32')],
  ['dp2a', 4, 4, g('mode', 'lo hi'), T('u32 s32')],
  ['addc', 3, 3, CC, T('u16 u32 u64 s16 s32 s64')],
  ['subc', 3, 3, CC, T('u16 u32 u64 s16 s32 s64')],
  ['madc', 4, 4, MULMODE, CC, T('u16 u32 u64 s16 s32 s64')],
  // logic and shift
  ['and', 3, 3, T('pred b16 b32 b64')],
  ['or', 3, 3, T('pred b16 b32 b64')],
  ['xor', 3, 3, T('pred b16 b32 b64')],
  ['not', 2, 2, T('pred b16 b32 b64')],
  ['cnot', 2, 2, T('b16 b32 b64')],
  ['lop3', 5, 6, BOOL, T('b32')],
  ['shf', 4, 4, g('mode', 'l r'), SHIFT, T('b32')],
  ['shl', 3, 3, T('b16 b32 b64')],
  ['shr', 3, 3, T('b16 b32 b64 u16 u32 u64 s16 s32 s64')],
  ['prmt', 4, 4, T('b32'), g('prmt', 'f4e b4e rc8 ecl ecr rc16')],
  // floating point
  ['testp', 2, 2, g('mode', 'finite infinite number notanumber normal subnormal'), T('f32 f64')],
  ['copysign', 3, 3, T('f32 f64')],
  ['rcp', 2, 2, APPROX, RND, FTZ, T('f32 f64')],
  ['sqrt', 2, 2, APPROX, RND, FTZ, T('f32 f64')],
  ['rsqrt', 2, 2, APPROX, FTZ, T('f32 f64')],
  ['sin', 2, 2, APPROX, FTZ, T('f32')],
  ['cos', 2, 2, APPROX, FTZ, T('f32')],
  ['lg2', 2, 2, APPROX, FTZ, T('f32')],
  ['ex2', 2, 2, APPROX, FTZ, T('f32 f16 f16x2 bf16 bf16x2')],
  ['tanh', 2, 2, APPROX, T('f32 f16 f16x2 bf16 bf16x2')],
  ['fma', 4, 4, RND, FTZ, SAT, RELU, SATFINITE, extra('oob'), T('f16 f16x2 bf16 bf16x2 f32 f64')],
  // comparison and selection
  ['set', 3, 4, CMP, BOOL, FTZ, T('b16 b32 b64 u16 u32 u64 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['setp', 3, 4, CMP, BOOL, FTZ, T('b16 b32 b64 u16 u32 u64 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['selp', 4, 4, T('b16 b32 b64 u16 u32 u64 s16 s32 s64 f32 f64')],
  ['slct', 4, 4, FTZ, T('b16 b32 b64 u16 u32 u64 s16 s32 s64 f32 f64')],
  // data movement
  ['mov', 2, 2, VEC, T('pred b16 b32 b64 b128 u16 u32 u64 s16 s32 s64 f32 f64')],
  ['ld', 2, 3, SEM, SCOPE, SPACE, LD_CACHE, extra('nc'), HINTS, VEC, MEM_TYPES],
  ['ldu', 2, 2, SPACE, VEC, MEM_TYPES],
  ['st', 2, 3, SEM, SCOPE, SPACE, ST_CACHE, HINTS, VEC, MEM_TYPES],
  ['prefetch', 1, 1, SPACE, extra('L1 L2 L2::evict_last L2::evict_normal tensormap')],
  ['prefetchu', 1, 1, extra('L1')],
  ['isspacep', 2, 2, SPACE],
  ['cvta', 2, 2, flag('to'), SPACE, T('u32 u64')],
  ['cvt', 2, 4, CVT_RND, FTZ, SAT, RELU, SATFINITE, T('u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 bf16x2 tf32 f32 f64 e4m3x2 e5m2x2 e2m1x2 e2m3x2 e3m2x2 ue8m0x2 e4m3x4 e5m2x4 e2m3x4 e3m2x4 e2m1x4')],
  ['cvt.pack', 3, 4, SAT, T('u16 s16 u8 s8 u4 s4 u2 s2 s32 b32')],
  ['mapa', 3, 3, SPACE, T('u32 u64 s32')],
  ['getctarank', 2, 2, SPACE, T('u32 u64 s32')],
  ['shfl', 4, 5, SYNC, g('shfl', 'up down bfly idx'), T('b32')],
  // textures and surfaces
  ['tex', 2, 5, extra('base level grad'), TEX_GEOM, VEC, T('u32 s32 f16 f16x2 f32')],
  ['tld4', 2, 4, g('mode', 'r g b a'), TEX_GEOM, VEC, T('u32 s32 f32')],
  ['txq', 2, 3, extra('level'), g('mode', 'width height depth channel_data_type channel_order normalized_coords filter_mode addr_mode_0 addr_mode_1 addr_mode_2 samples force_unnormalized_coords array_size num_mipmap_levels num_samples'), T('b32')],
  ['suld', 2, 2, g('mode', 'b p'), TEX_GEOM, VEC, T('b8 b16 b32 b64'), SU_CLAMP],
  ['sust', 2, 2, g('mode', 'b p'), TEX_GEOM, VEC, T('b8 b16 b32 b64'), SU_CLAMP],
  ['sured', 2, 2, g('mode', 'b p'), ATOMIC, TEX_GEOM, T('b32 b64 u32 u64 s32'), SU_CLAMP],
  ['suq', 2, 2, g('mode', 'width height depth channel_data_type channel_order array_size memory_layout'), T('b32')],
  ['istypep', 2, 2, g('mode', 'texref samplerref surfref')],
  // control flow
  ['bra', 1, 1, UNI],
  ['brx', 2, 2, extra('idx'), UNI],
  ['call', 3, 4, UNI],
  ['ret', 0, 0, UNI],
  ['exit', 0, 0],
  // synchronization
  ['bar', 1, 4, SCOPE, g('barrier', 'sync arrive red'), ALIGNED, g('boolOp', 'popc and or'), T('u32 pred')],
  ['bar.warp', 1, 1, g('barrier', 'sync')],
  ['barrier', 0, 4, SCOPE, g('barrier', 'sync arrive red wait'), SEM, ALIGNED, g('boolOp', 'popc and or'), T('u32 pred')],
  ['membar', 0, 0, g('mode', 'cta gl sys')],
  ['membar.proxy', 0, 0, extra('alias')],
  ['fence', 0, 0, g('mode', 'op_restrict'), SEM, SCOPE],
  ['fence.proxy', 0, 0, extra('alias async async::generic tensormap::generic'), SPACE, extra('release acquire'), SCOPE],
  ['fence.mbarrier_init', 0, 0, SEM, SCOPE],
  ['atom', 3, 5, SEM, SCOPE, SPACE, ATOMIC, extra('noftz'), HINTS, VEC, T('b16 b32 b64 b128 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['red', 2, 3, SEM, SCOPE, SPACE, ATOMIC, extra('noftz'), HINTS, VEC, T('b32 b64 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64')],
  ['vote', 2, 3, SYNC, g('vote', 'all any uni ballot'), T('pred b32')],
  ['match', 3, 4, SYNC, g('mode', 'any all'), T('b32 b64')],
  ['activemask', 1, 1, T('b32')],
  ['redux', 3, 3, SYNC, g('atomicOp', 'add min max and or xor'), flag('abs'), NAN, T('b32 u32 s32 f32')],
  ['griddepcontrol', 0, 0, g('mode', 'launch_dependents wait')],
  ['elect', 1, 2, SYNC],
  ['nanosleep', 1, 1, T('u32')],
  ['trap', 0, 0],
  ['brkpt', 0, 0],
  ['pmevent', 1, 1, extra('mask')],
  ['setmaxnreg', 1, 1, g('mode', 'inc dec'), SYNC, ALIGNED, T('u32 s32')],
  // mbarrier
  ['mbarrier.init', 2, 2, SPACE, B64],
  ['mbarrier.inval', 1, 1, SPACE, B64],
  ['mbarrier.expect_tx', 2, 2, SEM, SCOPE, SPACE, B64],
  ['mbarrier.complete_tx', 2, 2, SEM, SCOPE, SPACE, B64],
  ['mbarrier.arrive', 1, 3, SEM, SCOPE, SPACE, extra('expect_tx noComplete'), B64],
  ['mbarrier.arrive_drop', 1, 3, SEM, SCOPE, SPACE, extra('expect_tx noComplete'), B64],
  ['mbarrier.test_wait', 3, 3, extra('parity'), SEM, SCOPE, SPACE, B64],
  ['mbarrier.try_wait', 3, 4, extra('parity'), SEM, SCOPE, SPACE, B64],
  ['mbarrier.pending_count', 2, 2, B64],
  // matrix
  ['wmma.load', 2, 3, extra('a b c'), SYNC, ALIGNED, LAYOUTS, SHAPE, SPACE, ALL],
  ['wmma.store', 2, 3, extra('d'), SYNC, ALIGNED, LAYOUTS, SHAPE, SPACE, ALL],
  ['wmma.mma', 4, 4, g('boolOp', 'and xor'), extra('popc'), SYNC, ALIGNED, LAYOUTS, SHAPE, RND, SATFINITE, ALL],
  ['mma', 4, 9, extra('sp sp::ordered_metadata'), SYNC, ALIGNED, SHAPE, LAYOUTS, MMA_KIND, extra('block_scale'), extra('scale_vec::1X scale_vec::2X scale_vec::4X'), SATFINITE, ALL, g('boolOp', 'and xor'), g('mode', 'popc'), MMA_SCALE_TYPE],
  ['ldmatrix', 2, 2, SYNC, ALIGNED, SHAPE, COUNT, TRANS, SPACE, ALL, extra('b8x16 b6x16_p32 b4x16_p64')],
  ['stmatrix', 2, 2, SYNC, ALIGNED, SHAPE, COUNT, TRANS, SPACE, ALL],
  ['movmatrix', 2, 2, SYNC, ALIGNED, SHAPE, TRANS, ALL],
  ['wgmma.fence', 0, 0, SYNC, ALIGNED],
  ['wgmma.commit_group', 0, 0, SYNC, ALIGNED],
  ['wgmma.wait_group', 1, 1, SYNC, ALIGNED],
  ['wgmma.mma_async', 4, 10, extra('sp'), SYNC, ALIGNED, SHAPE, SATFINITE, ALL],
  // asynchronous copies
  ['cp.async', 3, 5, g('cache', 'ca cg'), SPACE, SRC_SPACE, HINTS],
  ['cp.async.commit_group', 0, 0],
  ['cp.async.wait_group', 1, 1],
  ['cp.async.wait_all', 0, 0],
  ['cp.async.mbarrier.arrive', 1, 1, extra('noinc'), SPACE, B64],
  ['cp.async.bulk', 3, 6, SPACE, SRC_SPACE, MBAR_COMPLETE, extra('bulk_group'), HINTS],
  ['cp.async.bulk.prefetch', 2, 3, extra('L2'), SPACE, HINTS],
  ['cp.async.bulk.tensor', 2, 6, TENSOR_DIM, SPACE, SRC_SPACE, LOAD_MODE, MBAR_COMPLETE, extra('bulk_group cta_group::1 cta_group::2'), HINTS],
  ['cp.async.bulk.commit_group', 0, 0],
  ['cp.async.bulk.wait_group', 1, 1, extra('read')],
  ['cp.reduce.async.bulk', 3, 4, SPACE, SRC_SPACE, MBAR_COMPLETE, extra('bulk_group'), ATOMIC, extra('noftz'), HINTS, ALL],
  ['cp.reduce.async.bulk.tensor', 2, 4, TENSOR_DIM, SPACE, SRC_SPACE, ATOMIC, LOAD_MODE, extra('bulk_group'), HINTS],
  // asynchronous stores and reductions into another CTA's shared memory (sm_90)
  ['st.async', 3, 3, extra('weak'), SPACE, MBAR_COMPLETE, VEC, ALL],
  ['red.async', 3, 3, SEM, SCOPE, SPACE, MBAR_COMPLETE, ATOMIC, ALL],
  ['st.bulk', 3, 3, extra('weak'), SPACE],
  ['cp.async.bulk.prefetch.tensor', 2, 4, TENSOR_DIM, extra('L2'), SPACE, LOAD_MODE, HINTS],
  // tensor memory (tcgen05, sm_100a)
  ['tcgen05.alloc', 2, 2, CTA_GROUP, SYNC, ALIGNED, SPACE, ALL],
  ['tcgen05.dealloc', 2, 2, CTA_GROUP, SYNC, ALIGNED, ALL],
  ['tcgen05.relinquish_alloc_permit', 0, 0, CTA_GROUP, SYNC, ALIGNED],
  ['tcgen05.ld', 2, 3, SYNC, ALIGNED, TMEM_SHAPE, TMEM_NUM, extra('pack::16b'), ALL],
  ['tcgen05.st', 2, 3, SYNC, ALIGNED, TMEM_SHAPE, TMEM_NUM, extra('unpack::16b'), ALL],
  ['tcgen05.wait::ld', 0, 0, SYNC, ALIGNED],
  ['tcgen05.wait::st', 0, 0, SYNC, ALIGNED],
  ['tcgen05.commit', 1, 2, CTA_GROUP, extra('mbarrier::arrive::one'), SPACE, extra('multicast::cluster'), ALL],
  ['tcgen05.cp', 2, 2, CTA_GROUP, TMEM_SHAPE, extra('128x256b 4x256b 128x128b 64x128b 32x128b'), extra('warpx2::02_13 warpx2::01_23 warpx4'), extra('b8x16'), extra('b6x16_p32 b4x16_p64')],
  ['tcgen05.shift', 1, 1, CTA_GROUP, extra('down')],
  ['tcgen05.mma', 4, 8, extra('sp'), CTA_GROUP, MMA_KIND, extra('block_scale'), extra('scale_vec::1X scale_vec::2X scale_vec::4X'), extra('collector::a::fill collector::a::use collector::a::lastuse collector::a::discard'), extra('ws')],
  ['tcgen05.fence::before_thread_sync', 0, 0],
  ['tcgen05.fence::after_thread_sync', 0, 0],
  // stack, cache policy and misc
  ['stacksave', 1, 1, T('u32 u64')],
  ['stackrestore', 1, 1, T('u32 u64')],
  ['alloca', 2, 3, T('u32 u64')],
  ['discard', 2, 2, SPACE, extra('L2'), extra('128B')],
  ['applypriority', 2, 2, SPACE, extra('L2::evict_normal')],
  ['createpolicy', 2, 5, g('mode', 'fractional range'), extra('L2::evict_last L2::evict_normal L2::evict_first L2::evict_unchanged'), extra('L2::evict_first L2::evict_unchanged'), B64],
  ['multimem.ld_reduce', 2, 2, SEM, SCOPE, SPACE, ATOMIC, extra('acc::f32'), VEC, ALL],
  ['multimem.st', 2, 2, SEM, SCOPE, SPACE, VEC, ALL],
  ['multimem.red', 2, 2, SEM, SCOPE, SPACE, ATOMIC, VEC, ALL],
  ['tensormap.replace', 3, 4, extra('tile'), extra('global_address rank box_dim global_dim global_stride element_stride elemtype interleave_layout swizzle_mode swizzle_atomicity fill_mode'), SPACE, extra('b1024'), ALL],
  ['tensormap.cp_fenceproxy', 3, 3, extra('global.shared::cta tensormap::generic'), SRC_SPACE, SEM, SCOPE, SPACE, ALIGNED, SYNC, ALL],
  ['clusterlaunchcontrol.try_cancel', 2, 2, extra('async'), SPACE, MBAR_COMPLETE, extra('multicast::cluster::all'), ALL],
  ['clusterlaunchcontrol.query_cancel', 2, 2, extra('is_canceled get_first_ctaid get_first_ctaid::x get_first_ctaid::y get_first_ctaid::z'), ALL],
  // video instructions (scalar and SIMD); operand byte/half selectors live on the register operands
  ...['vadd', 'vsub', 'vabsdiff', 'vmin', 'vmax', 'vshl', 'vshr', 'vmad', 'vset'].map(
    (n): RowSpec => [n, 3, 4, ...VIDEO, CMP, g('shift', 'clamp wrap')],
  ),
  ...['vadd2', 'vsub2', 'vavrg2', 'vabsdiff2', 'vmin2', 'vmax2', 'vset2', 'vadd4', 'vsub4', 'vavrg4', 'vabsdiff4', 'vmin4', 'vmax4', 'vset4'].map(
    (n): RowSpec => [n, 4, 4, ...VIDEO, CMP],
  ),
];

/**
 * Rows whose instruction does something else than its base opcode (`st.async` is not a
 * store of this thread, `cvt.pack` is not a `cvt`): their AST opcode is the whole dotted
 * name, so a consumer keyed on the base opcode never mistakes them for it (the lowering
 * then reports them as unsupported by name instead of emitting a plain `st`/`cvt`).
 */
const DISTINCT: ReadonlySet<string> = new Set(['st.async', 'red.async', 'st.bulk', 'cvt.pack']);

function makeRow([name, min, max, ...groups]: RowSpec): OpcodeRow {
  const dot = DISTINCT.has(name) ? -1 : name.indexOf('.');
  const opcode = dot < 0 ? name : name.slice(0, dot);
  const base = { name, opcode, groups, minOperands: min, maxOperands: max };
  return dot < 0 ? base : { ...base, mode: name.slice(dot + 1) };
}

/** All rows, keyed by their full dotted name. A later row with the same name replaces an earlier one. */
export const OPCODES: ReadonlyMap<string, OpcodeRow> = new Map(ROWS.map((r) => [r[0], makeRow(r)]));

/** Base opcodes the table knows (`cp`, `add`, …): the first word of every row name. */
export const BASE_OPCODES: ReadonlySet<string> = new Set([...OPCODES.keys()].map((n) => n.split('.')[0] ?? n));

/**
 * The longest row matching `opcode` followed by the leading modifier words, and how many
 * words it consumed: `cp` + [async, wait_group] → the `cp.async.wait_group` row, 2.
 */
export function lookupOpcode(opcode: string, words: readonly string[]): { row: OpcodeRow; consumed: number } | undefined {
  let name = opcode;
  let best = OPCODES.get(name);
  let consumed = 0;
  if (!BASE_OPCODES.has(opcode)) return undefined;
  for (let i = 0; i < words.length && i < 4; i++) {
    name += '.' + (words[i] ?? '');
    const row = OPCODES.get(name);
    if (row) {
      best = row;
      consumed = i + 1;
    }
  }
  return best ? { row: best, consumed } : undefined;
}

/** The row an instruction was parsed with, from its opcode and fixed mode. */
export function rowOf(opcode: string, mode: string | undefined): OpcodeRow | undefined {
  // Distinct rows (`cvt.pack`) are keyed by their whole name, which is their AST opcode.
  return (mode !== undefined ? OPCODES.get(`${opcode}.${mode}`) : undefined) ?? OPCODES.get(opcode);
}

/** Does `group` accept `word`? */
export function groupAccepts(group: ModifierGroup, word: string): boolean {
  return group.words.includes(word) || (group.pattern?.test(word) ?? false);
}
