import { createHash } from 'node:crypto'
import {
  cssOfStyleTags,
  documentFor,
  FIRST_VIEW_ATTR,
  loaderScript,
  pathOf,
  RETURNING_ATTR,
  RETURNING_SCRIPT,
  withFirstView,
} from './documents'

const TEMPLATE = '<html><head><title>t</title></head><body><div id="root"></div></body></html>'

describe('documentFor', () => {
  it.each([
    ['/', 'index.html'],
    ['/claim', 'index.html'],
    ['/anything/else', 'index.html'],
    ['/staking', 'staking.html'],
    ['/staking/12', 'staking.html'],
    ['/stakingx', 'index.html'],
  ])('%s is answered with %s', (path, file) => {
    expect(documentFor(path)).toBe(file)
    if (path === '/' || path === '/staking') expect(pathOf(file)).toBe(path)
  })

  it('refuses a document the build does not make', () => {
    expect(() => pathOf('other.html')).toThrow('other.html is not one of the build')
  })
})

describe('withFirstView', () => {
  it('puts the markup in the root element, marked, and the script and styles in the head', () => {
    const out = withFirstView(TEMPLATE, { html: '<main><p>hi</p></main>', css: '.a{color:red}' })
    expect(out).toBe(
      '<html><head><title>t</title>' +
        `<script>${RETURNING_SCRIPT}</script><style>.a{color:red}</style>` +
        `<style>html[${RETURNING_ATTR}] #root[${FIRST_VIEW_ATTR}] [data-holder-prompt]{visibility:hidden;min-height:100vh}</style></head>` +
        `<body><div id="root" ${FIRST_VIEW_ATTR}><main><p>hi</p></main></div></body></html>`,
    )
  })

  it('refuses a template without one empty root element or without a head', () => {
    const view = { html: '', css: '' }
    expect(() => withFirstView('<head></head><body></body>', view)).toThrow('exactly once')
    expect(() => withFirstView('<head></head><div id="root"></div><div id="root"></div>', view)).toThrow('exactly once')
    expect(() => withFirstView('<body><div id="root"></div></body>', view)).toThrow('no </head>')
  })
})

describe('RETURNING_SCRIPT', () => {
  const run = (cookie: string) => {
    const attrs: Record<string, string> = {}
    const document = { cookie, documentElement: { setAttribute: (k: string, v: string) => (attrs[k] = v) } }
    new Function('document', RETURNING_SCRIPT)(document)
    return attrs
  }

  it('marks the page only when the walletName cookie is set', () => {
    expect(run('walletName=dev')).toEqual({ [RETURNING_ATTR]: '' })
    expect(run('ref=0xabc; walletName=browser')).toEqual({ [RETURNING_ATTR]: '' })
    expect(run('')).toEqual({})
    expect(run('ref=0xabc; oldwalletName=dev')).toEqual({})
  })
})

describe('loaderScript', () => {
  function page(visibilityState: string) {
    const added: Record<string, string | boolean>[] = []
    const frames: (() => void)[] = []
    const timers: (() => void)[] = []
    const idle: (() => void)[] = []
    const onLoad: (() => void)[] = []
    const document = {
      visibilityState,
      createElement: (tag: string) =>
        tag === 'script' ? { tag, src: '', async: true, fetchPriority: 'auto' } : { tag, rel: '', as: '', href: '' },
      head: { appendChild: (el: Record<string, string | boolean>) => added.push({ ...el }) },
    }
    const window = { requestIdleCallback: (f: () => void) => idle.push(f) }
    const start = () =>
      new Function(
        'document',
        'window',
        'requestIdleCallback',
        'addEventListener',
        'requestAnimationFrame',
        'setTimeout',
        loaderScript(['/static/a.js', '/static/b.js'], ['/static/first.js'], ['/static/dialogs.js']),
      )(
        document,
        window,
        window.requestIdleCallback,
        (type: string, f: () => void) => type === 'load' && onLoad.push(f),
        (f: () => void) => frames.push(f),
        (f: () => void) => timers.push(f),
      )
    /** The hrefs and srcs inserted so far, in order. */
    const urls = () => added.map((el) => el.src ?? el.href)
    /** Runs the frames and timers the loader asked for, and those they ask for, until none is left. */
    const settle = () => {
      while (frames.length + timers.length > 0) [...frames.splice(0), ...timers.splice(0)].forEach((f) => f())
    }
    return { added, frames, timers, idle, onLoad, start, urls, settle }
  }

  it('runs the entry scripts, in order, and fetches the chunks once the next frame has painted', () => {
    const p = page('visible')
    p.start()
    expect(p.added).toEqual([])
    p.frames.splice(0).forEach((f) => f())
    expect(p.added).toEqual([])
    p.timers.splice(0).forEach((f) => f())
    expect(p.added).toEqual([
      { tag: 'script', src: '/static/a.js', async: false, fetchPriority: 'high' },
      { tag: 'script', src: '/static/b.js', async: false, fetchPriority: 'high' },
    ])
    p.timers.splice(0).forEach((f) => f())
    expect(p.added).toEqual([
      { tag: 'script', src: '/static/a.js', async: false, fetchPriority: 'high' },
      { tag: 'script', src: '/static/b.js', async: false, fetchPriority: 'high' },
      { tag: 'link', rel: 'preload', as: 'script', href: '/static/first.js' },
    ])
  })

  it('prefetches what a click will want once the page has loaded and gone idle', () => {
    const p = page('visible')
    p.start()
    p.settle()
    expect(p.idle).toEqual([])
    p.onLoad.splice(0).forEach((f) => f())
    expect(p.added).toHaveLength(3)
    p.idle.splice(0).forEach((f) => f())
    expect(p.added.slice(3)).toEqual([{ tag: 'link', rel: 'prefetch', as: 'script', href: '/static/dialogs.js' }])
  })

  it('runs them at once in a background tab, which paints no frame', () => {
    const p = page('hidden')
    p.start()
    expect(p.frames).toEqual([])
    p.settle()
    expect(p.urls()).toEqual(['/static/a.js', '/static/b.js', '/static/first.js'])
  })

  it('is a fixed text for fixed scripts, so the policy can allow it by its hash', () => {
    const hash = (s: string) => createHash('sha256').update(s).digest('base64')
    expect(hash(loaderScript(['/static/a.js']))).toBe(hash(loaderScript(['/static/a.js'])))
    expect(hash(loaderScript(['/static/a.js']))).not.toBe(hash(loaderScript(['/static/b.js'])))
  })
})

describe('cssOfStyleTags', () => {
  it("keeps the rules and drops what only styled-components' rehydration reads", () => {
    const tags =
      '<style data-styled="true" data-styled-version="6.6.0">.a{color:red;}/*!sc*/\n' +
      'data-styled.g1[id="Button-sc-1"]{content:"a,"}/*!sc*/\n' +
      '@media (max-width:720px){.b{padding:1px;}}/*!sc*/\n</style>'
    expect(cssOfStyleTags(tags)).toBe('.a{color:red;}@media (max-width:720px){.b{padding:1px;}}')
  })
})
