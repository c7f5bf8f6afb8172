// French-suited cards as Kazino and Pitch write them ("10H"): their parts, their notation, their face.

import { el } from "./dom.js";

export const SUIT_SIGN = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);

export const rankOf = (card) => card.slice(0, -1);
export const suitOf = (card) => card.slice(-1);

/** "10H" -> "10♥": the notation players expect. */
export function cardText(card) {
  return rankOf(card) + SUIT_SIGN[suitOf(card)];
}

/** The face of a card, its classes prefixed by the game's (``kz``, ``pt``): its one label is the
 * corner ("10♥"); the big pip (and, with ``rank``, the upside-down rank) is drawn by the style sheet,
 * so that what the eye reads is what the accessible name starts with (WCAG 2.5.3). The name in words
 * is given by the card's container. */
export function cardFace(prefix, card, extra = "", rank = false) {
  const node = el("span", `${prefix}-card ${RED.has(suitOf(card)) ? `${prefix}-red` : `${prefix}-black`} ${extra}`.trim(), { "data-card": card });
  node.append(
    el("span", `${prefix}-corner`, { text: cardText(card), "aria-hidden": "true" }),
    el("span", `${prefix}-pip`, { "data-sign": SUIT_SIGN[suitOf(card)], "aria-hidden": "true" }),
  );
  if (rank) node.append(el("span", `${prefix}-rank`, { "data-rank": rankOf(card), "aria-hidden": "true" }));
  return node;
}
