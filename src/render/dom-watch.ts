/**
 * Run in every document before its own scripts (page.addInitScript, browser.ts): keeps the time of
 * the last change to the DOM's nodes or text (attributes are left out: an animation changes them
 * forever without changing the content), and counts the page's fetch() and XHR calls not answered
 * yet. The count is the page's own: a request reaches the crawler's route (the gate's count) only
 * some time after the script made it, and a DOM taken in between would miss its data.
 */
export const DOM_WATCH = `(() => {
  let last = performance.now();
  let pending = 0;
  const touch = () => { last = performance.now(); };
  new MutationObserver(touch).observe(document, { subtree: true, childList: true, characterData: true });
  const fetch0 = window.fetch;
  if (typeof fetch0 === 'function') {
    window.fetch = function (...args) {
      pending++;
      const done = () => { pending--; touch(); };
      const p = fetch0.apply(this, args);
      p.then(done, done);
      return p;
    };
  }
  const XHR = window.XMLHttpRequest;
  if (XHR) {
    const send0 = XHR.prototype.send;
    XHR.prototype.send = function (...args) {
      const result = send0.apply(this, args);
      // Counted once sent and not done already (a send that throws, or a synchronous request, has
      // no loadend to come).
      if (this.readyState !== 4) {
        pending++;
        this.addEventListener('loadend', () => { pending--; touch(); }, { once: true });
      }
      return result;
    };
  }
  Object.defineProperty(window, '__oscSettle', { value: () => [performance.now() - last, pending] });
})()`;
