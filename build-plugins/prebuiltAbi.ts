/**
 * A Vite plugin that runs viem's parseAbi at build time: each `parseAbi([...])` call whose signatures are all string
 * literals is bundled as the ABI it returns. The source keeps its human-readable ABIs (and Node still parses them);
 * the service worker no longer runs abitype's parser over every signature while it starts, before it can answer.
 */
import { parseAbi } from 'viem'
import type { Plugin } from 'vite'

type Node = { type: string; start: number; end: number; [key: string]: unknown }
type Edit = { start: number; end: number; text: string }

const isNode = (value: unknown): value is Node =>
  !!value && typeof value === 'object' && typeof (value as Node).type === 'string'

/** The signatures of a `parseAbi([...string literals])` call, or undefined for any other node. */
function literalSignatures(node: Node): string[] | undefined {
  const callee = node.callee as Node | undefined
  const args = node.arguments as Node[] | undefined
  if (node.type !== 'CallExpression' || callee?.type !== 'Identifier' || callee.name !== 'parseAbi') return undefined
  const list = args?.length === 1 ? args[0] : undefined
  if (list?.type !== 'ArrayExpression') return undefined
  const elements = list.elements as (Node | null)[]
  const strings = elements.map((element) =>
    element?.type === 'Literal' && typeof element.value === 'string' ? element.value : undefined,
  )
  return strings.every((value) => value !== undefined) ? (strings as string[]) : undefined
}

/** Replaces each parseAbi call over literal signatures in `code` (whose syntax tree is `program`) by its result. */
export function prebuildAbis(code: string, program: Node): string | undefined {
  const edits: Edit[] = []
  const visit = (node: Node) => {
    const signatures = literalSignatures(node)
    if (signatures) {
      const abi = JSON.stringify(parseAbi(signatures))
      edits.push({ start: node.start, end: node.end, text: `JSON.parse(${JSON.stringify(abi)})` })
      return
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const item of value) if (isNode(item)) visit(item)
      if (isNode(value)) visit(value)
    }
  }
  visit(program)
  if (edits.length === 0) return undefined
  let out = code
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
  return out
}

/** The plugin, for modules whose id matches `include`. */
export function prebuiltAbi(include: RegExp): Plugin {
  return {
    name: 'preflight:prebuilt-abi',
    apply: 'build',
    transform(code, id) {
      if (!include.test(id) || !code.includes('parseAbi(')) return null
      const out = prebuildAbis(code, this.parse(code) as unknown as Node)
      return out === undefined ? null : { code: out, map: null }
    },
  }
}
