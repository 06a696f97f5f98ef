/**
 * Product panels: shops put a product's description, details and specifications in panels that a
 * click opens (IKEA's `div.pipf-product-details-modal`, a Shopify theme's `main_product_modals`
 * section, a `role="dialog"` sheet, an `<aside>` accordion). Their class words ("modal", "dialog",
 * "overlay") or tag would drop them as pop-ups; a panel whose own name also says it holds the
 * product's text (product, description, details, specifications, features) and names nothing else
 * of boilerplate (no cookie, newsletter, sign-in, share, related...) is content. Matched as words
 * of the name, so "productivity-popup" or "detailsbutton-modal" are not read as one.
 */

/** The words of a panel that opens over the page; removed before the rest of the name is judged. */
const PANEL =
  /(?:^|[^a-z])(?:modal|dialog|popup|overlay|drawer|sheet|accordion|tabs?|panel)(?=$|[^a-z]|s(?:$|[^a-z]))/g;
/** Words of a product's own text, as whole words (a plural too). */
const PRODUCT =
  /(?:^|[^a-z])(?:product|description|details?|specs?|specifications?|features?|ingredients?)s?(?:$|[^a-z])/;
/** Tags and ARIA roles of a panel (not nav, footer, banner: furniture whatever their names). */
const PANEL_TAGS = new Set(['aside', 'dialog']);
const PANEL_ROLES = new Set(['dialog', 'complementary', 'tabpanel']);

/**
 * Whether an element is a panel of the product's text (see above); `boilerplate` tells whether the
 * rest of its name (its panel words removed) holds a word of boilerplate (main-content.ts's test).
 */
export function isProductPanel(
  tag: string,
  attrs: Readonly<Record<string, string>>,
  boilerplate: (hint: string) => boolean,
): boolean {
  const c = attrs.class;
  const i = attrs.id;
  if (c === undefined && i === undefined) return false;
  const hint = `${c ?? ''} ${i ?? ''}`.toLowerCase();
  if (!PRODUCT.test(hint)) return false;
  const role = attrs.role?.trim().toLowerCase();
  PANEL.lastIndex = 0;
  const panel = PANEL.test(hint) || PANEL_TAGS.has(tag) || (role !== undefined && PANEL_ROLES.has(role));
  return panel && !boilerplate(hint.replace(PANEL, ' '));
}
