// Hand-written WGSL warp reduction (the baseline of bench/warp-reduce.mjs): what a WGSL author
// writes for the same kernel on a device with 32-lane subgroups.
enable subgroups;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(subgroup_invocation_id) lane: u32) {
  let i = gid.x + gid.y * groups.x * 256u;
  let v = subgroupAdd(input[i]);
  if (lane == 0u) { output[i >> 5u] = v; }
}

// The same reduction as warp_reduce_shfl written by hand: five subgroupShuffleDown steps.
@compute @workgroup_size(256)
fn main_shfl(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
             @builtin(subgroup_invocation_id) lane: u32) {
  let i = gid.x + gid.y * groups.x * 256u;
  var v = input[i];
  v += subgroupShuffleDown(v, 16u);
  v += subgroupShuffleDown(v, 8u);
  v += subgroupShuffleDown(v, 4u);
  v += subgroupShuffleDown(v, 2u);
  v += subgroupShuffleDown(v, 1u);
  if (lane == 0u) { output[i >> 5u] = v; }
}

// main_shfl with PTX's rule for out-of-range lanes (they keep their own value), as a select after
// each shuffle: what the compiler emits for shfl.sync.down with a constant offset.
@compute @workgroup_size(256)
fn main_shfl_select(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
                    @builtin(subgroup_invocation_id) lane: u32) {
  let i = gid.x + gid.y * groups.x * 256u;
  var v = input[i];
  v += select(v, subgroupShuffleDown(v, 16u), lane < 16u);
  v += select(v, subgroupShuffleDown(v, 8u), lane < 24u);
  v += select(v, subgroupShuffleDown(v, 4u), lane < 28u);
  v += select(v, subgroupShuffleDown(v, 2u), lane < 30u);
  v += select(v, subgroupShuffleDown(v, 1u), lane < 31u);
  if (lane == 0u) { output[i >> 5u] = v; }
}

// The same rule folded into the source lane of an indexed shuffle: the select moves off the
// value's dependency chain (it depends on the lane only).
@compute @workgroup_size(256)
fn main_shfl_index(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
                   @builtin(subgroup_invocation_id) lane: u32) {
  let i = gid.x + gid.y * groups.x * 256u;
  var v = input[i];
  v += subgroupShuffle(v, select(lane, lane + 16u, lane < 16u));
  v += subgroupShuffle(v, select(lane, lane + 8u, lane < 24u));
  v += subgroupShuffle(v, select(lane, lane + 4u, lane < 28u));
  v += subgroupShuffle(v, select(lane, lane + 2u, lane < 30u));
  v += subgroupShuffle(v, select(lane, lane + 1u, lane < 31u));
  if (lane == 0u) { output[i >> 5u] = v; }
}
