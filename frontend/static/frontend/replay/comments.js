// Comments pinned to a moment: fetched once, then kept up to date by the replay socket.
const gettext = window.gettext || ((s) => s);

export class Comments {
  constructor(config, { onChange, onError }) {
    this.config = config;
    this.onChange = onChange;
    this.onError = onError;
    this.all = new Map();
  }

  async load() {
    const response = await fetch(this.config.comments, { credentials: "same-origin" });
    if (!response.ok) return;
    const body = await response.json();
    for (const note of body.comments || []) this.all.set(note.id, note);
    this.onChange();
  }

  upsert(note) {
    this.all.set(note.id, note);
    this.onChange();
  }

  remove(id) {
    this.all.delete(id);
    this.onChange();
  }

  at(seq) {
    return [...this.all.values()].filter((note) => note.seq === seq).sort((a, b) => a.id - b.id);
  }

  count(seqs) {
    return [...this.all.values()].filter((note) => seqs.includes(note.seq)).length;
  }

  async send(url, fields) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const response = await fetch(url, {
      method: "POST",
      body: form,
      credentials: "same-origin",
      headers: { "X-CSRFToken": this.config.csrf },
    });
    const body = await response.json().catch(() => ({}));
    if (body.error) { this.onError(body.error.message); return false; }
    if (body.comment) this.upsert(body.comment);
    return true;
  }

  post(seq, text) {
    return this.send(this.config.comments, { seq, text });
  }

  setHidden(note, hidden) {
    return this.send(`${this.config.comments}${note.id}/`, { hidden: hidden ? "1" : "0" });
  }

  // The comments on one moment, with Hide/Show for whoever moderates.
  render(list, seq) {
    list.replaceChildren(...this.at(seq).map((note) => this.item(note)));
  }

  item(note) {
    const item = document.createElement("li");
    item.className = "replay-comment" + (note.hidden ? " hidden-comment" : "");
    item.dataset.comment = note.id;
    const author = document.createElement("strong");
    author.textContent = note.author;
    const text = document.createElement("span");
    text.className = "replay-comment-text";
    text.textContent = note.text;
    item.append(author, document.createTextNode(" "), text);
    if (note.hidden) {
      const mark = document.createElement("em");
      mark.className = "meta";
      mark.textContent = gettext("(hidden)");
      item.append(document.createTextNode(" "), mark);
    }
    if (this.config.moderator) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button small";
      button.dataset.moderate = note.hidden ? "show" : "hide";
      button.textContent = note.hidden ? gettext("Show") : gettext("Hide");
      button.addEventListener("click", () => this.setHidden(note, !note.hidden));
      item.append(document.createTextNode(" "), button);
    }
    return item;
  }
}
