// Numbers and half-points in the page's language (<html lang>).
//
// Browsers know Tagalog as Filipino ("fil") and have no number data for Kreyòl: Haiti writes numbers
// the French way (1 250, 12,5), so "ht" uses "fr-HT". Half-points are always written with "½" after
// the whole part ("7½", "1 250½"): it is how score sheets are kept at the clubs in every language,
// and it reads the same everywhere. Negative numbers take the minus sign "−" (as the cards show it).
const NUMBER_LOCALES = { ht: "fr-HT", tl: "fil" };

function makeFormat(lang) {
  const locale = NUMBER_LOCALES[lang] || lang || "en";
  try {
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  } catch {
    return new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
  }
}

const whole = makeFormat(document.documentElement.lang);

/** A whole number, grouped as the language writes it: 1,250 (en, tl) or 1 250 (ht). */
export function number(n) {
  return whole.format(n).replace(/^-/, "−");
}

/** A score kept in 1/scale points (dominoes keep half-points, scale 2): 7½, −½, 1 250. */
export function points(value, scale = 1) {
  const s = scale || 1;
  if (s === 1) return number(value);
  const units = Math.trunc(value / s);
  const half = Math.abs(value % s) !== 0;
  if (!half) return number(units);
  if (units === 0) return value < 0 ? "−½" : "½";
  return `${number(units)}½`;
}
