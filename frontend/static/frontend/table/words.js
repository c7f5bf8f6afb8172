// Cards and tiles in words, for screen readers and voice control: "six of hearts", "double blank",
// "six-four". The table shows the players' notation ("6♥", pips); every card, tile and pile also has
// a name in words in the page's language (docs/accessibility.md). Vocabulary: docs/glossary.md.
const gettext = window.gettext || ((s) => s);
const pgettext = window.pgettext || ((context, s) => s);
const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (_, k) => o[k]));

/** A small number in words: the ranks of cards (2–10) and the halves of a domino (0–6). */
export function numberWord(n) {
  const words = {
    0: () => pgettext("a domino half with no pips", "blank"),
    1: () => pgettext("number word", "one"),
    2: () => pgettext("number word", "two"),
    3: () => pgettext("number word", "three"),
    4: () => pgettext("number word", "four"),
    5: () => pgettext("number word", "five"),
    6: () => pgettext("number word", "six"),
    7: () => pgettext("number word", "seven"),
    8: () => pgettext("number word", "eight"),
    9: () => pgettext("number word", "nine"),
    10: () => pgettext("number word", "ten"),
  };
  return words[n] ? words[n]() : String(n);
}

export function rankWord(rank) {
  const faces = {
    A: () => pgettext("card rank", "ace"),
    K: () => pgettext("card rank", "king"),
    Q: () => pgettext("card rank", "queen"),
    J: () => pgettext("card rank", "jack"),
  };
  return faces[rank] ? faces[rank]() : numberWord(Number(rank));
}

export function suitWord(suit) {
  return { S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs") }[suit] || suit;
}

/** "10H" -> "ten of hearts". */
export function cardWords(card) {
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank: rankWord(card.slice(0, -1)), suit: suitWord(card.slice(-1)) }, true);
}

/** "6-4" -> "six-four", "6-6" -> "double six", "0-0" -> "double blank". */
export function tileWords(tile) {
  const [a, b] = tile.split("-").map(Number);
  if (a === b) return a === 0 ? gettext("double blank") : interpolate(gettext("double %(n)s"), { n: numberWord(a) }, true);
  return interpolate(gettext("%(high)s-%(low)s"), { high: numberWord(a), low: numberWord(b) }, true);
}

/** An accessible name that starts with what the eye reads ("A♠") and goes on in words (WCAG 2.5.3:
 * a voice-control user says what is on screen; a screen reader user hears the words). */
export function named(visible, words) {
  return visible ? `${visible}, ${words}` : words;
}
