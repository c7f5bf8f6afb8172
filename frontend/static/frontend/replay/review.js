// The computer's review of a finished game: each player's summary, and the flagged decisions marked
// on the timeline. The server scored every decision from that seat's view only (replay/review.py).
const gettext = window.gettext || ((s) => s);
const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));

const POLL_MS = 3000;

export class Review {
  constructor(config, { onChange, onError }) {
    this.url = config.review;
    this.csrf = config.csrf;
    this.signedIn = Boolean(config.user);
    this.onChange = onChange;
    this.onError = onError;
    this.summary = null;
    this.decisions = [];
    this.graph = "";
    this.timer = null;
  }

  get enabled() {
    return Boolean(this.url);
  }

  async load(method = "GET") {
    if (!this.url) return;
    const init = { method, credentials: "same-origin" };
    if (method === "POST") init.headers = { "X-CSRFToken": this.csrf };
    let body;
    try {
      const response = await fetch(this.url, init);
      body = await response.json();
    } catch {
      this.onError(gettext("The review could not be loaded."));
      return;
    }
    if (body.error) {
      this.onError(body.error.message);
      return;
    }
    this.summary = body.summary;
    this.decisions = body.decisions || [];
    this.graph = body.graph || ""; // the server's drawing of the review (replay/graph.py)
    const status = this.summary ? this.summary.status : null;
    clearTimeout(this.timer);
    if (status === "queued" || status === "running") this.timer = setTimeout(() => this.load(), POLL_MS);
    this.onChange();
  }

  request() {
    return this.load("POST");
  }

  // The decision made by the command whose events carry these seqs (a decision is named by the
  // first event of its command).
  at(seqs) {
    return this.decisions.find((d) => seqs.includes(d.seq)) || null;
  }

  // A short mark for the timeline: "?!" an inaccuracy, "?" a mistake (the chess signs players know).
  static mark(decision) {
    if (!decision || !decision.label) return "";
    return decision.label === "mistake" ? "?" : "?!";
  }

  render(box, { seatName, describe, here }) {
    box.replaceChildren();
    const add = (tag, text, className) => {
      const node = document.createElement(tag);
      if (text) node.textContent = text;
      if (className) node.className = className;
      box.append(node);
      return node;
    };
    const status = this.summary ? this.summary.status : null;
    box.dataset.status = status || "none";
    if (!status || status === "failed") {
      if (status === "failed") add("p", gettext("The last review did not finish."), "meta");
      if (this.signedIn) {
        const button = add("button", gettext("Ask the computer to review this game"), "button");
        button.type = "button";
        button.id = "review-request";
        button.addEventListener("click", () => this.request());
      } else {
        add("p", gettext("Sign in to ask for a review."), "meta");
      }
      return;
    }
    if (status === "queued" || status === "running") {
      add("p", gettext("The computer is reviewing this game…"), "meta");
      return;
    }
    const list = add("ul", "", "review-summary");
    for (const seat of this.summary.seats) {
      const item = document.createElement("li");
      item.dataset.seat = seat.seat;
      item.textContent = interpolate(gettext("%(name)s: %(figures)s"), { name: seatName(seat.seat), figures: seat.text }, true);
      list.append(item);
    }
    if (here && here.label) {
      const sentence = here.label === "mistake"
        ? gettext("A mistake: it cost %(loss)s points on average. Better: %(best)s.")
        : gettext("An inaccuracy: it cost %(loss)s points on average. Better: %(best)s.");
      const note = add("p", interpolate(sentence, { loss: formatLoss(here.loss), best: String(describe(here.best)).replace(/[.\s]+$/, "") }, true), "review-here");
      note.dataset.label = here.label;
    }
  }
}

function formatLoss(loss) {
  return new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 1 }).format(loss);
}
