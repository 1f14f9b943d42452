/**
 * `npm run serve`: serves the production build in dist/ (`npm run build` first) the way it should be hosted, with the
 * headers the build wrote (dist/_headers: Content-Security-Policy, nosniff, no framing, cache lifetimes). On
 * 127.0.0.1:SERVE_PORT (default 8080) unless SERVE_HOST says otherwise; SERVE_DIR serves another build folder.
 * docs/operations.md shows the same headers on nginx and a CDN.
 */
import path from 'node:path'
import { serveStatic } from './lib/app'

const dir = path.resolve(process.env.SERVE_DIR ?? path.join(__dirname, '..', 'dist'))
const port = Number(process.env.SERVE_PORT ?? 8080)
const host = process.env.SERVE_HOST ?? '127.0.0.1'

serveStatic(dir, port, host).then(
  (app) => {
    console.log(`Serving ${dir} on ${app.url} (Ctrl-C stops it)`)
    const stop = () => void app.stop().then(() => process.exit(0))
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  },
  (err: Error & { code?: string }) => {
    console.error(err.code === 'EADDRINUSE' ? `Port ${port} on ${host} is in use: set SERVE_PORT.` : err.message)
    process.exit(1)
  },
)
