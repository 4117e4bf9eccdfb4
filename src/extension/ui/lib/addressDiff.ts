/** A run of an address's characters that is, or is not, the same as in the address it is compared with. */
export type Run = { text: string; differs: boolean }

/**
 * `address` cut into runs that match `other` character for character (case aside, as checksums differ) and runs
 * that do not: what the window marks when it sets a lookalike beside the address it mimics.
 */
export function differingRuns(address: string, other: string): Run[] {
  const runs: Run[] = []
  for (let index = 0; index < address.length; index++) {
    const char = address[index] as string
    const differs = char.toLowerCase() !== other[index]?.toLowerCase()
    const last = runs.at(-1)
    if (last && last.differs === differs) last.text += char
    else runs.push({ text: char, differs })
  }
  return runs
}
