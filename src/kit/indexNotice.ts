/**
 * What a section read from the API's index says above its figures when they are not whole (docs/product.md §2.9,
 * §2.10): the service down, starting or refusing, or the index behind the chain. The Activity list and the statistics
 * word theirs each in their own selectors and show them through one box (src/ui/IndexNoticeBox.tsx).
 */
export interface IndexNotice {
  kind: 'down' | 'starting' | 'refused' | 'behind'
  title: string
  text: string
  /** Why the read failed, in small print; null for a lagging index. */
  reason: string | null
  /** A failure offers Retry; a lagging index catches up by itself. */
  retry: boolean
}
