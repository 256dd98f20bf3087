// a11y.js: a small accessibility check the browser tests run on each screen, in the spirit of
// axe-core's serious rules: names of controls, buttons, links and images, unique ids, ARIA
// references that resolve, one h1, a page language, and text contrast (WCAG AA). It returns a
// list of problems as strings (empty when the screen passes).
(() => {
  const out = [];
  const visible = (el) => {
    if (el.closest('[hidden], [aria-hidden="true"], .sr-only')) return false;
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const describe = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${(el.textContent || el.value || '').trim().slice(0, 40)}"`;
  const byId = (id) => document.getElementById(id);
  const name = (el) => {
    const lb = el.getAttribute('aria-labelledby');
    if (lb) return lb.split(/\s+/).map((id) => byId(id)?.textContent ?? '').join(' ').trim();
    if (el.getAttribute('aria-label')) return el.getAttribute('aria-label').trim();
    if (el.id) { const l = document.querySelector(`label[for="${CSS.escape(el.id)}"]`); if (l) return l.textContent.trim(); }
    const wrap = el.closest('label');
    if (wrap) return wrap.textContent.trim();
    if (['BUTTON', 'A', 'SUMMARY', 'OPTION'].includes(el.tagName)) {
      const imgs = [...el.querySelectorAll('img[alt]')].map((i) => i.alt).join(' ');
      return (el.textContent.trim() + ' ' + imgs).trim();
    }
    if (el.tagName === 'FIELDSET') return el.querySelector('legend')?.textContent.trim() ?? '';
    return (el.getAttribute('title') ?? '').trim();
  };

  if (!document.documentElement.lang) out.push('html element has no lang');
  const h1 = [...document.querySelectorAll('h1')].filter(visible);
  if (h1.length !== 1) out.push(`expected one visible h1, found ${h1.length}`);

  for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea, [role=combobox], [role=switch]')) {
    if (visible(el) && !name(el)) out.push(`form control without a label: ${describe(el)}`);
  }
  for (const el of document.querySelectorAll('button, a[href], [role=button], [role=tab], [role=option]')) {
    if (visible(el) && !name(el)) out.push(`${el.tagName.toLowerCase()} without an accessible name: ${describe(el)}`);
  }
  for (const el of document.querySelectorAll('img')) {
    if (!el.hasAttribute('alt')) out.push(`image without alt: ${el.getAttribute('src')}`);
  }
  const seen = new Map();
  for (const el of document.querySelectorAll('[id]')) {
    if (seen.has(el.id)) out.push(`duplicate id "${el.id}"`);
    seen.set(el.id, el);
  }
  for (const attr of ['aria-describedby', 'aria-labelledby', 'aria-controls', 'aria-activedescendant', 'for']) {
    for (const el of document.querySelectorAll(`[${attr}]`)) {
      for (const id of el.getAttribute(attr).split(/\s+/).filter(Boolean)) {
        if (!byId(id) && !(attr === 'aria-controls' && el.getAttribute('aria-expanded') === 'false')) out.push(`${attr}="${id}" names no element (${describe(el)})`);
      }
    }
  }

  // Contrast of text against the first opaque background behind it.
  const rgb = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = ({ r, g, b }) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c && c.a >= 0.99) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const reported = new Set();
  for (const el of document.querySelectorAll('body *')) {
    if (!['SCRIPT', 'STYLE', 'OPTION'].includes(el.tagName) && [...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim()) && visible(el)) {
      if (el.closest(':disabled, [aria-disabled="true"]')) continue;
      const s = getComputedStyle(el);
      const fg = rgb(s.color);
      if (!fg) continue;
      const bg = background(el);
      const mix = { r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a) };
      const [l1, l2] = [lum(mix), lum(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      const need = large ? 3 : 4.5;
      const key = `${s.color}/${bg.r},${bg.g},${bg.b}`;
      if (ratio < need && !reported.has(key)) {
        reported.add(key);
        out.push(`text contrast ${ratio.toFixed(2)}:1 below ${need}:1 (${s.color} on rgb(${bg.r}, ${bg.g}, ${bg.b})): ${describe(el)}`);
      }
    }
  }
  return out;
})()
