/** Safe's own contracts as the engine knows them: generated from @safe-global/safe-deployments, all versions. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isSafeDeployment, safeDeployment } from '../../../src/engine/safe/deployments.ts'
import { deploymentsDocument, deploymentsPath } from '../../tools/safeDeployments.ts'

describe('known Safe deployments', () => {
  it('hold what the installed @safe-global/safe-deployments lists (npm run generate:safe-deployments)', () => {
    expect(JSON.parse(readFileSync(deploymentsPath, 'utf8'))).toEqual(deploymentsDocument())
  })

  it('cover every released version from 1.0.0 to 1.5.0, on every chain, by role', () => {
    const versions = new Set(deploymentsDocument().deployments.map((deployment) => deployment.version))
    expect([...versions]).toEqual(['1.0.0', '1.1.1', '1.2.0', '1.3.0', '1.4.1', '1.5.0'])
    // MultiSend 1.3.0: canonical, eip155 and zkSync addresses.
    for (const address of [
      '0xA238CBeb142c10Ef7Ad8442C6D1f9E89e07e7761',
      '0x998739BFdAAdde7C933B942a68053933098f9EDa',
      '0x0dFcccB95225ffB03c6FBB2559B530C2B7C8A912',
    ] as const) {
      expect(safeDeployment(address)).toEqual({ name: 'MultiSend', version: '1.3.0', role: 'library' })
    }
    expect(isSafeDeployment('0x41675c099f32341bf84bfc5382af534df5c7461a', 'singleton')).toBe(true)
    expect(isSafeDeployment('0x3E5c63644E683549055b9Be8653de26E0B4CD36E', 'singleton')).toBe(true)
    expect(isSafeDeployment('0x526643F69b81B008F46d95CD5ced5eC0edFFDaC6', 'library')).toBe(true)
    expect(isSafeDeployment('0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99', 'fallbackHandler')).toBe(true)
    // A singleton is not a library: delegate-calling Safe's own singleton is no batch.
    expect(isSafeDeployment('0x41675C099F32341bf84BFc5382aF534df5C7461a', 'library')).toBe(false)
    // SimulateTxAccessor, delegate-called, runs any call it is handed as the Safe: Safe's, but no library to trust.
    expect(safeDeployment('0x3d4BA2E0884aa488718476ca2FB8Efc291A46199')).toEqual({
      name: 'SimulateTxAccessor',
      version: '1.4.1',
      role: 'other',
    })
    expect(safeDeployment('0x000000000000000000000000000000000000dEaD')).toBeNull()
  })
})
