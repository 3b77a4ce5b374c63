/** One element of the document as the reference count needs it. */
export interface SvgNode {
  local: string;
  id?: string;
  children: number[];
  /** `href` of a `<use>` or `<pattern>`, and `url(#id)` in its attributes, without the `#`. */
  refs: string[];
}

type Expansion = { kind: 'size'; size: number } | { kind: 'loop'; id: string };

/** Gradients only hold stops: a reference to one costs nothing worth counting. */
const CHEAP_TARGETS = new Set(['linearGradient', 'radialGradient', 'stop']);

/**
 * How many elements the renderer draws for node 0 (the root), each reference counted as a copy of
 * what it points to (so ten `<use>` of ten `<use>` of ... count as the copies they make), or the
 * id of a reference that leads back into itself. Counts stop growing past `cap`, so a reference
 * bomb costs a pass over the document, never its expansion.
 */
export function expandedSize(nodes: SvgNode[], cap: number): Expansion {
  const byId = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (node.id !== undefined && !byId.has(node.id)) byId.set(node.id, index);
  });
  const edges = (index: number): Array<{ to: number; via?: string }> => [
    ...nodes[index]!.children.map((to) => ({ to })),
    ...nodes[index]!.refs.flatMap((id) => {
      const to = byId.get(id);
      return to === undefined || CHEAP_TARGETS.has(nodes[to]!.local) ? [] : [{ to, via: id }];
    }),
  ];
  const size = new Array<number>(nodes.length).fill(0);
  // 0: not seen, 1: on the current path, 2: counted.
  const state = new Uint8Array(nodes.length);
  const stack: Array<{ index: number; edges: Array<{ to: number; via?: string }>; next: number }> = [];
  const enter = (index: number) => {
    state[index] = 1;
    stack.push({ index, edges: edges(index), next: 0 });
  };
  if (nodes.length === 0) return { kind: 'size', size: 0 };
  enter(0);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.edges.length) {
      const edge = top.edges[top.next++]!;
      if (state[edge.to] === 1) return { kind: 'loop', id: edge.via ?? nodes[edge.to]!.id ?? nodes[edge.to]!.local };
      if (state[edge.to] === 0) enter(edge.to);
      continue;
    }
    let total = 1;
    for (const edge of top.edges) total = Math.min(cap + 1, total + size[edge.to]!);
    size[top.index] = total;
    state[top.index] = 2;
    stack.pop();
  }
  return { kind: 'size', size: size[0]! };
}
