// The dump the worker reads while the page waits (worker.js warmUp), in
// the shapes compilers print, so that what a user's dump runs is already
// compiled and optimized when it comes. V8 optimizes a WebAssembly
// function once it has run hot: code a real dump runs much and this one
// did not is compiled while the user waits, on a core a comparison's
// second worker needs (Chromium's trace showed the parameter-list reader
// optimized during a big drop when the warm-up's functions had two
// parameters on one line).

const tile = (space, base, offset, view = '') =>
  `pl.Tile[[16, 64], pl.BF16, pl.MemRef(${base}, pl.const(${offset}, pl.INT64), 2048), pl.Mem.${space}${view}]`;
const tensor = (n, shape = '[16, 1024]', dtype = 'pl.BF16') =>
  `pl.Tensor[${shape}, ${dtype}, pl.MemRef("mem_ddr_${n}", pl.const(0, pl.INT64), 32768)]`;

/** The parameters of kernel `f`: tensors in and out, a scalar, a tile;
 * every other function's written one a line, as the printer wraps long
 * signatures. */
function kernelHead(f, type, space) {
  const params = ['self', `x__ssa_v0: ${tensor(0)}`, `w__ssa_v0: ${tensor(1, '[1024, 64]')}`,
    `out__ssa_v0: pl.Out[${tensor(2, '[16, 64]', 'pl.FP32')}]`, `rows__ssa_v0: pl.Scalar[pl.INDEX]`,
    `bias__ssa_v0: ${tensor(3, '[1, 64]', 'pl.FP32')}`, `p__tile: ${tile(space, 'mem_p', 0)}`];
  const returns = ' -> pl.Tensor[[16, 64], pl.FP32]:';
  return [
    `    @pl.function(type=pl.FunctionType.${type}, level=pl.Level.${type}, role=pl.Role.SubWorker)`,
    ...(f % 2 ? [`    def warm_${f}(`, ...params.map((p) => `        ${p},`), `    )${returns}`]
      : [`    def warm_${f}(${params.join(', ')})${returns}`]),
    '        pl.func_attr({"mx_tensor_views_blocked": True})',
  ];
}

/** One loop of a kernel: a tile loaded, worked on in a branch, yielded,
 * stored; scalar arithmetic; a view of a tile. */
function kernelLoop(i, space) {
  const at = (k) => 8192 + (k % 6) * 2048;
  return [
    `        mem_${i}: pl.Ptr = pl.tile.alloc(pl.Mem.${space}, 2048)`,
    `        r${i}__ssa_v0: pl.Scalar[pl.INDEX] = (pl.cast(rows__ssa_v0, pl.INDEX) + ${i}) // 16 * 64 + ${i} % 4`,
    `        t${i}__tile: ${tile(space, `mem_${i}`, at(i))} = pl.tile.load(x__ssa_v0, [r${i}__ssa_v0, ${i * 64}], [16, 64], [16, 64], target_memory=pl.Mem.${space}, transpose=False)`,
    `        for k${i}__idx_v0, (acc${i}__iter_v1, n${i}__iter_v1) in pl.range(0, 4, 1, init_values=(t${i}__tile, r${i}__ssa_v0)):`,
    `            if k${i}__idx_v0 == 0:`,
    `                u${i}__tile: ${tile(space, `mem_${i}`, at(i))} = pl.tile.add(acc${i}__iter_v1, p__tile)`,
    '            else:',
    `                u${i}__tile: ${tile(space, `mem_${i}`, at(i))} = pl.tile.muls(acc${i}__iter_v1, 0.125)`,
    `            m${i}__ssa_v0: pl.Scalar[pl.INDEX] = n${i}__iter_v1 + k${i}__idx_v0 * 16 - 1`,
    `            acc${i}__rv_v2, n${i}__rv_v2 = pl.yield_(u${i}__tile, m${i}__ssa_v0)`,
    `        v${i}__tile: ${tile(space, `mem_${i}`, at(i), ', pl.TileView(valid_shape=[16, 64], blayout=pl.TileLayout.row_major)')} = pl.tile.reshape(acc${i}__rv_v2, [16, 64])`,
    `        out__ssa_v${i + 1}: ${tensor(2, '[16, 64]', 'pl.FP32')} = pl.tile.store(v${i}__tile, [0, ${i * 64}], out__ssa_v0, attrs={"k": ${i}})`,
  ];
}

/** Two tiles that share bytes while both are live: a conflict, which the
 * core reports as an anomaly (and a comparison matches across dumps). */
function conflict(space) {
  return [`        mem_c0: pl.Ptr = pl.tile.alloc(pl.Mem.${space}, 2048)`,
    `        mem_c1: pl.Ptr = pl.tile.alloc(pl.Mem.${space}, 2048)`,
    `        c0__tile: ${tile(space, 'mem_c0', 20480)} = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], target_memory=pl.Mem.${space})`,
    `        c1__tile: ${tile(space, 'mem_c1', 21504)} = pl.tile.load(x__ssa_v0, [0, 64], [16, 64], target_memory=pl.Mem.${space})`,
    `        c2__tile: ${tile(space, 'mem_c0', 20480)} = pl.tile.add(c0__tile, c1__tile)`];
}

/** An orchestration function calling the kernels, as tasks with deps. */
function orchestration(functions) {
  const lines = ['    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)',
    `    def warm_main(self, x__ssa_v0: ${tensor(0)}, w__ssa_v0: ${tensor(1, '[1024, 64]')}) -> ${tensor(2, '[16, 64]', 'pl.FP32')}:`,
    `        out__ssa_v0: ${tensor(2, '[16, 64]', 'pl.FP32')} = pl.tensor.create([16, 64], dtype=pl.FP32, layout=pl.TensorLayout.ND)`,
    '        tids__ssa_v0: pl.Array[4, pl.TASK_ID] = pl.array.create(4, dtype=pl.TASK_ID)'];
  for (let f = 0; f < functions; f++) {
    lines.push(`        ret__tmp_v${f}: pl.Tuple[pl.Tensor[[16, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.warm_${f}, x__ssa_v0, w__ssa_v0, out__ssa_v0, 16, deps=[pl.array.get_element(tids__ssa_v0, ${f % 4})], attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing, pl.adir.scalar]})`,
      `        tids__ssa_v${f + 1}: pl.Array[4, pl.TASK_ID] = pl.array.update_element(tids__ssa_v${f}, ${f % 4}, ret__tmp_v${f}[1])`);
  }
  lines.push('        return out__ssa_v0');
  return lines;
}

/** A warm-up dump of `functions` kernels (AIC and AIV in turn, with a
 * reserved window), `loops` loops each, and an orchestration function. */
export function warmUpDump(functions, loops) {
  const lines = ['# pypto.program: warm_up', 'import pypto.language as pl', '', '@pl.program', 'class WarmUp:'];
  for (let f = 0; f < functions; f++) {
    const [type, space] = f % 2 ? ['AIV', 'Vec'] : ['AIC', 'Mat'];
    lines.push(...kernelHead(f, type, space),
      `        ring: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='ring', size=8192, base=0)`,
      ...conflict(space));
    for (let i = 0; i < loops; i++) lines.push(...kernelLoop(i, space));
    lines.push('        return out__ssa_v0', '');
  }
  lines.push(...orchestration(functions));
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/** The dump whose first card the page lays out unseen while it waits
 * (rehearsal.js): its model is written into the page as it is bundled. */
export const rehearsalDump = () => warmUpDump(1, 1);
