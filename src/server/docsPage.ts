/**
 * GET /docs: the OpenAPI document, browsable, with Swagger UI served from the installed swagger-ui-dist package (no
 * CDN: the page works where the server has no internet and leaks no visit to a third party).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
}

const loaded = new Map<string, Buffer>()

/** A Swagger UI file by name (read once, on first use), or null for any other name. */
export function docsAsset(name: string): { type: string; body: Buffer } | null {
  const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined
  if (!type) return null
  let body = loaded.get(name)
  if (!body) {
    const root = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
    body = readFileSync(join(root, name))
    loaded.set(name, body)
  }
  return { type, body }
}

/** The page: Swagger UI over /openapi.json, with a version picker for the four API versions' documents. */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Preflight scan API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script>
const versions = ['2023-06-05', '2023-05-17', '2023-03-08', '2022-06-01']
window.ui = SwaggerUIBundle({
  dom_id: '#ui',
  urls: versions.map((version) => ({ url: '/openapi.json?version=' + version, name: 'X-Api-Version ' + version })),
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
})
</script>
</body>
</html>
`
}
