import { useInView } from 'react-intersection-observer'

/**
 * A ref for an element and whether it has come within `margin` of the screen (a CSS margin: 200 px above and below by
 * default). It stays true once it has. What only shows far down the page (a chart, the activity list,
 * the statistics) is read and drawn when the visitor scrolls towards it, not as the page loads: on a phone that work
 * shared the main thread and the connection with the figures at the top (docs/architecture.md §10). A browser without
 * IntersectionObserver (and the tests' jsdom) gets it at once.
 */
export function useNearScreen(margin = '200px 0px') {
  const { ref, inView } = useInView({ triggerOnce: true, rootMargin: margin, fallbackInView: true })
  return [ref, inView] as const
}
